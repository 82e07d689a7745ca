package slurm

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sacctLog is a job log as `sacct --allusers --parsable2 --format
// JobID,JobName,User,Partition,State,Start,End,Elapsed,NNodes,NodeList`
// writes it.
const sacctLog = `JobID|JobName|User|Partition|State|Start|End|Elapsed|NNodes|NodeList
1001|lulesh|alice|pbatch|COMPLETED|2024-03-01T10:00:00|2024-03-01T11:30:00|01:30:00|4|n[01-04]
1001.batch|batch|||COMPLETED|2024-03-01T10:00:00|2024-03-01T11:30:00|01:30:00|1|n01
1001.extern|extern|||COMPLETED|2024-03-01T10:00:00|2024-03-01T11:30:00|01:30:00|4|n[01-04]
1001.0|lulesh|||COMPLETED|2024-03-01T10:00:05|2024-03-01T11:29:50|01:29:45|4|n[01-04]
1002|amg|bob|pdebug|RUNNING|2024-03-01T11:00:00|Unknown|00:45:10|2|n[05-06]
1003|pend|carol|pbatch|PENDING|Unknown|Unknown|00:00:00|1|None assigned
1004_7|arr|alice|pbatch|COMPLETED|2024-03-01T09:00:00|2024-03-02T11:00:00|1-02:00:00|2|n[07,09]
1005+0|het|bob|pbatch|COMPLETED|2024-03-01T12:00:00|2024-03-01T12:10:00|00:10:00|1|n10
1005+0.0|het|||COMPLETED|2024-03-01T12:00:01|2024-03-01T12:09:59|00:09:58|1|n10
1005+1|het|bob|pgpu|COMPLETED|2024-03-01T12:00:00|2024-03-01T12:10:00|00:10:00|2|g[1-2]
1006|odd|dave|pbatch|CANCELLED by 0|2024-03-01T13:00:00|2024-03-01T13:05:00|00:05:00|3|n[11-12]
`

