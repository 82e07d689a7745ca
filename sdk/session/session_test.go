package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"superstep/display"
	"superstep/kernel"
	"superstep/sdk/symbols"
)

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newSession(t *testing.T) (*Session, *syncBuf, *syncBuf) {
	t.Helper()
	var out, errOut syncBuf
	s, err := New(Options{Stdout: &out, Stderr: &errOut, Preload: []string{"fmt", "strings"}})
	if err != nil {
		t.Fatal(err)
	}
	return s, &out, &errOut
}

func eval(t *testing.T, s *Session, code string) Result {
	t.Helper()
	res, err := s.Eval(context.Background(), code, 1)
	if err != nil {
		t.Fatalf("cell %q: %v", code, err)
	}
	return res
}

func evalErr(t *testing.T, s *Session, code string) *Error {
	t.Helper()
	_, err := s.Eval(context.Background(), code, 1)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("cell %q: err = %v, want *Error", code, err)
	}
	return e
}

func TestStateAcrossCells(t *testing.T) {
	s, out, _ := newSession(t)
	eval(t, s, "x := 20")
	eval(t, s, "func twice(v int) int { return 2 * v }")
	res := eval(t, s, "y := twice(x) + 2\ny")
	if !res.Shown || res.Value.Int() != 42 {
		t.Fatalf("result %v shown=%v", res.Value, res.Shown)
	}
	eval(t, s, `fmt.Println("hello", y)`)
	if out.String() != "hello 42\n" {
		t.Fatalf("stdout %q", out.String())
	}
	if res := eval(t, s, `fmt.Println("again")`); res.Shown {
		t.Fatal("Println's byte count shown as a result")
	}
}

func TestMixedCell(t *testing.T) {
	s, _, _ := newSession(t)
	res := eval(t, s, "import \"math\"\nr := 2.0\ntype circle struct{ r float64 }\nfunc (c circle) area() float64 { return math.Pi * c.r * c.r }\ncircle{r}.area()")
	if !res.Shown || res.Value.Float() < 12.56 || res.Value.Float() > 12.57 {
		t.Fatalf("area = %v", res.Value)
	}
	// Importing again what the session has is not an error.
	eval(t, s, "import \"math\"\nmath.Sqrt(4)")
	eval(t, s, "import \"fmt\"")
}

func TestRedefinitions(t *testing.T) {
	s, _, errOut := newSession(t)
	eval(t, s, "func f() int { return 1 }")
	eval(t, s, "func f() int { return 2 }")
	if v := eval(t, s, "f()").Value.Int(); v != 2 {
		t.Fatalf("redefined func: f() = %d", v)
	}
	eval(t, s, "type T struct{ A int }\nfunc (t T) Get() int { return t.A }")
	eval(t, s, "type T struct{ A, B int }")
	if v := eval(t, s, "T{A: 1, B: 2}.B").Value.Int(); v != 2 {
		t.Fatalf("redefined type: B = %d", v)
	}
	if v := eval(t, s, "T{A: 5}.Get()").Value.Int(); v != 5 {
		t.Fatalf("method kept across type redefinition: %d", v)
	}
	eval(t, s, "func (t T) Get() int { return t.A * 10 }")
	if v := eval(t, s, "T{A: 5}.Get()").Value.Int(); v != 50 {
		t.Fatalf("redefined method: %d", v)
	}
	eval(t, s, "var v = 1")
	eval(t, s, "var v = 2")
	if v := eval(t, s, "v").Value.Int(); v != 2 {
		t.Fatalf("redefined var: %d", v)
	}
	// A type redefined so that an old method no longer compiles.
	eval(t, s, "type T struct{ C int }")
	if !strings.Contains(errOut.String(), "T.Get") {
		t.Fatalf("no note about the dropped method: %q", errOut.String())
	}
	eval(t, s, "T{C: 1}")
}

func TestPanicKeepsSession(t *testing.T) {
	s, _, errOut := newSession(t)
	eval(t, s, "keep := 7")
	e := evalErr(t, s, "a := 1\npanic(\"boom\")")
	if e.Kind != "panic" || e.Msg != "boom" || e.Line != 2 {
		t.Fatalf("panic error %+v", e)
	}
	if strings.Contains(errOut.String(), "main(...)") {
		t.Fatalf("interpreter noise on stderr: %q", errOut.String())
	}
	e = evalErr(t, s, "z := 0\nq := 1 / z\n_ = q")
	if e.Kind != "panic" || !strings.Contains(e.Msg, "divide by zero") || e.Line != 2 {
		t.Fatalf("runtime error %+v", e)
	}
	if v := eval(t, s, "keep").Value.Int(); v != 7 {
		t.Fatalf("keep = %d after panics", v)
	}
}

