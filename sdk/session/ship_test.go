package session

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"superstep/sdk/mpijob"
	"superstep/sdk/mpijob/mpijobtest"
	"superstep/sdk/symbols"
)

// shipCells declare max-label propagation the way a notebook would, in
// three cells, with a helper function, a constant group, an import of its
// own and declarations the program does not need.
var shipCells = []string{
	`import (
	"math"
	"superstep/sdk/bsp"
)

const (
	offset = 0.5
	unusedConst = iota
)

type Unused struct{ A int }

func (Unused) Compute(c *bsp.Context, v int, msgs bsp.Messages) {}

func helperNobodyCalls() int { return 1 }`,
	`func label(v int, shift float64) float64 { return math.Mod(float64(v)+shift+offset, 1000) }

type MaxLabel struct {
	Shift  float64
	rounds int
}`,
	`func (p MaxLabel) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	if c.Superstep() == 0 {
		c.SetValue(v, label(v, p.Shift))
		c.SendToNeighbors(v, c.Value(v))
		c.VoteToHalt(v)
		return
	}
	best := c.Value(v)
	for i := 0; i < msgs.Len(); i++ {
		if x := msgs.Float(i); x > best {
			best = x
		}
	}
	if best > c.Value(v) {
		c.SetValue(v, best)
		c.SendToNeighbors(v, best)
	}
	c.VoteToHalt(v)
}`,
}

