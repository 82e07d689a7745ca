package slurm

import (
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// sacctTimeLayout is how sacct writes Start and End (its default
// SLURM_TIME_FORMAT, "standard").
const sacctTimeLayout = "2006-01-02T15:04:05"

// The columns ReadSacct reads; the others are ignored.
const (
	colJobID = iota
	colJobIDRaw
	colJobName
	colUser
	colPartition
	colState
	colStart
	colEnd
	colElapsed
	colNNodes
	colNodeList
	numSacctCols
)

// sacctColumns returns the names of the columns, as sacct writes them.
func sacctColumns() [numSacctCols]string {
	return [numSacctCols]string{"JobID", "JobIDRaw", "JobName", "User", "Partition", "State", "Start", "End", "Elapsed", "NNodes", "NodeList"}
}

// ReadSacct reads a job log written by `sacct --parsable2` (fields
// separated by '|') or `sacct --parsable` (each line also ends with '|'),
// for example
//
//	sacct --allusers --parsable2 --starttime 2024-01-01 \
//	    --format JobID,JobName,User,Partition,State,Start,End,Elapsed,NNodes,NodeList
//
// name is the file name used in errors and warnings.
//
// The first non-blank line is the header naming the columns, in any order
// and any case. JobID (or JobIDRaw), Start, End and NodeList are required;
// JobName, User, Partition, State, Elapsed and NNodes are read when
// present; other columns are ignored. Every later non-blank line is a job
// with exactly as many fields as the header (a '|' inside a job name
// cannot be told from a separator, so it is an error).
//
// Start and End are "2006-01-02T15:04:05" in the Location option's zone
// (UTC by default). "Unknown", "None" or an empty field means the log does
// not know the time: the job is kept with a zero time and a warning (a
// pending job has no start, a running job no end). An end before the start
// is kept with a warning. Elapsed is "[D-]HH:MM:SS", "MM:SS" or either with
// a fraction of a second. NNodes is a count, also as older sacct versions
// write large ones ("2K" is 2048 nodes). NodeList is a hostlist
// (ExpandHostlist); "None assigned" or an empty field gives a job without
// nodes and a warning, and an NNodes that differs from the number of names
// in NodeList is a warning.
//
// Job steps (an ID with a '.', such as "123.batch", "123.extern", "123.0"
// or "123+0.1") are skipped unless the KeepSteps option is given.
// Heterogeneous job components ("123+0", "123+1") are jobs: each has its
// own allocation and sacct writes no line for the whole job.
//
// An error is a *ParseError "file:line:col: expected …, found …" naming
// the first bad field; no jobs are returned with it.
func ReadSacct(r io.Reader, name string, opts ...Option) ([]Job, []Warning, error) {
	o := makeOptions(opts)
	l := newLines(r, name)
	var cols [numSacctCols]int // index of each column in a line; -1 if absent
	nfields := 0
	trailingBar := false
	haveHeader := false
	var jobs []Job
	var warns []Warning
	for l.Next() {
		line := l.Text()
		if isBlank(line) {
			continue
		}
		if !haveHeader {
			var err error
			nfields, trailingBar, err = readSacctHeader(l, line, &cols)
			if err != nil {
				return nil, nil, err
			}
			haveHeader = true
			continue
		}
		if trailingBar {
			if !strings.HasSuffix(line, "|") {
				return nil, nil, l.errorf(len(line)+1, "expected the line to end with '|' as the header does (sacct --parsable), found %s", foundAt(line, len(line)-1, "the end of the line"))
			}
			line = line[:len(line)-1]
		}
		fields, starts := splitBars(line)
		if len(fields) != nfields {
			col := len(line) + 1
			if len(fields) > nfields {
				col = starts[nfields]
			}
			return nil, nil, l.errorf(col, "expected %d fields separated by '|' as in the header, found %d (a '|' inside a field, such as a job name, cannot be read)", nfields, len(fields))
		}
		job, w, err := readSacctJob(l, fields, starts, &cols, o)
		if err != nil {
			return nil, nil, err
		}
		if job.IsStep() && !o.keepSteps {
			continue
		}
		jobs = append(jobs, job)
		warns = append(warns, w...)
	}
	if err := l.err(); err != nil {
		return nil, nil, err
	}
	if !haveHeader {
		return nil, nil, &ParseError{File: name, Msg: "expected a header line naming the columns (JobID|Start|End|NodeList…, as sacct --parsable2 writes without --noheader), found an empty file"}
	}
	return jobs, warns, nil
}

// readSacctHeader reads the header line into cols and returns the number
// of fields and whether lines end with '|' (sacct --parsable).
func readSacctHeader(l *lines, line string, cols *[numSacctCols]int) (int, bool, error) {
	for k := range cols {
		cols[k] = -1
	}
	trailing := strings.HasSuffix(line, "|")
	if trailing {
		line = line[:len(line)-1]
	}
	names := sacctColumns()
	fields, starts := splitBars(line)
	for i, f := range fields {
		f = strings.TrimSpace(f)
		for k, c := range names {
			if strings.EqualFold(f, c) {
				if cols[k] >= 0 {
					return 0, false, l.errorf(starts[i], "expected each column once in the header, found %s a second time", c)
				}
				cols[k] = i
			}
		}
	}
	if cols[colJobID] < 0 {
		cols[colJobID] = cols[colJobIDRaw]
	}
	for _, k := range []int{colJobID, colStart, colEnd, colNodeList} {
		if cols[k] < 0 {
			return 0, false, l.errorf(0, "expected a header line naming the columns JobID, Start, End and NodeList (sacct --parsable2 --format JobID,Start,End,NodeList,…), found %s without %s", quote(line), names[k])
		}
	}
	return len(fields), trailing, nil
}

// splitBars splits a line at '|' and returns the fields and the 1-based
// column at which each starts.
func splitBars(line string) (fields []string, starts []int) {
	start := 0
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == '|' {
			fields = append(fields, line[start:i])
			starts = append(starts, start+1)
			start = i + 1
		}
	}
	return fields, starts
}

