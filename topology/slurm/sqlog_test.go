package slurm

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sqlogText is the short format of LLNL's sqlog, which TreeScope reads
// from slurmqlog/sqlog.txt: Perl format fields "@>>>>>> @>>>>> @>>>>>>>>
// @>>>>>>> @>> @>>>>>>>>>>>>> @>>>>>>>>> @>>> @*" under a header in the
// same widths, repeated after a form feed on every page.
const sqlogText = `  JOBID   PART      NAME     USER  ST          START       TIME    N NODELIST
 183302 pbatch    lulesh    alice  CD 08/23-10:15:42    1:02:03   16 cab[100-115]
 183305 pdebug   amg2013      bob   R 08/23-11:00:00      45:10    2 cab[7,9]
` + "\f" + `  JOBID   PART      NAME     USER  ST          START       TIME    N NODELIST
 183311 pbatch run_ares_    carol  TO 12/31-22:00:00 1-04:00:00    1 cab200
 183320 pbatch         x     dave  CA 08/24-00:00:00        :07    3 cab[1-2]
sqlog: [More results available....]
`

// sqlogLine writes one line in sqlog's short format.
func sqlogLine(f ...any) string {
	return fmt.Sprintf("%7s %6s %9s %8s %3s %14s %10s %4s %s", f...)
}

