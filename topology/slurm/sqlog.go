package slurm

import (
	"io"
	"strings"
	"time"
	"unicode"
)

// The columns ReadSqlog reads; the others are ignored.
const (
	sqJobID = iota
	sqPartition
	sqName
	sqUser
	sqState
	sqStart
	sqEnd
	sqTime
	sqNodes
	sqNodeList
	numSqCols
)

// sqColumnOf returns the column a header name sqlog or squeue writes
// stands for.
func sqColumnOf(name string) (int, bool) {
	switch strings.ToUpper(name) {
	case "JOBID":
		return sqJobID, true
	case "PART", "PARTITION":
		return sqPartition, true
	case "NAME", "JOBNAME":
		return sqName, true
	case "USER":
		return sqUser, true
	case "ST", "STATE":
		return sqState, true
	case "START", "START_TIME":
		return sqStart, true
	case "END", "END_TIME":
		return sqEnd, true
	case "TIME":
		return sqTime, true
	case "N", "NODES":
		return sqNodes, true
	case "NODELIST", "NODELIST(REASON)":
		return sqNodeList, true
	}
	return 0, false
}

// sqColumn is one column of the header: its name and the byte span
// [lo, hi) its values occupy (hi < 0: to the end of the line).
type sqColumn struct {
	name   string
	lo, hi int
}

// ReadSqlog reads a fixed-width job listing: the short format of LLNL's
// sqlog (the file TreeScope reads from slurmqlog/sqlog.txt)
//
//	 JOBID   PART      NAME     USER  ST          START       TIME    N NODELIST
//	183302 pbatch    lulesh    alice  CD 08/23-10:15:42    1:02:03   16 cab[100-115]
//
// or squeue's default format
//
//	JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)
//	  123    pbatch   lulesh    alice  R      10:02      4 n[01-04]
//
// name is the file name used in errors and warnings.
//
// The first non-blank line is the header; its names give the columns
// (JOBID, PART or PARTITION, NAME, USER, ST, START, END, TIME, N or NODES,
// NODELIST or NODELIST(REASON); others are ignored) and where they are.
// Both programs right-justify every value under the end of its column's
// name and separate columns by a blank, so a column runs from the end of
// the previous name to the end of its own, and the last to the end of the
// line; columns are counted in bytes, as both programs pad them. A value
// that crosses into the blank before its column, or a tab,
// is an error: the columns are not where the header says. JOBID and
// NODELIST are required. sqlog repeats the header on every page of its
// output (after a form feed): such repeats are skipped. A line of sqlog's
// own messages ("sqlog: [More results available....]") is skipped with a
// warning.
//
// START and END are sqlog's "MM/DD-HH:MM:SS", which has no year: year is
// used for it (TreeScope asks its user the same), and an END earlier in the
// year than its START is taken to be in the next year. Full dates
// "2006-01-02T15:04:05" (sqlog's long format, squeue's %S) keep their year.
// Times are in the Location option's zone (UTC by default). "N/A",
// "Unknown", "None" or an empty field means the time is not known (zero,
// with a warning), and so does sqlog's end of a running job, 2999-12-31.
// TIME is the run time ("D-HH:MM:SS", "H:MM:SS", "M:SS", ":SS"). Without an
// END column End is START+TIME: for a job running when the listing was
// written, that is when it was written.
//
// NODELIST is a hostlist (ExpandHostlist); squeue's "(Reason)" of a
// pending job, or an empty field, gives a job without nodes and a warning,
// and an N that differs from the number of names is a warning.
//
// The listing cannot say what its columns cut off: sqlog truncates job IDs
// to 7 characters and names to 9, squeue to the widths of its format.
//
// An error is a *ParseError "file:line:col: expected …, found …" naming
// the first bad field; no jobs are returned with it.
func ReadSqlog(r io.Reader, name string, year int, opts ...Option) ([]Job, []Warning, error) {
	o := makeOptions(opts)
	l := newLines(r, name)
	var cols []sqColumn
	var index [numSqCols]int // the column of each field; -1 if absent
	header := ""
	var jobs []Job
	var warns []Warning
	for l.Next() {
		raw := l.Text()
		line := strings.TrimLeft(raw, "\f") // a new page starts with a form feed
		if isBlank(line) {
			continue
		}
		if header == "" {
			var err error
			cols, err = readSqlogHeader(l, line, &index)
			if err != nil {
				return nil, nil, err
			}
			header = strings.TrimSpace(line)
			if index[sqStart] < 0 {
				warns = append(warns, l.warnf("", "no START column: the jobs have no start or end times"))
			}
			continue
		}
		if strings.TrimSpace(line) == header {
			continue // the header again, on a new page
		}
		if strings.HasPrefix(line, "sqlog:") {
			warns = append(warns, l.warnf("", "skipped a message of sqlog: %s", quote(line)))
			continue
		}
		job, w, err := readSqlogJob(l, raw, cols, &index, year, o)
		if err != nil {
			return nil, nil, err
		}
		jobs = append(jobs, job)
		warns = append(warns, w...)
	}
	if err := l.err(); err != nil {
		return nil, nil, err
	}
	if header == "" {
		return nil, nil, &ParseError{File: name, Msg: "expected a header line naming the columns (JOBID … NODELIST, as sqlog and squeue write without --noheader), found an empty file"}
	}
	return jobs, warns, nil
}

