// Package ompimon reads the text files that Open MPI's pml_monitoring
// component writes at MPI_Finalize (one `<prefix>.<rank>.prof` file per
// rank, enabled with `--mca pml_monitoring_enable 2 --mca
// pml_monitoring_enable_output 3 --mca pml_monitoring_filename <prefix>`).
//
// It knows the file format of ompi/mca/common/monitoring (Open MPI 4.x):
// the `# POINT TO POINT` section with `E` (external, user messages) and `I`
// (internal, e.g. collectives built on point-to-point) lines, the `# OSC`
// section with `S` (sent) and `R` (received) lines, and the `# COLLECTIVES`
// section with `C` lines and per-communicator `D` blocks followed by
// `O2A`, `A2O` and `A2A` lines.
//
// It refuses to know anything else: no other superstep package, no trace
// model, no graph types. Results are plain Go slices that callers convert.
// The size histogram is per peer and counts external and internal messages
// together; Open MPI prints it only on the first line for that peer, so the
// package reports it per pair and never checks `E` counts against it.
package ompimon

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"superstep/internal/linereader"
)

// Pair holds the point-to-point counters of messages sent from Src to Dst
// (world ranks).
type Pair struct {
	Src, Dst int
	// ExtMsgs and ExtBytes come from the `E` line: messages the
	// application sent.
	ExtMsgs, ExtBytes uint64
	// IntMsgs and IntBytes come from the `I` line: messages MPI itself sent
	// (collectives implemented over point-to-point, negative tags).
	IntMsgs, IntBytes uint64
	// Hist is the message-size histogram of all (external and internal)
	// messages from Src to Dst, or nil when the file printed none. Bin 0
	// counts empty messages, bin k >= 1 sizes in [2^(k-1), 2^k).
	Hist []uint64
}

// OSC holds one-sided communication counters between Rank and Peer.
type OSC struct {
	Rank, Peer int
	// SentMsgs/SentBytes: the `S` line (data Rank sent to Peer).
	SentMsgs, SentBytes uint64
	// RecvMsgs/RecvBytes: the `R` line (data Rank received from Peer).
	RecvMsgs, RecvBytes uint64
}

// Coll is a `C` line: bytes and messages Rank sent to Peer as part of
// collective operations.
type Coll struct {
	Rank, Peer  int
	Msgs, Bytes uint64
}

// Counter is a message count and byte total.
type Counter struct {
	Msgs, Bytes uint64
}

// Comm is one `D` block: a communicator as seen by Rank.
type Comm struct {
	Name string
	// Procs lists the world ranks of the communicator's members.
	Procs []int
	// Rank is the world rank of the process that wrote the block.
	Rank int
	// O2A (one to all), A2O (all to one), A2A (all to all) counters of Rank.
	O2A, A2O, A2A Counter
}

// RankFile is the content of one `.prof` file.
type RankFile struct {
	// File is the name the file was read under.
	File string
	// Rank is the world rank that wrote the file (-1 if neither the file
	// name nor any line told).
	Rank  int
	Pairs []Pair // sorted by Dst
	OSC   []OSC  // sorted by Peer
	Coll  []Coll // sorted by Peer
	Comms []Comm // in file order
}

// Data is a whole monitoring run: one RankFile per rank.
type Data struct {
	// Ranks is the number of ranks: one more than the largest rank seen in a
	// file name or line, or the size of MPI_COMM_WORLD if that is larger.
	Ranks int
	// Files, sorted by Rank.
	Files []RankFile
}

// ParseError reports malformed input: the file, the 1-based line, the
// 1-based byte column (0 if the line as a whole is wrong) and what was
// expected there; its text is "file:line:col: expected …, found …" (col
// left out when 0). It is the one parse error of all of Superstep's file
// readers (internal/linereader.ParseError), so errors.As matches every
// reader's.
type ParseError = linereader.ParseError

// Pairs returns all point-to-point pairs of all files, sorted by (Src, Dst).
func (d *Data) Pairs() []Pair {
	var out []Pair
	for _, f := range d.Files {
		out = append(out, f.Pairs...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Src != out[j].Src {
			return out[i].Src < out[j].Src
		}
		return out[i].Dst < out[j].Dst
	})
	return out
}