func TestReadSqlog(t *testing.T) {
	jobs, warns, err := ReadSqlog(strings.NewReader(sqlogText), "sqlog.txt", 2016)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2016, 8, 23, 10, 15, 42, 0, time.UTC)
	var nodes []string
	for i := 100; i <= 115; i++ {
		nodes = append(nodes, fmt.Sprintf("cab%d", i))
	}
	want0 := Job{ID: "183302", Name: "lulesh", User: "alice", Partition: "pbatch", State: "CD",
		Start: start, End: start.Add(time.Hour + 2*time.Minute + 3*time.Second), Elapsed: time.Hour + 2*time.Minute + 3*time.Second,
		NNodes: 16, Nodes: nodes, Line: 2}
	if len(jobs) != 4 {
		t.Fatalf("%d jobs", len(jobs))
	}
	if !reflect.DeepEqual(jobs[0], want0) {
		t.Errorf("job 0 = %+v\nwant     %+v", jobs[0], want0)
	}
	if j := jobs[1]; j.ID != "183305" || j.Name != "amg2013" || j.State != "R" || !reflect.DeepEqual(j.Nodes, []string{"cab7", "cab9"}) || j.Elapsed != 45*time.Minute+10*time.Second {
		t.Errorf("job 1 = %+v", j)
	}
	// A job over New Year ends in the next year.
	if j := jobs[2]; j.Line != 5 || j.Name != "run_ares_" || !j.End.Equal(time.Date(2017, 1, 2, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("job 2 = %+v", j)
	}
	if j := jobs[3]; j.Elapsed != 7*time.Second || j.NNodes != 3 {
		t.Errorf("job 3 = %+v", j)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		"sqlog.txt:6: job 183320: N is 3 but NODELIST names 2 nodes",
		`sqlog.txt:7: skipped a message of sqlog: "sqlog: [More results available....]"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	pst := time.FixedZone("PST", -8*3600)
	jobs, _, err = ReadSqlog(strings.NewReader(sqlogText), "sqlog.txt", 2016, Location(pst))
	if err != nil || !jobs[0].Start.Equal(start.Add(8*time.Hour)) {
		t.Errorf("in PST: %v %v", jobs[0].Start, err)
	}
}

// squeueText is squeue's default format, "%.18i %.9P %.8j %.8u %.2t
// %.10M %.6D %R".
const squeueText = `             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)
               123    pbatch   lulesh    alice  R      10:02      4 n[01-04]
               124    pbatch      amg      bob PD       0:00      8 (Resources)
             125_3      pgpu  a b c d    carol  R 1-02:03:04      1 g7
`

func TestReadSqueue(t *testing.T) {
	jobs, warns, err := ReadSqlog(strings.NewReader(squeueText), "q", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		{ID: "123", Name: "lulesh", User: "alice", Partition: "pbatch", State: "R", Elapsed: 10*time.Minute + 2*time.Second, NNodes: 4, Nodes: []string{"n01", "n02", "n03", "n04"}, Line: 2},
		{ID: "124", Name: "amg", User: "bob", Partition: "pbatch", State: "PD", NNodes: 8, Line: 3},
		{ID: "125_3", Name: "a b c d", User: "carol", Partition: "pgpu", State: "R", Elapsed: 26*time.Hour + 3*time.Minute + 4*time.Second, NNodes: 1, Nodes: []string{"g7"}, Line: 4},
	}
	if !reflect.DeepEqual(jobs, want) {
		t.Errorf("jobs:\n%+v\nwant:\n%+v", jobs, want)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	wantW := []string{
		"q:1: no START column: the jobs have no start or end times",
		`q:3: job 124: no nodes (NODELIST(REASON) is the reason "(Resources)"): the job is kept without nodes`,
	}
	if !reflect.DeepEqual(got, wantW) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantW, "\n"))
	}
}

func TestReadSqlogEnd(t *testing.T) {
	const format = "%7s %6s %19s %19s %10s %s"
	text := strings.Join([]string{
		fmt.Sprintf(format, "JOBID", "PART", "START", "END", "TIME", "NODELIST"),
		fmt.Sprintf(format, "1", "p", "12/31-23:00:00", "01/01-01:00:00", "2:00:00", "a1"),
		fmt.Sprintf(format, "2", "p", "2015-06-01T10:00:00", "2015-06-01T12:00:00", "2:00:00", "a2"),
		fmt.Sprintf(format, "3", "p", "06/01-10:00:00", "2999-12-31-00:00:00", "1:00", "a3"),
		fmt.Sprintf(format, "4", "p", "N/A", "N/A", "0:00", "a4"),
		fmt.Sprintf(format, "5", "p", "2015-06-01T10:00:00", "2015-06-01T09:00:00", "0:00", "a5"),
		fmt.Sprintf(format, "6", "p", "06/01-10:00:00", "", "1:00", "a6"),
	}, "\n")
	jobs, warns, err := ReadSqlog(strings.NewReader(text), "f", 2016)
	if err != nil {
		t.Fatal(err)
	}
	utc := func(y, mo, d, h int) time.Time { return time.Date(y, time.Month(mo), d, h, 0, 0, 0, time.UTC) }
	wantTimes := [][2]time.Time{
		{utc(2016, 12, 31, 23), utc(2017, 1, 1, 1)},
		{utc(2015, 6, 1, 10), utc(2015, 6, 1, 12)},
		{utc(2016, 6, 1, 10), {}},
		{{}, {}},
		{utc(2015, 6, 1, 10), utc(2015, 6, 1, 9)},
		{utc(2016, 6, 1, 10), {}},
	}
	for i, j := range jobs {
		if !j.Start.Equal(wantTimes[i][0]) || !j.End.Equal(wantTimes[i][1]) {
			t.Errorf("job %s: %v..%v, want %v..%v", j.ID, j.Start, j.End, wantTimes[i][0], wantTimes[i][1])
		}
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`f:4: job 3: no end time: sqlog writes "2999-12-31-00:00:00" for a job still running`,
		`f:5: job 4: no start time (START is "N/A")`,
		`f:5: job 4: no end time (END is "N/A")`,
		"f:6: job 5: ends (2015-06-01T09:00:00) before it starts (2015-06-01T10:00:00)",
		`f:7: job 6: no end time (END is "")`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadSqlogErrors(t *testing.T) {
	head := sqlogLine("JOBID", "PART", "NAME", "USER", "ST", "START", "TIME", "N", "NODELIST") + "\n"
	good := sqlogLine("1", "p", "n", "u", "R", "08/23-10:15:42", "1:00", "1", "a1")
	tests := []struct {
		name, in string
		year     int
		want     string
	}{
		{"empty", "\f\n", 2016, "f: expected a header line naming the columns (JOBID … NODELIST, as sqlog and squeue write without --noheader), found an empty file"},
		{"no NODELIST", "JOBID  PART\n", 2016, `f:1: expected a header line naming the columns JOBID … NODELIST (sqlog, or squeue's default format), found "JOBID  PART" without NODELIST`},
		{"no JOBID", " 1 p a1\n", 2016, `f:1: expected a header line naming the columns JOBID … NODELIST (sqlog, or squeue's default format), found "1 p a1" without JOBID`},
		{"twice", "JOBID NODELIST JOBID\n", 2016, "f:1:16: expected each column once in the header, found JOBID a second time"},
		{"tab in header", "JOBID\tNODELIST\n", 2016, "f:1:6: expected the header's names separated by spaces (fixed-width columns), found a tab"},
		{"tab", head + good + "\n" + "      1\tp\n", 2016, "f:3:8: expected spaces between fixed-width columns, found a tab"},
		{"too wide", head + sqlogLine("1", "pbatch1", "n", "u", "R", "08/23-10:15:42", "1:00", "1", "a1"), 2016, "f:2:15: expected a blank between PART and NAME (the columns of the header), found '1': a value is wider than its column"},
		{"long id", head + sqlogLine("12345678", "p", "n", "u", "R", "08/23-10:15:42", "1:00", "1", "a1"), 2016, "f:2:8: expected a blank between JOBID and PART (the columns of the header), found '8': a value is wider than its column"},
		{"short line", head + " 183302 pbat\n", 2016, "f:2:9: expected PART to end at column 14 under its name in the header, found the line ending at column 12"},
		{"no id", head + sqlogLine("", "p", "n", "u", "R", "08/23-10:15:42", "1:00", "1", "a1"), 2016, "f:2:1: expected a job ID under JOBID, found a blank"},
		{"two words", head + sqlogLine("1", "p", "n", "a b", "R", "08/23-10:15:42", "1:00", "1", "a1"), 2016, `f:2:31: expected one word under USER, found "a b": the columns are not where the header says`},
		{"bad start", head + sqlogLine("1", "p", "n", "u", "R", "08/32-10:15:42", "1:00", "1", "a1"), 2016, `f:2:39: expected START as MM/DD-HH:MM:SS or 2006-01-02T15:04:05, found "08/32-10:15:42"`},
		{"feb 29", head + sqlogLine("1", "p", "n", "u", "R", "02/29-10:15:42", "1:00", "1", "a1"), 2015, `f:2:39: expected START as MM/DD-HH:MM:SS or 2006-01-02T15:04:05, found "02/29-10:15:42"`},
		{"no year", head + sqlogLine("1", "p", "n", "u", "R", "08/23-10:15:42", "1:00", "1", "a1"), 0, `f:2:39: expected a year between 1 and 9999 for the date "08/23-10:15:42" under START, which has none, found the year argument 0`},
		{"bad time", head + sqlogLine("1", "p", "n", "u", "R", "08/23-10:15:42", "1:99", "1", "a1"), 2016, `f:2:60: expected TIME as D-HH:MM:SS, H:MM:SS, M:SS or :SS, found "1:99"`},
		{"bad count", head + sqlogLine("1", "p", "n", "u", "R", "08/23-10:15:42", "1:00", "x", "a1"), 2016, `f:2:68: expected a count of nodes under N, found "x"`},
		{"bad nodes", head + sqlogLine("1", "p", "n", "u", "R", "08/23-10:15:42", "1:00", "1", "a[2-1]"), 2016, `f:2:72: NODELIST "a[2-1]": expected a range lo-hi with lo ≤ hi, found "2-1"`},
	}
	for _, tt := range tests {
		jobs, warns, err := ReadSqlog(strings.NewReader(tt.in), "f", tt.year)
		if err == nil {
			t.Errorf("%s: no error (%d jobs)", tt.name, len(jobs))
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %T is not a *ParseError", tt.name, err)
		}
		if err.Error() != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, err, tt.want)
		}
		if jobs != nil || warns != nil {
			t.Errorf("%s: jobs or warnings with an error", tt.name)
		}
	}
	// The same lines are read without error when well formed.
	if _, _, err := ReadSqlog(strings.NewReader(head+good), "f", 2016); err != nil {
		t.Errorf("good line: %v", err)
	}
}