// readSqlogHeader finds the columns of the header line.
func readSqlogHeader(l *lines, line string, index *[numSqCols]int) ([]sqColumn, error) {
	for k := range index {
		index[k] = -1
	}
	if i := strings.IndexByte(line, '\t'); i >= 0 {
		return nil, l.errorf(i+1, "expected the header's names separated by spaces (fixed-width columns), found a tab")
	}
	var cols []sqColumn
	prevEnd := 0
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		name := line[i:j]
		if k, ok := sqColumnOf(name); ok {
			if index[k] >= 0 {
				return nil, l.errorf(i+1, "expected each column once in the header, found %s a second time", name)
			}
			index[k] = len(cols)
		}
		cols = append(cols, sqColumn{name: name, lo: prevEnd, hi: j})
		prevEnd = j
		i = j
	}
	cols[len(cols)-1].hi = -1
	for _, k := range []int{sqJobID, sqNodeList} {
		if index[k] < 0 {
			want := map[int]string{sqJobID: "JOBID", sqNodeList: "NODELIST"}[k]
			return nil, l.errorf(0, "expected a header line naming the columns JOBID … NODELIST (sqlog, or squeue's default format), found %s without %s", quote(strings.TrimSpace(line)), want)
		}
	}
	return cols, nil
}

// readSqlogJob reads one job line.
func readSqlogJob(l *lines, line string, cols []sqColumn, index *[numSqCols]int, year int, o options) (Job, []Warning, error) {
	var job Job
	var warns []Warning
	job.Line = l.Line()
	if i := strings.IndexByte(line, '\t'); i >= 0 {
		return job, nil, l.errorf(i+1, "expected spaces between fixed-width columns, found a tab")
	}
	values := make([]string, len(cols))
	at := make([]int, len(cols)) // 1-based column of each value
	for k, c := range cols {
		if k > 0 && c.lo < len(line) && line[c.lo] != ' ' {
			return job, nil, l.errorf(c.lo+1, "expected a blank between %s and %s (the columns of the header), found %s: a value is wider than its column", cols[k-1].name, c.name, foundAt(line, c.lo, ""))
		}
		lo, hi := min(c.lo, len(line)), len(line)
		if c.hi >= 0 {
			hi = min(c.hi, len(line))
		}
		seg := line[lo:hi]
		v := strings.TrimLeftFunc(seg, unicode.IsSpace)
		values[k] = strings.TrimRightFunc(v, unicode.IsSpace)
		at[k] = lo + 1 + len(seg) - len(v)
		if values[k] == "" {
			at[k] = lo + 1 // a blank: point at the column's start
		}
		if c.hi > len(line) && values[k] != "" {
			return job, nil, l.errorf(at[k], "expected %s to end at column %d under its name in the header, found the line ending at column %d", c.name, c.hi, len(line))
		}
	}
	get := func(k int) (string, int) {
		if index[k] < 0 {
			return "", 0
		}
		return values[index[k]], at[index[k]]
	}

	id, col := get(sqJobID)
	if id == "" {
		return job, nil, l.errorf(col, "expected a job ID under JOBID, found a blank")
	}
	job.ID = id
	for _, f := range []struct {
		k   int
		dst *string
	}{{sqPartition, &job.Partition}, {sqUser, &job.User}, {sqState, &job.State}} {
		v, col := get(f.k)
		if i := strings.IndexByte(v, ' '); i >= 0 {
			return job, nil, l.errorf(col, "expected one word under %s, found %s: the columns are not where the header says", cols[index[f.k]].name, quote(v))
		}
		*f.dst = v
	}
	job.Name, _ = get(sqName)

	var startYearless, endYearless bool
	var err error
	if index[sqStart] >= 0 {
		v, col := get(sqStart)
		job.Start, startYearless, err = sqlogTime(l, job.ID, "START", v, col, year, o.loc, &warns)
		if err != nil {
			return job, nil, err
		}
	}
	if index[sqEnd] >= 0 {
		v, col := get(sqEnd)
		job.End, endYearless, err = sqlogTime(l, job.ID, "END", v, col, year, o.loc, &warns)
		if err != nil {
			return job, nil, err
		}
		if !job.Start.IsZero() && !job.End.IsZero() && job.End.Before(job.Start) {
			if startYearless && endYearless {
				job.End = job.End.AddDate(1, 0, 0) // the job ran over New Year
			} else {
				warns = append(warns, l.warnf(job.ID, "ends (%s) before it starts (%s)", job.End.Format(sacctTimeLayout), job.Start.Format(sacctTimeLayout)))
			}
		}
	}
	if v, col := get(sqTime); index[sqTime] >= 0 {
		d, ok := parseDuration(v)
		if !ok {
			return job, nil, l.errorf(col, "expected TIME as D-HH:MM:SS, H:MM:SS, M:SS or :SS, found %s", quote(v))
		}
		job.Elapsed = d
		if index[sqEnd] < 0 && !job.Start.IsZero() {
			job.End = job.Start.Add(d)
		}
	} else if !job.Start.IsZero() && !job.End.IsZero() {
		job.Elapsed = job.End.Sub(job.Start)
	}

	v, col := get(sqNodeList)
	nodes, w, err := readNodeList(l, job.ID, v, col, cols[index[sqNodeList]].name)
	if err != nil {
		return job, nil, err
	}
	job.Nodes = nodes
	warns = append(warns, w...)
	job.NNodes = len(nodes)
	if index[sqNodes] >= 0 {
		v, col := get(sqNodes)
		n, ok := parseDigits(v, 1, 9)
		if !ok {
			return job, nil, l.errorf(col, "expected a count of nodes under %s, found %s", cols[index[sqNodes]].name, quote(v))
		}
		job.NNodes = int(n)
		if len(nodes) > 0 && job.NNodes != len(nodes) {
			warns = append(warns, l.warnf(job.ID, "%s is %d but %s names %d nodes", cols[index[sqNodes]].name, n, cols[index[sqNodeList]].name, len(nodes)))
		}
	}
	return job, warns, nil
}