// readSacctJob reads the fields of one job line.
func readSacctJob(l *lines, fields []string, starts []int, cols *[numSacctCols]int, o options) (Job, []Warning, error) {
	get := func(k int) (string, int) {
		if cols[k] < 0 {
			return "", 0
		}
		return fields[cols[k]], starts[cols[k]]
	}
	var job Job
	var warns []Warning
	job.Line = l.Line()

	id, idCol := get(colJobID)
	job.ID = strings.TrimSpace(id)
	if job.ID == "" {
		return job, nil, l.errorf(idCol, "expected a job ID in JobID, found an empty field")
	}
	job.Name, _ = get(colJobName)
	job.User, _ = get(colUser)
	job.Partition, _ = get(colPartition)
	job.State, _ = get(colState)

	for _, k := range []int{colStart, colEnd} {
		f, col := get(k)
		f = strings.TrimSpace(f)
		var t time.Time
		switch {
		case f == "" || strings.EqualFold(f, "Unknown") || strings.EqualFold(f, "None"):
			what := "no start time: the job had not started when sacct ran"
			if k == colEnd {
				what = "no end time: the job was still running (or never ran) when sacct ran"
			}
			warns = append(warns, l.warnf(job.ID, "%s (%s is %s)", what, sacctColumns()[k], quote(f)))
		default:
			var err error
			t, err = time.ParseInLocation(sacctTimeLayout, f, o.loc)
			if err != nil {
				return job, nil, l.errorf(col, "expected %s as a time like 2006-01-02T15:04:05, Unknown or None, found %s", sacctColumns()[k], quote(f))
			}
		}
		if k == colStart {
			job.Start = t
		} else {
			job.End = t
		}
	}
	if !job.Start.IsZero() && !job.End.IsZero() && job.End.Before(job.Start) {
		warns = append(warns, l.warnf(job.ID, "ends (%s) before it starts (%s)", job.End.Format(sacctTimeLayout), job.Start.Format(sacctTimeLayout)))
	}

	if f, col := get(colElapsed); col > 0 {
		f = strings.TrimSpace(f)
		d, ok := parseDuration(f)
		if !ok {
			return job, nil, l.errorf(col, "expected Elapsed as [D-]HH:MM:SS or MM:SS, found %s", quote(f))
		}
		job.Elapsed = d
	} else if !job.Start.IsZero() && !job.End.IsZero() {
		job.Elapsed = job.End.Sub(job.Start)
	}

	f, col := get(colNodeList)
	nodes, w, err := readNodeList(l, job.ID, f, col, "NodeList")
	if err != nil {
		return job, nil, err
	}
	job.Nodes = nodes
	warns = append(warns, w...)

	job.NNodes = len(job.Nodes)
	if f, col := get(colNNodes); col > 0 {
		f = strings.TrimSpace(f)
		n, exact, ok := parseCount(f)
		if !ok {
			return job, nil, l.errorf(col, "expected NNodes as a count of nodes, found %s", quote(f))
		}
		job.NNodes = n
		if len(job.Nodes) > 0 && !countAgrees(n, exact, len(job.Nodes)) {
			warns = append(warns, l.warnf(job.ID, "NNodes is %s but NodeList names %d nodes", f, len(job.Nodes)))
		}
	}
	return job, warns, nil
}

