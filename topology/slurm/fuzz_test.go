package slurm

import (
	"errors"
	"strings"
	"testing"
)

func FuzzExpandHostlist(f *testing.F) {
	// The hostlists of the table tests.
	for _, s := range []string{
		"", "node1", "login,db", "n[01-04]", "n[1-3,7,10-11]", "n[8-10]", "n[08-10]",
		"n[1,01]", "[1-2]", "rack[1-2]-n[01-02]", "a[1-2]b[3-4]c[5-6]", "a[1-2],b3,c[05-06]",
		"a[1-2] b3\tc[05-06]", "n[1-2]-ib", "b,a,a", "n[9,09-10,010]", "n[1-3", "n1-3]", "n[]",
		"n[5-3]", "n[a-b]", "n[1-2-3]", "n[1[2]]", "n[0-1000000]", "a[0-999]b[0-1000]",
		"n[1234567890123456789]", "n[099-100]", "x[0-9]y[0-9]z[0-9]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ExpandHostlist(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "" || pe.Line != 0 || pe.Col < 1 || pe.Col > len(s)+1 || pe.Msg == "" {
				t.Fatalf("bad error %#v for %q", err, s)
			}
			if names != nil {
				t.Fatal("names and an error")
			}
			return
		}
		if len(names) > MaxHostlistNames {
			t.Fatalf("%d names", len(names))
		}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, "[], \t\n\r\v\f") {
				t.Fatalf("name %q from %q", n, s)
			}
		}
		if len(names) > 20000 {
			return // the round trip of a million names takes seconds; TestExpandHostlistBytesLimit has one
		}
		c := CompressHostlist(names)
		back, err := ExpandHostlist(c)
		if err != nil {
			t.Fatalf("ExpandHostlist(CompressHostlist(ExpandHostlist(%q))) = ExpandHostlist(%q): %v", s, c, err)
		}
		if !sameSet(back, names) {
			t.Fatalf("%q expands to %q, compressed to %q, which expands to %q", s, names, c, back)
		}
		distinct := make(map[string]bool)
		for _, n := range names {
			distinct[n] = true
		}
		if len(back) != len(distinct) {
			t.Fatalf("%q: %d distinct names, %q expands to %d", s, len(distinct), c, len(back))
		}
		if c2 := CompressHostlist(back); c2 != c {
			t.Fatalf("not canonical: %q then %q", c, c2)
		}
	})
}

// checkJobs checks what every reader promises on any input: jobs and
// warnings that point into the file, or a *ParseError naming the file and
// a line of it, and nothing else.
func checkJobs(t *testing.T, in string, jobs []Job, warns []Warning, err error) {
	t.Helper()
	nlines := strings.Count(in, "\n") + 1
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %T %v is not a *ParseError", err, err)
		}
		if pe.File != "fuzz" || pe.Line < 0 || pe.Line > nlines+1 || pe.Col < 0 || pe.Msg == "" && pe.Expected == "" {
			t.Fatalf("bad error %q for %q", err, in)
		}
		if pe.Line > 0 && pe.Col > 0 {
			lines := strings.Split(in, "\n")
			if pe.Line <= len(lines) && pe.Col > len(lines[pe.Line-1])+1 {
				t.Fatalf("column %d past the end of line %q: %v", pe.Col, lines[pe.Line-1], err)
			}
		}
		if jobs != nil || warns != nil {
			t.Fatal("jobs or warnings with an error")
		}
		return
	}
	for _, j := range jobs {
		if j.ID == "" || j.Line < 1 || j.Line > nlines || j.NNodes < 0 {
			t.Fatalf("bad job %+v", j)
		}
		for _, n := range j.Nodes {
			if n == "" {
				t.Fatalf("empty node name in %+v", j)
			}
		}
	}
	for _, w := range warns {
		if w.File != "fuzz" || w.Line < 1 || w.Line > nlines || w.Msg == "" {
			t.Fatalf("bad warning %+v", w)
		}
	}
}

func FuzzReadSacct(f *testing.F) {
	f.Add(sacctLog)
	for _, s := range []string{
		"JobID|Start|End|NodeList\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]\n",
		"JobID|Start|End|NodeList|\n7|2024-03-01T10:00:00|2024-03-01T10:20:00|a[1-2]|\n",
		"nodelist|END|jobid|start\r\na[1-2]|2024-03-01T10:20:00|7|2024-03-01T10:00:00\r\n",
		"JobID|Start|End|Elapsed|NNodes|NodeList\n8|None|Unknown|1-00:00:00|1.50K|None assigned\n",
		"JobID|Start|End|Elapsed|NNodes|NodeList\n8|2024-03-01T10:00:00|2024-03-01T09:00:00|1:00:00:00|x|n[5-3]\n",
		"JobID|Start|End|NodeList|jobid\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		jobs, warns, err := ReadSacct(strings.NewReader(in), "fuzz")
		checkJobs(t, in, jobs, warns, err)
		if err == nil {
			for _, j := range jobs {
				if j.IsStep() {
					t.Fatalf("step %q without KeepSteps", j.ID)
				}
			}
		}
	})
}

func FuzzReadSqlog(f *testing.F) {
	f.Add(sqlogText, 2016)
	f.Add(squeueText, 0)
	f.Add(sqlogLine("JOBID", "PART", "NAME", "USER", "ST", "START", "TIME", "N", "NODELIST")+"\n"+
		sqlogLine("1", "pbatch1", "n", "u", "R", "02/29-10:15:42", "1-00:00:00", "x", "a[2-1]"), 2015)
	f.Add("  JOBID   PART               START                 END       TIME NODELIST\n"+
		"      1      p      12/31-23:00:00      01/01-01:00:00    2:00:00 a1\n"+
		"      3      p      06/01-10:00:00 2999-12-31-00:00:00       1:00 a3\n", 2016)
	f.Add("JOBID\tNODELIST\n", -1)
	f.Fuzz(func(t *testing.T, in string, year int) {
		jobs, warns, err := ReadSqlog(strings.NewReader(in), "fuzz", year)
		checkJobs(t, in, jobs, warns, err)
	})
}
