// Package slurm reads what the Slurm workload manager records about jobs:
// which nodes each job ran on and when. A fat-tree picture needs exactly
// that to colour the links a job used and to line its traffic up in time.
//
// It reads three things:
//
//   - hostlists, Slurm's compressed node names such as "n[01-04,07]" and
//     "rack[1-2]-n[01-02]" (ExpandHostlist, and CompressHostlist for the
//     inverse);
//   - job logs written by `sacct --parsable2` (or --parsable) with a header
//     line naming the columns (ReadSacct);
//   - fixed-width queue listings: the short format of LLNL's sqlog, which
//     TreeScope reads from slurmqlog/sqlog.txt, and squeue's default format
//     (ReadSqlog);
//
// and joins jobs to a network: HCAHost takes the host name out of an
// InfiniBand NodeDescription and MapNodes turns each job's node names into
// node indices.
//
// Bad input never panics and is never skipped: every error is a
// *ParseError printing "file:line:col: expected …, found …", where col is
// the 1-based byte column at which the bad field starts. Input that is
// well formed but incomplete (a job still running, a pending job without
// nodes, a node count that disagrees with the node list, a node name the
// network does not know) is kept and reported as a Warning naming the line
// and the job, so that nothing is silently dropped.
//
// What the package refuses to know: it runs no Slurm command and reads no
// slurm.conf, so it knows no node that a file does not name; it does not
// interpret partitions, states or reasons (they are kept as text); it does
// not place jobs, route traffic or know any topology (the caller maps names
// to its own nodes with MapNodes); it does not read the multi-dimensional
// "box" hostlists of BlueGene and Cray systems ("bgl[000x133]"); and it
// never guesses a time zone or a year: times are read in the location given
// by the Location option (UTC by default) and sqlog's year-less dates take
// the year the caller passes.
//
// The package uses the standard library only and keeps no package-level
// mutable state, so every function may be called from several goroutines.
package slurm
