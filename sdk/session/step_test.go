package session

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"superstep/sdk/symbols"
)

// A program written in cells, with a field, is stepped one superstep a
// cell (issue 16): the field set in the cell that started the job still
// holds in later cells, after the session released the first cell's
// frames, whether the program was made in a variable or inside the call.
func TestStepCellProgramAcrossCells(t *testing.T) {
	for _, start := range []string{
		"s, err := sdk.Start(sdk.Context(), g, MaxValue{Bonus: 100}, sdk.Options{})",
		"p := MaxValue{Bonus: 100}\ns, err := sdk.Start(sdk.Context(), g, p, sdk.Options{})",
		"s, err := sdk.Start(sdk.Context(), g, &MaxValue{Bonus: 100}, sdk.Options{})",
	} {
		t.Run(strings.SplitN(start, "\n", 2)[0], func(t *testing.T) {
			s, err := New(Options{Symbols: []interp.Exports{symbols.Symbols}, Preload: Preload()})
			if err != nil {
				t.Fatal(err)
			}
			eval(t, s, "g := datasets.Must(datasets.Lattice(1, 4))")
			eval(t, s, `// MaxValue spreads the largest value; vertex 3 starts with Bonus more.
type MaxValue struct{ Bonus float64 }

func (p MaxValue) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	x := c.Value(v)
	if c.Superstep() == 0 {
		x = float64(v)
		if v == 3 {
			x += p.Bonus
		}
	}
	for i := 0; i < msgs.Len(); i++ {
		if msgs.Float(i) > x {
			x = msgs.Float(i)
		}
	}
	if c.Superstep() == 0 || x > c.Value(v) {
		c.SetValue(v, x)
		c.SendToNeighbors(v, x)
	}
	c.VoteToHalt(v)
}`)
			eval(t, s, start)
			eval(t, s, "if err != nil { panic(err) }")
			for i := 0; i < 3; i++ {
				eval(t, s, "f := s.Step()\nif f.Err() != nil { panic(f.Err()) }")
			}
			res := eval(t, s, `fmt.Sprint(s.Job().Result.Values)`)
			if got := res.Values[0].Interface(); got != "[2 103 103 103]" {
				t.Errorf("after 3 supersteps the values are %v, want 103 but on vertex 0, which 103 reaches in superstep 3", got)
			}
			eval(t, s, "for !s.Done() { s.Step() }")
			// A pointer names the job after the cell's type; a value
			// reaches compiled code in the interpreter's wrapper, whose
			// copy of it is not the value (yaegi 0.16), so it is not named.
			want := "program: finished after 5 supersteps"
			if strings.Contains(start, "&") {
				want = "MaxValue: finished after 5 supersteps"
			}
			res = eval(t, s, `s.String()`)
			if got := res.Values[0].Interface(); got != want {
				t.Errorf("%v, want %s", got, want)
			}
		})
	}
}