// shipSession is a session with the SDK and a test package whose Ship
// calls the cell context's Shipper.
func shipSession(t *testing.T) (*Session, *[]*mpijob.Source) {
	t.Helper()
	var got []*mpijob.Source
	test := interp.Exports{"example.com/shiptest/shiptest": {
		"Ship": reflect.ValueOf(func(ctx context.Context, prog any) error {
			src, err := mpijob.ShipperFrom(ctx)(prog)
			if err == nil {
				got = append(got, src)
			}
			return err
		}),
	}}
	s, err := New(Options{Symbols: []interp.Exports{symbols.Symbols, test}, Preload: Preload()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range shipCells {
		eval(t, s, c)
	}
	eval(t, s, "import (\n\t\"example.com/shiptest\"\n\t\"superstep/sdk\"\n)")
	return s, &got
}

// TestShipProgram: what a cell program ships: its type and methods, the
// function and the constant group they use and the imports those name,
// in cell order, and its fields as JSON; not what it does not use.
func TestShipProgram(t *testing.T) {
	s, got := shipSession(t)
	if r := eval(t, s, "shiptest.Ship(sdk.Context(), MaxLabel{Shift: 2.5, rounds: 3})"); r.Shown {
		t.Fatalf("ship: %v", r.Value)
	}
	eval(t, s, "shiptest.Ship(sdk.Context(), &MaxLabel{Shift: 1})")
	if len(*got) != 2 {
		t.Fatalf("%d sources shipped, want 2", len(*got))
	}
	src := (*got)[0]
	if src.Type != "MaxLabel" || src.Pointer || (*got)[1].Type != "MaxLabel" || !(*got)[1].Pointer {
		t.Errorf("types %q (pointer %v), %q (pointer %v)", src.Type, src.Pointer, (*got)[1].Type, (*got)[1].Pointer)
	}
	for _, want := range []string{"const (", "func label(", "type MaxLabel struct", "func (p MaxLabel) Compute("} {
		if !strings.Contains(src.Decls, want) {
			t.Errorf("shipped source lacks %q:\n%s", want, src.Decls)
		}
	}
	if i, j, k := strings.Index(src.Decls, "const ("), strings.Index(src.Decls, "func label("), strings.Index(src.Decls, "func (p MaxLabel)"); !(i < j && j < k) {
		t.Errorf("declarations out of cell order:\n%s", src.Decls)
	}
	for _, unwanted := range []string{"Unused", "helperNobodyCalls"} {
		if strings.Contains(src.Decls, unwanted) {
			t.Errorf("shipped source has %s, which the program does not use:\n%s", unwanted, src.Decls)
		}
	}
	if want := map[string]string{"bsp": "superstep/sdk/bsp", "math": "math"}; !reflect.DeepEqual(src.Imports, want) {
		t.Errorf("imports %v, want %v", src.Imports, want)
	}
	if string(src.Value) != `{"Shift":2.5,"Xrounds":3}` {
		t.Errorf("value %s", src.Value)
	}

	// A later cell redefines the helper: the new one is shipped.
	eval(t, s, "func label(v int, shift float64) float64 { return float64(v) * shift }")
	eval(t, s, "shiptest.Ship(sdk.Context(), MaxLabel{})")
	if last := (*got)[len(*got)-1]; !strings.Contains(last.Decls, "float64(v) * shift") || strings.Contains(last.Decls, "offset") || last.Imports["math"] != "" {
		t.Errorf("after redefining label:\n%s\nimports %v", last.Decls, last.Imports)
	}
}

// TestShipProgramErrors: values the shipper cannot ship, and why.
func TestShipProgramErrors(t *testing.T) {
	s, _ := shipSession(t)
	eval(t, s, "type Twin struct{ Shift float64; rounds int }\nfunc (Twin) Compute(c *bsp.Context, v int, msgs bsp.Messages) {}")
	for _, tc := range []struct{ cell, want string }{
		{"shiptest.Ship(sdk.Context(), MaxLabel{})", "could be a MaxLabel or a Twin"},
		{"var p bsp.Program = Unused{A: 1}\nshiptest.Ship(sdk.Context(), p)", "pass the value itself"},
		{"shiptest.Ship(sdk.Context(), 42)", "no type declared in a cell"},
		{"shiptest.Ship(sdk.Context(), bsp.Config{})", "neither a built-in program nor a type declared in a cell"},
		{"type Chan struct{ C chan int }\nfunc (Chan) Compute(c *bsp.Context, v int, msgs bsp.Messages) {}\nshiptest.Ship(sdk.Context(), Chan{})", "cannot be shipped to the ranks as JSON"},
	} {
		res, err := s.Eval(context.Background(), tc.cell, 1)
		if err == nil && res.Shown {
			err, _ = res.Value.Interface().(error)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.cell, err, tc.want)
		}
	}
}

// TestRunMPICellProgram: a program written in cells runs on 4 MPI ranks
// and ends with the values sdk.Run gives it in process (every karate
// vertex at the largest label, 33 + 2.5 + 0.5), with the same messages
// in every superstep.
func TestRunMPICellProgram(t *testing.T) {
	bin := mpijobtest.Worker(t)
	t.Setenv("SUPERSTEP_WORKER", bin)
	s, _ := shipSession(t)
	eval(t, s, `import (
	"superstep/datasets"
	"superstep/topology/cluster"
)`)
	res := eval(t, s, `g, _ := datasets.Open("karate")
cl, _ := cluster.Single(4)
local, lerr := sdk.Run(sdk.Context(), g, MaxLabel{Shift: 2.5}, sdk.Options{Config: bsp.Config{Cluster: cl}})
ranks, merr := sdk.RunMPI(sdk.Context(), "karate", MaxLabel{Shift: 2.5}, sdk.MPIOptions{Ranks: 4, Dir: "`+t.TempDir()+`"})
report := fmt.Sprint(lerr, merr)
if lerr == nil && merr == nil {
	for v := 0; v < g.NumVertices(); v++ {
		if local.Value(v) != 36 || ranks.Value(v) != 36 {
			report += fmt.Sprintf(" vertex %d: %v in process, %v on ranks", v, local.Value(v), ranks.Value(v))
		}
	}
	if len(local.Profile.Steps) != len(ranks.Profile.Steps) {
		report += fmt.Sprintf(" %d supersteps in process, %d on ranks", len(local.Profile.Steps), len(ranks.Profile.Steps))
	}
	for i := 0; i < len(local.Profile.Steps) && i < len(ranks.Profile.Steps); i++ {
		a, b := local.Profile.Steps[i].Messages, ranks.Profile.Steps[i].Messages
		for k := range a {
			if a[k] != b[k] {
				report += fmt.Sprintf(" superstep %d pair %d: %d in process, %d on ranks", i, k, a[k], b[k])
			}
		}
	}
}
report`)
	if got := res.Value.String(); got != "<nil> <nil>" {
		t.Fatal(got)
	}
}
