package session

import (
	"context"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"superstep/sdk/symbols"
)

// The PageRank vertex program written in a cell, as a student would.
const cellPageRank = `
import "context"

type cellPR struct{ iterations int }

func (p cellPR) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	n := float64(c.NumVertices())
	if c.Superstep() == 0 {
		c.SetValue(v, 1/n)
	} else {
		sum := 0.0
		for i := 0; i < msgs.Len(); i++ {
			sum += msgs.Float(i)
		}
		c.SetValue(v, 0.15/n+0.85*sum)
	}
	if c.Superstep() < p.iterations {
		if d := c.Graph().Degree(v); d > 0 {
			c.SendToNeighbors(v, c.Value(v)/float64(d))
		}
		return
	}
	c.VoteToHalt(v)
}

g := datasets.Must(datasets.ErdosRenyi(20000, 100000, true, 3))
cl, _ := cluster.New(1, 2, 2)
`

func newSDKSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{Symbols: []interp.Exports{symbols.Symbols}, Preload: append([]string{"fmt"}, symbols.Packages()...)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A vertex program written in a cell runs on the compiled engine and gets
// the same answer as the compiled program.
func TestCellVertexProgram(t *testing.T) {
	s := newSDKSession(t)
	if _, err := s.Eval(context.Background(), cellPageRank, 1); err != nil {
		t.Fatal(err)
	}
	res, err := s.Eval(context.Background(), `
cellRes, err := bsp.Run(context.Background(), g, cellPR{5}, bsp.Config{Cluster: cl})
if err != nil { panic(err) }
compiled, _ := bsp.Run(context.Background(), g, vertex.PageRank{Iterations: 5}, bsp.Config{Cluster: cl})
worst := 0.0
for v := 0; v < g.NumVertices(); v++ {
	d := cellRes.Value(v) - compiled.Value(v)
	if d < 0 { d = -d }
	if d > worst { worst = d }
}
worst`, 2)
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Value.Float(); w > 1e-12 {
		t.Fatalf("cell PageRank differs from the compiled one by %g", w)
	}
}

// BenchmarkCellVsCompiledVertexProgram reports how much slower the same
// PageRank runs when its vertex program is interpreted from a cell
// (20,000 vertices, 100,000 edges, 5 supersteps, 4 workers).
func BenchmarkCellVsCompiledVertexProgram(b *testing.B) {
	s := newSDKSession(b)
	if _, err := s.Eval(context.Background(), cellPageRank, 1); err != nil {
		b.Fatal(err)
	}
	var cell, compiled time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := s.Eval(context.Background(), `bsp.Run(context.Background(), g, cellPR{5}, bsp.Config{Cluster: cl})`, 2); err != nil {
			b.Fatal(err)
		}
		cell += time.Since(start)
		start = time.Now()
		if _, err := s.Eval(context.Background(), `bsp.Run(context.Background(), g, vertex.PageRank{Iterations: 5}, bsp.Config{Cluster: cl})`, 3); err != nil {
			b.Fatal(err)
		}
		compiled += time.Since(start)
	}
	b.ReportMetric(cell.Seconds()*1000/float64(b.N), "ms-cell")
	b.ReportMetric(compiled.Seconds()*1000/float64(b.N), "ms-compiled")
	b.ReportMetric(cell.Seconds()/compiled.Seconds(), "cell/compiled")
}
