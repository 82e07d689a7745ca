package cellprog

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/mpijob"
	"superstep/topology/cluster"
)

// maxSource is max-value propagation written as a cell would: every vertex
// ends with the largest Seed-shifted label in its component.
var maxSource = mpijob.Source{
	Imports: map[string]string{"bsp": "superstep/sdk/bsp", "m": "math"},
	Decls: `
const base = 1
type MaxLabel struct {
	Shift float64
	seen  int
}
func label(v int, shift float64) float64 { return m.Mod(float64(v+base)+shift, 1000) }
func (p MaxLabel) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
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
}
`,
	Type:  "MaxLabel",
	Value: json.RawMessage(`{"Shift": 0.5}`),
}

// TestProgram: the shipped max-label program on karate (one component)
// ends with every vertex at the largest label, 34 + 0.5.
func TestProgram(t *testing.T) {
	g, err := datasets.Open("karate")
	if err != nil {
		t.Fatal(err)
	}
	for _, ptr := range []bool{false, true} {
		src := maxSource
		src.Pointer = ptr
		prog, err := Program(&src)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := cluster.Single(4)
		res, err := bsp.Run(context.Background(), g, prog, bsp.Config{Cluster: c})
		if err != nil {
			t.Fatal(err)
		}
		for v, x := range res.Values {
			if x != 34.5 {
				t.Fatalf("pointer %v: vertex %d ends at %v, want 34.5", ptr, v, x)
			}
		}
	}
}

// TestProgramErrors: what a rank says about source it cannot use.
func TestProgramErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*mpijob.Source)
		want   string
	}{
		{"a notebook variable", func(s *mpijob.Source) { s.Decls += "\nfunc uses() float64 { return notebookVar }" }, "not their variables"},
		{"not a program", func(s *mpijob.Source) { s.Decls += "\ntype Plain struct{}"; s.Type = "Plain" }, "making a Plain"},
		{"bad value", func(s *mpijob.Source) { s.Value = json.RawMessage(`{"Shift": "x"}`) }, "reading the MaxLabel value"},
		{"syntax", func(s *mpijob.Source) { s.Decls += "\nfunc (" }, "declarations"},
		{"bad type name", func(s *mpijob.Source) { s.Type = "Max Label" }, "not a Go identifier"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := maxSource
			src.Imports = map[string]string{"bsp": "superstep/sdk/bsp", "m": "math"}
			tc.change(&src)
			_, err := Program(&src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
