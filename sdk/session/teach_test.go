package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/traefik/yaegi/interp"

	"superstep/display"
	"superstep/sdk/symbols"
)

// recordingSink is the display side of a kernel, as a list of what was
// shown.
type recordingSink struct {
	mu    sync.Mutex
	shown []string
	pages []string
}

func (r *recordingSink) Display(b display.Bundle, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown = append(r.shown, b.Text())
	return nil
}
func (r *recordingSink) Update(b display.Bundle, id string) error { return r.Display(b, id) }
func (r *recordingSink) Clear(bool) error                         { return nil }
func (r *recordingSink) Page(b display.Bundle) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pages = append(r.pages, b.Text())
	return nil
}

// kernelSession is a session as the kernel makes it: every SDK package
// imported, standard streams that are files, displays to a sink.
type kernelSession struct {
	*Session
	out, errOut *os.File
	sink        *recordingSink
}

func newKernelSession(t testing.TB) *kernelSession {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(dir + "/stdout")
	if err != nil {
		t.Fatal(err)
	}
	errOut, err := os.Create(dir + "/stderr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close(); errOut.Close() })
	sink := &recordingSink{}
	s, err := New(Options{Stdout: out, Stderr: errOut, Display: sink,
		Symbols: []interp.Exports{symbols.Symbols}, Preload: Preload()})
	if err != nil {
		t.Fatal(err)
	}
	return &kernelSession{s, out, errOut, sink}
}

func readFile(t testing.TB, f *os.File) string {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// outcome is what a cell shows: its result's text, or its error as
// "kind at line:col: message".
func outcome(s *Session, code string) string {
	b, err := s.Execute(context.Background(), code, 1)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return fmt.Sprintf("%s at %d:%d: %s", e.Kind, e.Line, e.Col, e.Msg)
		}
		return "error: " + err.Error()
	}
	if b == nil {
		return "(no result)"
	}
	return b.Text()
}