// External sums the `E` lines: messages, bytes and the number of pairs with
// at least one external message.
func (d *Data) External() (msgs, bytes uint64, pairs int) {
	for _, f := range d.Files {
		for _, p := range f.Pairs {
			msgs += p.ExtMsgs
			bytes += p.ExtBytes
			if p.ExtMsgs > 0 {
				pairs++
			}
		}
	}
	return msgs, bytes, pairs
}

// ExternalMatrix returns dense Ranks×Ranks matrices of external message
// counts and bytes, indexed [src][dst].
func (d *Data) ExternalMatrix() (msgs, bytes [][]uint64) {
	msgs = make([][]uint64, d.Ranks)
	bytes = make([][]uint64, d.Ranks)
	for i := range msgs {
		msgs[i] = make([]uint64, d.Ranks)
		bytes[i] = make([]uint64, d.Ranks)
	}
	for _, f := range d.Files {
		for _, p := range f.Pairs {
			if p.Src < d.Ranks && p.Dst < d.Ranks {
				msgs[p.Src][p.Dst] += p.ExtMsgs
				bytes[p.Src][p.Dst] += p.ExtBytes
			}
		}
	}
	return msgs, bytes
}

// ReadFile reads one `.prof` file.
func ReadFile(path string) (*RankFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ompimon: %w", err)
	}
	return parse(path, rankFromName(filepath.Base(path)), b)
}

// Read reads the files `<prefix>.<rank>.prof` in dir.
func Read(dir, prefix string) (*Data, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("ompimon: %w", err)
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasPrefix(n, prefix+".") {
			continue
		}
		if _, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(n, prefix+"."), ".prof")); err == nil &&
			strings.HasSuffix(n, ".prof") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("ompimon: no files %s.<rank>.prof in %s", prefix, dir)
	}
	return readNames(os.DirFS(dir), names, dir)
}

// ReadFS reads every file of fsys matching pattern (fs.Glob syntax, e.g.
// "run/grid.*.prof").
func ReadFS(fsys fs.FS, pattern string) (*Data, error) {
	names, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, fmt.Errorf("ompimon: pattern %q: %w", pattern, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("ompimon: no files match %q", pattern)
	}
	return readNames(fsys, names, "")
}

func readNames(fsys fs.FS, names []string, dir string) (*Data, error) {
	d := &Data{}
	seen := map[int]string{}
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("ompimon: %w", err)
		}
		shown := n
		if dir != "" {
			shown = filepath.Join(dir, n)
		}
		f, err := parse(shown, rankFromName(pathBase(n)), b)
		if err != nil {
			return nil, err
		}
		if f.Rank >= 0 {
			if prev, dup := seen[f.Rank]; dup {
				return nil, fmt.Errorf("ompimon: %s and %s both hold rank %d", prev, shown, f.Rank)
			}
			seen[f.Rank] = shown
		}
		d.Files = append(d.Files, *f)
		d.Ranks = max(d.Ranks, f.maxRank()+1)
	}
	sort.SliceStable(d.Files, func(i, j int) bool { return d.Files[i].Rank < d.Files[j].Rank })
	return d, nil
}

func pathBase(n string) string {
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		return n[i+1:]
	}
	return n
}

// rankFromName extracts R from "<prefix>.R.prof", or returns -1.
func rankFromName(base string) int {
	s, ok := strings.CutSuffix(base, ".prof")
	if !ok {
		return -1
	}
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return -1
	}
	r, err := strconv.Atoi(s[i+1:])
	if err != nil || r < 0 {
		return -1
	}
	return r
}

func (f *RankFile) maxRank() int {
	m := f.Rank
	for _, p := range f.Pairs {
		m = max(m, p.Src, p.Dst)
	}
	for _, o := range f.OSC {
		m = max(m, o.Rank, o.Peer)
	}
	for _, c := range f.Coll {
		m = max(m, c.Rank, c.Peer)
	}
	for _, c := range f.Comms {
		if c.Name == "MPI_COMM_WORLD" {
			m = max(m, len(c.Procs)-1)
		}
		for _, p := range c.Procs {
			m = max(m, p)
		}
	}
	return m
}