func TestInterpreterPanicKeepsSession(t *testing.T) {
	s, _, _ := newSession(t)
	eval(t, s, "keep := 7")
	e := evalErr(t, s, "for i := range 3 { _ = i }")
	if e.Kind != "compile error" || !strings.Contains(e.Msg, "for i := 0; i < n; i++") || e.Line != 1 || e.Col != 1 {
		t.Fatalf("interpreter panic %+v", e)
	}
	if v := eval(t, s, "keep").Value.Int(); v != 7 {
		t.Fatalf("keep = %d", v)
	}
}

func TestCompileAndSyntaxErrorsNameTheLine(t *testing.T) {
	s, _, _ := newSession(t)
	e := evalErr(t, s, "a := 1\nb := \"s\"\nc := a + b")
	if e.Kind != "compile error" || e.Line != 3 || !strings.Contains(e.Msg, "mismatched types") || e.Source != "c := a + b" {
		t.Fatalf("compile error %+v", e)
	}
	e = evalErr(t, s, "x := 1\ny := )")
	if e.Kind != "syntax error" || e.Line != 2 {
		t.Fatalf("syntax error %+v", e)
	}
	e = evalErr(t, s, "\n\nundefinedThing + 1")
	if e.Line != 3 || !strings.Contains(e.Msg, "undefined: undefinedThing") {
		t.Fatalf("undefined %+v", e)
	}
}

func TestInterruptEndlessLoopAndBlockedReceive(t *testing.T) {
	s, _, _ := newSession(t)
	eval(t, s, "keep := 7")
	for _, code := range []string{"for {}", "c := make(chan int)\n<-c", "select {}", "import \"time\"\ntime.Sleep(time.Hour)"} {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(100 * time.Millisecond); cancel() }()
		start := time.Now()
		_, err := s.Eval(ctx, code, 2)
		var e *Error
		if !errors.As(err, &e) || e.Kind != "interrupted" {
			t.Fatalf("%q: err = %v", code, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%q: interrupt took %v", code, d)
		}
		if v := eval(t, s, "keep").Value.Int(); v != 7 {
			t.Fatalf("keep = %d after interrupting %q", v, code)
		}
	}
}

