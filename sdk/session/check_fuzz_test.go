package session

import (
	"testing"
	"time"

	"superstep/kernel/cell"
)

// Any cell the splitter accepts is type-checked without a panic: the
// checker either finds it well typed, reports an error at a cell
// position, or leaves it to the interpreter.
func FuzzCheck(f *testing.F) {
	for _, c := range teachingCases {
		f.Add(c.cell)
		for _, s := range c.setup {
			f.Add(s)
		}
	}
	for _, seed := range []string{
		"func (p *T) M() {}", "type T[P any] struct{ v P }\nfunc (t T[P]) Get() P { return t.v }",
		"import . \"strings\"\nToUpper(\"a\")", "import s \"strings\"\ns.ToUpper(\"a\")", "for range 3 {}",
		"go func() {}()", "defer fmt.Println()", "x, y := 1", "label:\nfor {}\nbreak label", "var _ = undefined",
		"type A = B\ntype B = A", "const c = 1 << 1000\nc", "func f() (int, error)\nf()",
	} {
		f.Add(seed)
	}
	s, err := New(Options{Preload: []string{"fmt", "math", "strings"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, code string) {
		done := make(chan *Error, 1)
		go func() {
			sp, err := cell.Parse(code)
			if err != nil {
				done <- nil
				return
			}
			_, e := s.checker.check(map[string]string{"fmt": "fmt", "math": "math", "strings": "strings"}, sp, code, nil)
			done <- e
		}()
		select {
		case e := <-done:
			if e != nil && (e.Line < 0 || e.Col < 0 || e.Msg == "") {
				t.Fatalf("cell %q: error %+v", code, e)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("cell %q: the check did not end in 5 s", code)
		}
	})
}