// The cases a new user met (issue 10), each with what the kernel says now.
// Every case failed before the cell was type-checked; add a row for every
// new case found.
var teachingCases = []struct {
	name  string
	setup []string
	cell  string
	want  string
}{
	// Results: only an expression with a value, never another cell's.
	{"Show as the last line", []string{"g := datasets.Must(datasets.Open(\"karate\"))\ng"},
		`display.Show(display.Markdown("hi"))`, "(no result)"},
	{"call without results", []string{"func hello() {}"}, "hello()", "(no result)"},
	{"nil error", []string{"func save() error { return nil }"}, "save()", "(no result)"},
	{"non-nil error", []string{"import \"errors\"\nfunc fail() error { return errors.New(\"disk full\") }"}, "fail()", "disk full"},
	{"several results", []string{"func two() (int, string) { return 2, \"b\" }"}, "two()", `(2, "b")`},
	{"os.Stdout.Write keeps its error", []string{`import "os"`}, `os.Stdout.Write([]byte("x\n"))`, "(2, <nil>)"},
	{"a value after a statement", []string{"x := 20"}, "y := x + 1\ny * 2", "42"},

	// Definitions carry from cell to cell, as in the interpreter.
	{"method added to an earlier cell's type", []string{"type pt struct{ x, y float64 }", "p := pt{3, 4}", "func (q pt) norm() float64 { return math.Hypot(q.x, q.y) }"},
		"p.norm()", "5"},
	{"method on an earlier type, called in its cell", []string{"type pt struct{ x, y float64 }"},
		"func (q pt) sum() float64 { return q.x + q.y }\npt{1, 2}.sum()", "3"},
	{"generic function of a cell", []string{"func first[T any](xs []T) T { return xs[0] }"}, `first([]string{"a", "b"})`, `"a"`},

	// The standard library's generic functions, which the interpreter
	// cannot call.
	{"slices.Sort", []string{"import \"slices\""}, "slices.Sort([]int{3, 1, 2})",
		"compile error at 1:8: undefined: slices.Sort (slices.Sort is generic: the interpreter (yaegi) cannot call the standard library's generic functions and types; use sort.Slice, a loop, or a non-generic equivalent)"},
	{"a misspelt slices function", []string{"import \"slices\""}, "slices.Srot([]int{1})",
		"compile error at 1:8: undefined: slices.Srot (package slices has no exported name Srot)"},

	// Compile errors name the identifier, package or type, at line:column.
	{"undefined name", nil, "z := undefinedThing + 1", "compile error at 1:6: undefined: undefinedThing"},
	{"package not imported", nil, "x := context.Background()",
		`compile error at 1:6: undefined: context (package context is not imported: add import "context")`},
	{"undefined context variable", []string{"g := datasets.Must(datasets.Open(\"karate\"))"},
		"pos, _ := layout.SFDP(ctx, g, layout.Options{Seed: 1})", "compile error at 1:23: undefined: ctx"},
	{"misspelt type", nil, "p := vertex.ConnectedComponents{}",
		"compile error at 1:13: undefined: vertex.ConnectedComponents (no ConnectedComponents in package vertex; did you mean vertex.Components?)"},
	{"misspelt function", nil, "g := datasets.Opn(\"karate\")",
		"compile error at 1:15: undefined: datasets.Opn (no Opn in package datasets; did you mean datasets.Open?)"},
	{"column after tabs counts a tab as one", nil, "if true {\n\t\tz := undefinedThing\n}", "compile error at 2:8: undefined: undefinedThing"},
	{"column after a multi-byte letter", nil, "é := 1\nq := é + \"s\"",
		`compile error at 2:6: invalid operation: é + "s" (mismatched types int and untyped string)`},
	{"mismatched types", nil, "a := 1\nb := \"s\"\nc := a + b", "compile error at 3:6: invalid operation: a + b (mismatched types int and string)"},
	{"wrong argument count", nil, "strings.ToUpper()", "compile error at 1:17: not enough arguments in call to strings.ToUpper\n\thave ()\n\twant (string)"},
	{"range over an integer", nil, "for i := range 3 {\n\t_ = i\n}",
		"compile error at 1:1: range over an integer (3) is not supported by the interpreter (yaegi): write for i := 0; i < n; i++"},

	// Runtime panics read as the Go runtime's, with the cell line.
	{"index out of range", nil, "var empty []int\nfirst := empty[0]\nfmt.Println(first)",
		"panic at 2:0: runtime error: index out of range [0] with length 0"},
	{"index out of range as the last expression", nil, "xs := []float64{1, 2}\nxs[5]",
		"panic at 2:0: runtime error: index out of range [5] with length 2"},
	{"index out of range, the failing one of two", nil, "a := []int{1, 2, 3}\nb := []int{7}\ni := 2\nsum := a[i] + b[i]\n_ = sum",
		"panic at 4:0: runtime error: index out of range [2] with length 1"},
	{"index out of range in a function", []string{"func at(xs []int, i int) int {\n\treturn xs[i]\n}"}, "at([]int{1}, 3)",
		"panic at 1:0: runtime error: index out of range (in main.at)"},
	{"nil pointer", nil, "type P struct{ X int }\nvar p *P\np.X", "panic at 3:0: runtime error: invalid memory address or nil pointer dereference"},
	{"nil map", nil, "var m map[string]int\nm[\"a\"] = 1", "panic at 2:0: assignment to entry in nil map"},
	{"division by zero", nil, "z := 0\nq := 10 / z\n_ = q", "panic at 2:0: runtime error: integer divide by zero"},
	{"failed type assertion", nil, "var i any = \"s\"\nn := i.(int)\n_ = n", "panic at 2:0: interface conversion: interface {} is string, not int"},

	// SDK results show a summary, Arrow tables a table.
	{"a Louvain result", nil, "c, _ := community.Louvain(sdk.Context(), datasets.Must(datasets.Open(\"karate\")), community.Options{Seed: 1})\nc",
		"34 vertices in 4 communities (largest 12), modularity 0.4198, 2 levels"},
	{"an Arrow table", []string{"g := datasets.Must(datasets.Open(\"karate\"))\npos, _ := layout.SFDP(sdk.Context(), g, layout.Options{Seed: 1})"},
		"tab, _ := sdk.PositionsTable(g, pos, nil)\nb, _ := views.TableOf(tab)\nstrings.Split(b.Text(), \"\\n\")[0]", `"arrow.Table: 34 rows × 5 columns"`},

	// Standard streams are *os.File, as in any Go program.
	{"os.Stderr.WriteString", []string{`import "os"`}, "os.Stderr.WriteString(\"oops\\n\")", "(5, <nil>)"},
	{"os.Stdout as *os.File", []string{`import "os"`}, "var f *os.File = os.Stdout\nf.Name() != \"\"", "true"},
}

func TestCellsTeach(t *testing.T) {
	for _, c := range teachingCases {
		t.Run(c.name, func(t *testing.T) {
			s := newKernelSession(t)
			for _, setup := range c.setup {
				if _, err := s.Execute(context.Background(), setup, 1); err != nil {
					t.Fatalf("setup %q: %v", setup, err)
				}
			}
			if got := outcome(s.Session, c.cell); got != c.want {
				t.Errorf("cell %q:\n got: %s\nwant: %s", c.cell, got, c.want)
			}
		})
	}
}