// sqlogTime reads a START or END value: sqlog's year-less "MM/DD-HH:MM:SS"
// (yearless is true), a full "2006-01-02T15:04:05", or a time not known.
func sqlogTime(l *lines, job, what, v string, col, year int, loc *time.Location, warns *[]Warning) (t time.Time, yearless bool, err error) {
	switch {
	case v == "" || v == "N/A" || strings.EqualFold(v, "Unknown") || strings.EqualFold(v, "None"):
		*warns = append(*warns, l.warnf(job, "no %s time (%s is %s)", strings.ToLower(what), what, quote(v)))
		return time.Time{}, false, nil
	case strings.HasPrefix(v, "2999-12-31"):
		*warns = append(*warns, l.warnf(job, "no %s time: sqlog writes %s for a job still running", strings.ToLower(what), quote(v)))
		return time.Time{}, false, nil
	}
	if t, err := time.ParseInLocation(sacctTimeLayout, v, loc); err == nil {
		return t, false, nil
	}
	t, ok := parseYearless(v, year, loc)
	if !ok {
		if year < 1 || year > 9999 {
			if _, ok := parseYearless(v, 2000, loc); ok {
				return t, false, l.errorf(col, "expected a year between 1 and 9999 for the date %s under %s, which has none, found the year argument %d", quote(v), what, year)
			}
		}
		return t, false, l.errorf(col, "expected %s as MM/DD-HH:MM:SS or 2006-01-02T15:04:05, found %s", what, quote(v))
	}
	return t, true, nil
}

// parseYearless parses "MM/DD-HH:MM:SS" as a time of the given year.
func parseYearless(v string, year int, loc *time.Location) (time.Time, bool) {
	if len(v) != 14 || v[2] != '/' || v[5] != '-' || v[8] != ':' || v[11] != ':' || year < 1 || year > 9999 {
		return time.Time{}, false
	}
	var n [5]int
	for i, p := range []int{0, 3, 6, 9, 12} {
		x, ok := parseDigits(v[p:p+2], 2, 2)
		if !ok {
			return time.Time{}, false
		}
		n[i] = int(x)
	}
	t := time.Date(year, time.Month(n[0]), n[1], n[2], n[3], n[4], 0, loc)
	if n[0] < 1 || n[0] > 12 || t.Day() != n[1] || n[2] > 23 || n[3] > 59 || n[4] > 59 {
		return time.Time{}, false
	}
	return t, true
}