func date(s string) time.Time {
	t, err := time.Parse(sacctTimeLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestReadSacct(t *testing.T) {
	jobs, warns, err := ReadSacct(strings.NewReader(sacctLog), "jobs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	if want := []string{"1001", "1002", "1003", "1004_7", "1005+0", "1005+1", "1006"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("IDs %q, want %q", ids, want)
	}
	want0 := Job{
		ID: "1001", Name: "lulesh", User: "alice", Partition: "pbatch", State: "COMPLETED",
		Start: date("2024-03-01T10:00:00"), End: date("2024-03-01T11:30:00"), Elapsed: 90 * time.Minute,
		NNodes: 4, Nodes: []string{"n01", "n02", "n03", "n04"}, Line: 2,
	}
	if !reflect.DeepEqual(jobs[0], want0) {
		t.Errorf("job 0 = %+v\nwant     %+v", jobs[0], want0)
	}
	if j := jobs[1]; !j.End.IsZero() || j.Start != date("2024-03-01T11:00:00") || j.Elapsed != 45*time.Minute+10*time.Second || j.Line != 6 {
		t.Errorf("running job = %+v", j)
	}
	if j := jobs[2]; !j.Start.IsZero() || !j.End.IsZero() || j.Nodes != nil || j.NNodes != 1 {
		t.Errorf("pending job = %+v", j)
	}
	if j := jobs[3]; j.Elapsed != 26*time.Hour || !reflect.DeepEqual(j.Nodes, []string{"n07", "n09"}) {
		t.Errorf("array task = %+v", j)
	}
	if j := jobs[5]; j.Partition != "pgpu" || !reflect.DeepEqual(j.Nodes, []string{"g1", "g2"}) {
		t.Errorf("het component = %+v", j)
	}
	if j := jobs[6]; j.State != "CANCELLED by 0" || j.NNodes != 3 || len(j.Nodes) != 2 {
		t.Errorf("job 1006 = %+v", j)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`jobs.txt:6: job 1002: no end time: the job was still running (or never ran) when sacct ran (End is "Unknown")`,
		`jobs.txt:7: job 1003: no start time: the job had not started when sacct ran (Start is "Unknown")`,
		`jobs.txt:7: job 1003: no end time: the job was still running (or never ran) when sacct ran (End is "Unknown")`,
		`jobs.txt:7: job 1003: no nodes (NodeList is "None assigned"): the job is kept without nodes`,
		`jobs.txt:12: job 1006: NNodes is 3 but NodeList names 2 nodes`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadSacctOptions(t *testing.T) {
	jobs, _, err := ReadSacct(strings.NewReader(sacctLog), "jobs.txt", KeepSteps())
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 11 || jobs[1].ID != "1001.batch" || !jobs[1].IsStep() || jobs[0].IsStep() || !jobs[8].IsStep() || jobs[7].IsStep() {
		t.Fatalf("with steps: %d jobs", len(jobs))
	}
	pst := time.FixedZone("PST", -8*3600)
	jobs, _, err = ReadSacct(strings.NewReader(sacctLog), "jobs.txt", Location(pst))
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2024, 3, 1, 18, 0, 0, 0, time.UTC); !jobs[0].Start.Equal(want) || jobs[0].Start.Location() != pst {
		t.Errorf("start in PST = %v, want %v", jobs[0].Start, want)
	}
	if _, _, err := ReadSacct(strings.NewReader(sacctLog), "jobs.txt", Location(nil), nil); err != nil {
		t.Errorf("nil options: %v", err)
	}
}

func TestReadSacctForms(t *testing.T) {
	want := []Job{{ID: "7", Start: date("2024-03-01T10:00:00"), End: date("2024-03-01T10:20:00"), Elapsed: 20 * time.Minute, NNodes: 2, Nodes: []string{"a1", "a2"}, Line: 2}}
	tests := []struct{ name, in string }{
		{"parsable2", "JobID|Start|End|NodeList\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]\n"},
		{"parsable", "JobID|Start|End|NodeList|\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]|\n"},
		{"CRLF", "JobID|Start|End|NodeList\r\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]\r\n"},
		{"no final newline", "JobID|Start|End|NodeList\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]"},
		{"byte order mark", "\uFEFFJobID|Start|End|NodeList\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]\n"},
		{"any order and case", "nodelist|END|jobid|start\na[1-2]|2024-03-01T10:20:00|7|2024-03-01T10:00:00\n"},
		{"JobIDRaw", "JobIDRaw|Start|End|NodeList\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]\n"},
		{"other columns", "Account|JobID|Start|End|NodeList|ExitCode\nphys|7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]|0:0\n"},
		{"blank lines", "\n\nJobID|Start|End|NodeList\n\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]\n\n"},
		{"counts", "JobID|Start|End|Elapsed|NNodes|NodeList\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|20:00|2|a[1-2]\n"},
	}
	for _, tt := range tests {
		jobs, warns, err := ReadSacct(strings.NewReader(tt.in), "f")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		w := want
		if tt.name == "blank lines" {
			w = []Job{want[0]}
			w[0].Line = 5
		}
		if !reflect.DeepEqual(jobs, w) || len(warns) != 0 {
			t.Errorf("%s: %+v %v", tt.name, jobs, warns)
		}
	}
}

func TestReadSacctWarnings(t *testing.T) {
	const head = "JobID|Start|End|NNodes|NodeList\n"
	tests := []struct{ line, want string }{
		{"8|2024-03-01T10:00:00|2024-03-01T09:00:00|1|a1", "f:2: job 8: ends (2024-03-01T09:00:00) before it starts (2024-03-01T10:00:00)"},
		{"8|None|None|0|", `f:2: job 8: no start time: the job had not started when sacct ran (Start is "None")`},
		{"8|2024-03-01T10:00:00|2024-03-01T11:00:00|1|(null)", `f:2: job 8: no nodes (NodeList is "(null)"): the job is kept without nodes`},
		{"8|2024-03-01T10:00:00|2024-03-01T11:00:00|2K|a[1-2000]", "f:2: job 8: NNodes is 2K but NodeList names 2000 nodes"},
		{"8|2024-03-01T10:00:00|2024-03-01T11:00:00|1|a1,a1", "f:2: job 8: NNodes is 1 but NodeList names 2 nodes"},
	}
	for _, tt := range tests {
		_, warns, err := ReadSacct(strings.NewReader(head+tt.line), "f")
		if err != nil || len(warns) == 0 || warns[0].String() != tt.want {
			t.Errorf("%q: %v %v, want %s", tt.line, warns, err, tt.want)
		}
	}
	// Counts as older sacct versions write them.
	for _, tt := range []struct {
		count string
		nodes int
	}{{"2K", 2048}, {"1.50K", 1536}, {"1.5K", 1540}} {
		in := head + "8|2024-03-01T10:00:00|2024-03-01T11:00:00|" + tt.count + "|a[1-" + itoa(tt.nodes) + "]"
		jobs, warns, err := ReadSacct(strings.NewReader(in), "f")
		if err != nil || len(warns) != 0 || len(jobs[0].Nodes) != tt.nodes {
			t.Errorf("%s: %v %v", tt.count, warns, err)
		}
	}
}

func itoa(n int) string { return padNumber(uint64(n), 1) }

func TestReadSacctErrors(t *testing.T) {
	const head = "JobID|Start|End|NodeList\n"
	const head2 = "JobID|Start|End|Elapsed|NNodes|NodeList\n"
	const times = "2024-03-01T10:00:00|2024-03-01T11:00:00"
	tests := []struct {
		name, in string
		want     string // the whole error text
	}{
		{"empty", "", "f: expected a header line naming the columns (JobID|Start|End|NodeList…, as sacct --parsable2 writes without --noheader), found an empty file"},
		{"blank", "\n \n", "f: expected a header line naming the columns (JobID|Start|End|NodeList…, as sacct --parsable2 writes without --noheader), found an empty file"},
		{"no header", "1|" + times + "|n1\n", `f:1: expected a header line naming the columns JobID, Start, End and NodeList (sacct --parsable2 --format JobID,Start,End,NodeList,…), found "1|2024-03-01T10:00:00|2024-03-01T11:00:00|n1" without JobID`},
		{"no NodeList", "\nJobID|Start|End\n", `f:2: expected a header line naming the columns JobID, Start, End and NodeList (sacct --parsable2 --format JobID,Start,End,NodeList,…), found "JobID|Start|End" without NodeList`},
		{"twice", "JobID|Start|End|NodeList|jobid\n", "f:1:26: expected each column once in the header, found JobID a second time"},
		{"too few", head + "1|" + times + "\n", "f:2:42: expected 4 fields separated by '|' as in the header, found 3 (a '|' inside a field, such as a job name, cannot be read)"},
		{"too many", head + "1|" + times + "|n1|x\n", "f:2:46: expected 4 fields separated by '|' as in the header, found 5 (a '|' inside a field, such as a job name, cannot be read)"},
		{"no id", head + "|" + times + "|n1\n", "f:2:1: expected a job ID in JobID, found an empty field"},
		{"bad start", head + "1|2024-03-01 10:00:00|2024-03-01T11:00:00|n1\n", `f:2:3: expected Start as a time like 2006-01-02T15:04:05, Unknown or None, found "2024-03-01 10:00:00"`},
		{"bad end", head + "1|2024-03-01T10:00:00|2024-02-30T11:00:00|n1\n", `f:2:23: expected End as a time like 2006-01-02T15:04:05, Unknown or None, found "2024-02-30T11:00:00"`},
		{"reversed range", head + "1|" + times + "|n[5-3]\n", `f:2:45: NodeList "n[5-3]": expected a range lo-hi with lo ≤ hi, found "5-3"`},
		{"padded range", head + "1|" + times + "| n[5-3]\n", `f:2:46: NodeList "n[5-3]": expected a range lo-hi with lo ≤ hi, found "5-3"`},
		{"unbalanced", head + "1|" + times + "|a1,n[1-3\n", `f:2:47: NodeList "a1,n[1-3": expected ']' to close the '[' at column 5, found the end of the hostlist`},
		{"bad elapsed", head2 + "1|" + times + "|1:00:00:00|1|n1\n", `f:2:43: expected Elapsed as [D-]HH:MM:SS or MM:SS, found "1:00:00:00"`},
		{"bad count", head2 + "1|" + times + "|01:00:00|x|n1\n", `f:2:52: expected NNodes as a count of nodes, found "x"`},
		{"negative count", head2 + "1|" + times + "|01:00:00|-1|n1\n", `f:2:52: expected NNodes as a count of nodes, found "-1"`},
		{"parsable", "JobID|Start|End|NodeList|\n1|" + times + "|n1\n", "f:2:45: expected the line to end with '|' as the header does (sacct --parsable), found '1'"},
		{"late error", head + "1|" + times + "|n1\n2|" + times + "|n[\n", `f:3:44: NodeList "n[": expected ']' to close the '[' at column 2, found the end of the hostlist`},
	}
	for _, tt := range tests {
		jobs, warns, err := ReadSacct(strings.NewReader(tt.in), "f")
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
}

// failReader returns some text and then an error.
type failReader struct {
	text string
	err  error
}

func (r *failReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, r.err
	}
	n := copy(p, r.text)
	r.text = r.text[n:]
	return n, nil
}

func TestReadSacctIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	_, _, err := ReadSacct(&failReader{"JobID|Start|End|NodeList\n", boom}, "f")
	if !errors.Is(err, boom) || err.Error() != "f:2: reading: disk on fire" {
		t.Fatalf("err = %v", err)
	}
	_, _, err = ReadSqlog(&failReader{"", io.ErrUnexpectedEOF}, "g", 2016)
	if !errors.Is(err, io.ErrUnexpectedEOF) || err.Error() != "g:1: reading: unexpected EOF" {
		t.Fatalf("err = %v", err)
	}
}