// readNodeList expands the node list field f that starts at column col;
// what names the column in messages. A list Slurm writes for a job without
// nodes ("None assigned", "(null)", "", or squeue's "(Reason)") gives no
// nodes and a warning.
func readNodeList(l *lines, job, f string, col int, what string) ([]string, []Warning, error) {
	lead := len(f) - len(strings.TrimLeftFunc(f, unicode.IsSpace))
	list := strings.TrimSpace(f)
	switch {
	case list == "" || strings.EqualFold(list, "None assigned") || list == "(null)":
		return nil, []Warning{l.warnf(job, "no nodes (%s is %s): the job is kept without nodes", what, quote(list))}, nil
	case strings.HasPrefix(list, "(") && strings.HasSuffix(list, ")"):
		return nil, []Warning{l.warnf(job, "no nodes (%s is the reason %s): the job is kept without nodes", what, quote(list))}, nil
	}
	nodes, herr := expandHostlist(list)
	if herr != nil {
		return nil, nil, &ParseError{File: l.name, Line: l.Line(), Col: col + lead + herr.pos, Msg: what + " " + quote(list) + ": " + herr.msg}
	}
	return nodes, nil, nil
}

// parseCount parses a count as Slurm writes it: a whole number, or, from
// older sacct versions, a number with a unit suffix K, M or G (powers of
// 1024, "2K" or "1.50K"). exact is false when the suffix form rounded it.
func parseCount(s string) (n int, exact, ok bool) {
	if v, ok := parseDigits(s, 1, 15); ok {
		return int(v), true, true
	}
	if len(s) < 2 {
		return 0, false, false
	}
	var unit float64
	switch s[len(s)-1] {
	case 'K':
		unit = 1 << 10
	case 'M':
		unit = 1 << 20
	case 'G':
		unit = 1 << 30
	default:
		return 0, false, false
	}
	num := s[:len(s)-1]
	intPart, frac, _ := strings.Cut(num, ".")
	if _, ok := parseDigits(intPart, 1, 6); !ok {
		return 0, false, false
	}
	if strings.Contains(num, ".") {
		if _, ok := parseDigits(frac, 1, 6); !ok {
			return 0, false, false
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false, false
	}
	return int(v*unit + 0.5), false, true
}

// countAgrees reports whether a count read from the log agrees with the
// number of nodes: exactly, or to 1% when the log rounded it ("1.50K").
func countAgrees(n int, exact bool, nodes int) bool {
	if exact {
		return n == nodes
	}
	d := n - nodes
	if d < 0 {
		d = -d
	}
	return d*100 <= nodes
}