func TestGoroutinePanicIsReported(t *testing.T) {
	got := make(chan string, 1)
	s, err := New(Options{Preload: []string{"fmt"}, GoroutinePanic: func(n int, v any) {
		got <- fmt.Sprint(n, ":", v)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval(context.Background(), "var m map[string]int\ngo func() { m[\"a\"] = 1 }()", 3); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-got:
		if !strings.HasPrefix(r, "3:") || !strings.Contains(r, "nil map") {
			t.Fatalf("report %q", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no report of the goroutine's panic")
	}
	// Arguments are evaluated when the go statement runs, as in Go.
	res := eval(t, s, "out := make(chan int, 3)\nfunc send(c chan int, v int) { c <- v }\nfor i := 0; i < 3; i++ { go send(out, i) }\nsum := <-out + <-out + <-out\nsum")
	if res.Value.Int() != 3 {
		t.Fatalf("sum of goroutine args = %d, want 0+1+2", res.Value.Int())
	}
}

func TestStdin(t *testing.T) {
	s, err := New(Options{Stdin: strings.NewReader("Ada\n"), Preload: []string{"fmt"}})
	if err != nil {
		t.Fatal(err)
	}
	res := eval(t, s, "var name string\nfmt.Scanln(&name)\nname")
	if res.Value.String() != "Ada" {
		t.Fatalf("read %q", res.Value.String())
	}
}

func matchTexts(c kernel.Completion) string {
	var out []string
	for _, m := range c.Matches {
		out = append(out, m.Text)
	}
	return strings.Join(out, ",")
}

func TestCompleteAndInspect(t *testing.T) {
	s, _, _ := newSession(t)
	c := s.Complete("fmt.Sprin", 9)
	if matchTexts(c) != "Sprint,Sprintf,Sprintln" || c.Start != 4 || c.End != 9 {
		t.Fatalf("complete fmt.Sprin: %v [%d,%d)", matchTexts(c), c.Start, c.End)
	}
	if c.Matches[1].Kind != "function" || c.Matches[1].Signature != "func(string, ...any) string" {
		t.Fatalf("Sprintf match %+v", c.Matches[1])
	}
	eval(t, s, "counter := 3\ntype box struct{ Width int }\nb := box{2}")
	if m := matchTexts(s.Complete("x := coun", 9)); m != "counter" {
		t.Fatalf("complete coun: %v", m)
	}
	if m := matchTexts(s.Complete("b.W", 3)); m != "Width" {
		t.Fatalf("complete b.W: %v", m)
	}
	doc, found := s.Inspect("counter", 3, 0)
	if !found || doc.Text() != "var counter int = 3" {
		t.Fatalf("inspect counter: %q %v", doc.Text(), found)
	}
	doc, found = s.Inspect("strings.ToUpper(", 10, 0)
	if !found || !strings.Contains(doc.Text(), "func strings.ToUpper(string) string") {
		t.Fatalf("inspect strings.ToUpper: %q %v", doc.Text(), found)
	}
	if _, found := s.Inspect("nothingHere", 3, 0); found {
		t.Fatal("inspect found an unknown name")
	}
}

func TestPanicInFunctionNamesIt(t *testing.T) {
	s, _, _ := newSession(t)
	eval(t, s, "func inner(xs []int) int { return xs[5] }\nfunc outer() int { return inner(nil) }")
	e := evalErr(t, s, "a := 1\n_ = a\nouter()")
	if e.Kind != "panic" || e.Line != 3 || !strings.Contains(e.Msg, "index out of range") || !strings.Contains(e.Msg, "inner") {
		t.Fatalf("%+v", e)
	}
}

// A type defined in a cell renders itself through display.Render.
func TestCellTypeRendersThroughRender(t *testing.T) {
	s, err := New(Options{Symbols: []interp.Exports{symbols.Symbols}, Preload: []string{"superstep/display"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Eval(context.Background(), "type badge struct{ label string }\nfunc (b badge) MIMEBundle() display.Bundle {\n\treturn display.HTML(\"<b>\" + b.label + \"</b>\").MIMEBundle()\n}\ndisplay.Render(badge{\"ok\"})", 1)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := res.Value.Interface().(display.Bundle)
	if !ok || b.Data["text/html"] != "<b>ok</b>" {
		t.Fatalf("rendered %v", res.Value)
	}
}

// x, err := f() inside a loop, an if or a block of a cell's top level:
// the interpreter alone reports "undefined: x" (cell.WrapBlocks).
func TestNestedMultiValueDefinitions(t *testing.T) {
	s, out, _ := newSession(t)
	eval(t, s, "import \"strconv\"\ntotal := 0\nm := map[string]int{\"a\": 3}")
	eval(t, s, "for _, w := range []string{\"1\", \"20\", \"x\"} {\n\tn, err := strconv.Atoi(w)\n\tif err != nil {\n\t\tfmt.Println(\"skip\", w)\n\t\tcontinue\n\t}\n\ttotal += n\n}\nfmt.Println(total)")
	eval(t, s, "if v, ok := m[\"a\"]; ok {\n\tq, r := v/2, v%2\n\tw, _ := strconv.Atoi(\"4\")\n\tfmt.Println(q, r, w)\n}")
	if got := out.String(); got != "skip x\n21\n1 1 4\n" {
		t.Fatalf("output %q", got)
	}
	if r := eval(t, s, "total"); fmt.Sprint(r.Value) != "21" {
		t.Fatalf("total %v after the loop", r.Value)
	}
	// A panic in a wrapped loop names the line of the top-level statement
	// that was running, as for any loop.
	e := evalErr(t, s, "x := 1\nfor i := 0; i < 1; i++ {\n\tn, _ := strconv.Atoi(\"0\")\n\t_ = x / n\n}")
	if e.Kind != "panic" || e.Line != 2 || !strings.Contains(e.Msg, "integer divide by zero") {
		t.Fatalf("panic at line %d: %v", e.Line, e)
	}
	// A final call with several results after a wrapped loop: the result
	// assignment lands on the call, not where the wrapping moved it to.
	r := eval(t, s, "sum := 0\nfor _, w := range []string{\"2\", \"3\"} {\n\tn, _ := strconv.Atoi(w)\n\tsum += n\n}\nstrconv.Atoi(fmt.Sprint(sum, \"0\"))")
	if len(r.Values) != 2 || fmt.Sprint(r.Values[0]) != "50" {
		t.Fatalf("results %v after a wrapped loop, want 50 and a nil error", r.Values)
	}
}

// TestMethodInLaterCell: a method with named parameters declared in a
// cell after its type's makes the type implement an interface for the
// checker, as for the interpreter.
func TestMethodInLaterCell(t *testing.T) {
	s, err := New(Options{Symbols: []interp.Exports{symbols.Symbols}, Preload: Preload()})
	if err != nil {
		t.Fatal(err)
	}
	eval(t, s, "import \"superstep/sdk/bsp\"\ntype T struct{ A int }")
	eval(t, s, "func (T) Compute(c *bsp.Context, v int, msgs bsp.Messages) {}")
	eval(t, s, "var p bsp.Program = T{}")
	if e := evalErr(t, s, "var q bsp.Program = 3"); !strings.Contains(e.Msg, "does not implement bsp.Program") {
		t.Errorf("got %v", e)
	}
}