func TestStandardStreamsAreFiles(t *testing.T) {
	s := newKernelSession(t)
	for _, code := range []string{
		`import "os"`,
		`fmt.Println("one")`,
		`os.Stdout.WriteString("two\n")`,
		`fmt.Fprintln(os.Stdout, "three")`,
		`os.Stderr.WriteString("oops\n")`,
		`go func() { os.Stdout.WriteString("four\n") }()` + "\nimport \"time\"\ntime.Sleep(50 * time.Millisecond)",
	} {
		if _, err := s.Execute(context.Background(), code, 1); err != nil {
			t.Fatalf("%q: %v", code, err)
		}
	}
	if got := readFile(t, s.out); got != "one\ntwo\nthree\nfour\n" {
		t.Errorf("stdout %q", got)
	}
	if got := readFile(t, s.errOut); got != "oops\n" {
		t.Errorf("stderr %q", got)
	}
}

func TestShowGoesToTheSink(t *testing.T) {
	s := newKernelSession(t)
	if got := outcome(s.Session, `display.Show(display.Markdown("hi"))`); got != "(no result)" {
		t.Fatal(got)
	}
	if len(s.sink.shown) != 1 || s.sink.shown[0] != "hi" {
		t.Fatalf("shown %q", s.sink.shown)
	}
}

func TestHelpWithQuestionMarks(t *testing.T) {
	s := newKernelSession(t)
	if got := outcome(s.Session, "strings.ToUpper?"); got != "(no result)" {
		t.Fatal(got)
	}
	if len(s.sink.pages) != 1 || !strings.Contains(s.sink.pages[0], "func strings.ToUpper(string) string") {
		t.Fatalf("pager %q", s.sink.pages)
	}
	// The case: sdk.Run? was a syntax error.
	if got := outcome(s.Session, "sdk.Run?"); got != "(no result)" {
		t.Fatal(got)
	}
	if len(s.sink.pages) != 2 || !strings.HasPrefix(s.sink.pages[1], "func sdk.Run(context.Context, *graph.Graph, bsp.Program, sdk.Options) (*sdk.Job, error)") {
		t.Fatalf("pager %q", s.sink.pages[1:])
	}
	if got := outcome(s.Session, "noSuchName?"); got != "(no result)" || readFile(t, s.out) != "nothing is known about noSuchName\n" {
		t.Fatalf("help on an unknown name: %s, stdout %q", got, readFile(t, s.out))
	}
}

func TestLargeValuesAreCut(t *testing.T) {
	s := newKernelSession(t)
	got := outcome(s.Session, "xs := make([]int, 100000)\nxs")
	if !strings.HasPrefix(got, "[0 0 0") || !strings.HasSuffix(got, "… 99980 more]") {
		t.Fatalf("slice shown as %q", got)
	}
	got = outcome(s.Session, "m := map[int]string{}\nfor i := 0; i < 50; i++ { m[i] = \"v\" }\nm")
	if !strings.HasPrefix(got, "map[0:v 1:v") || !strings.HasSuffix(got, "… 30 more]") {
		t.Fatalf("map shown as %q", got)
	}
	got = outcome(s.Session, "type big struct{ Name string; IDs []int }\nbig{\"b\", make([]int, 1000)}")
	if !strings.HasPrefix(got, "{Name:b IDs:[0 0") || !strings.HasSuffix(got, "… 980 more]}") {
		t.Fatalf("struct shown as %q", got)
	}
}

func TestChainedCompletion(t *testing.T) {
	s := newKernelSession(t)
	if _, err := s.Execute(context.Background(), "cl, _ := cluster.New(1, 2, 2)\ng := datasets.Must(datasets.Open(\"karate\"))\njob, _ := sdk.Run(sdk.Context(), g, vertex.PageRank{Iterations: 3}, sdk.Options{Config: bsp.Config{Cluster: cl}})", 1); err != nil {
		t.Fatal(err)
	}
	c := s.Complete("job.Profile.Tot", 15)
	if matchTexts(c) != "Totals" {
		t.Fatalf("job.Profile.Tot: %q", matchTexts(c))
	}
	if c.Matches[0].Kind != "method" || !strings.HasPrefix(c.Matches[0].Signature, "func()") {
		t.Fatalf("match %+v", c.Matches[0])
	}
	c = s.Complete("job.Tren", 8)
	if matchTexts(c) != "Trend,TrendData" {
		t.Fatalf("job.Tr: %q", matchTexts(c))
	}
	doc, found := s.Inspect("job.Trend(", 10, 0)
	if !found || !strings.Contains(doc.Text(), "Trend") {
		t.Fatalf("inspect job.Trend: %q", doc.Text())
	}
}
