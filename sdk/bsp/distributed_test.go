package bsp_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"superstep/algo/partition"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/topology/cluster"
)

// runLoopback runs prog as nw processes joined by bsp.Loopback, each
// holding only its own vertices' arcs, and returns every process's result
// and error (process 0's result holds the values and the profile).
func runLoopback(t *testing.T, g *graph.Graph, newProg func(g *graph.Graph) bsp.Program, cfg bsp.Config, nw int, fullGraph bool) ([]*bsp.Result, []error) {
	t.Helper()
	cl, err := cluster.Single(nw)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Cluster = cl
	if cfg.Partition == nil {
		cfg.Partition = partition.Hash(g, nw)
	}
	ts := bsp.Loopback(nw)
	res := make([]*bsp.Result, nw)
	errs := make([]error, nw)
	var wg sync.WaitGroup
	for r := 0; r < nw; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := g
			if !fullGraph {
				mine = g.Keep(func(v int) bool { return cfg.Partition[v] == int32(r) })
			}
			c := cfg
			c.Transport = ts[r]
			res[r], errs[r] = bsp.Run(context.Background(), mine, newProg(mine), c)
		}()
	}
	wg.Wait()
	return res, errs
}

// sameRun checks that a distributed run (process 0's result) and an
// in-process one agree: supersteps, halting, the per-pair message counts
// of every superstep and every value within rel.
func sameRun(t *testing.T, name string, want, got *bsp.Result, rel float64) {
	t.Helper()
	if got.Supersteps != want.Supersteps || got.Halted != want.Halted {
		t.Fatalf("%s: %d supersteps (halted %v), in-process %d (halted %v)", name, got.Supersteps, got.Halted, want.Supersteps, want.Halted)
	}
	if len(got.Profile.Steps) != len(want.Profile.Steps) {
		t.Fatalf("%s: %d profiled supersteps, in-process %d", name, len(got.Profile.Steps), len(want.Profile.Steps))
	}
	for s := range want.Profile.Steps {
		wm, gm := want.Profile.Steps[s].Messages, got.Profile.Steps[s].Messages
		for i := range wm {
			if wm[i] != gm[i] {
				t.Fatalf("%s: superstep %d, pair %d: %d messages, in-process %d", name, s, i, gm[i], wm[i])
			}
		}
	}
	for i, w := range want.Values {
		g := got.Values[i]
		if w == g || (math.IsInf(w, 0) && w == g) {
			continue
		}
		if math.Abs(g-w) > rel*math.Abs(w) {
			t.Fatalf("%s: value %d is %v, in-process %v", name, i, g, w)
		}
	}
}

// TestDistributedMatchesInProcess: PageRank, SSSP, the buggy SSSP and
// components on the 4elt mesh, run as 2, 4 and 8 processes over Loopback
// with the in-process engine's partition, give the same values bit for
// bit and the same messages per pair of workers in every superstep.
// PageRank sends 91,756 messages (4elt's arcs) in each full superstep.
func TestDistributedMatchesInProcess(t *testing.T) {
	g, err := datasets.Open("4elt")
	if err != nil {
		t.Fatal(err)
	}
	programs := []struct {
		name string
		prog bsp.Program
	}{
		{"pagerank", vertex.PageRank{Iterations: 10}},
		{"sssp", vertex.SSSP{Source: 7}},
		{"buggy sssp", vertex.SSSP{Source: 7, Buggy: true}},
		{"components", vertex.Components{}},
	}
	for _, nw := range []int{2, 4, 8} {
		for _, p := range programs {
			cfg := bsp.Config{MaxSupersteps: 40}
			if c, ok := p.prog.(interface{ Config(bsp.Config) bsp.Config }); ok {
				cfg = c.Config(cfg)
			}
			cl, _ := cluster.Single(nw)
			in := cfg
			in.Cluster = cl
			in.Partition = partition.Hash(g, nw)
			want, err := bsp.Run(context.Background(), g, p.prog, in)
			if err != nil {
				t.Fatal(err)
			}
			res, errs := runLoopback(t, g, func(*graph.Graph) bsp.Program { return p.prog }, cfg, nw, false)
			for r, err := range errs {
				if err != nil {
					t.Fatalf("%s on %d processes: process %d: %v", p.name, nw, r, err)
				}
			}
			sameRun(t, p.name, want, res[0], 0)
			if p.name == "pagerank" {
				var total int64
				for _, m := range res[0].Profile.Steps[3].Messages {
					total += m
				}
				if total != 91756 {
					t.Errorf("pagerank on %d processes: %d messages in superstep 3, want 91,756", nw, total)
				}
				var bytes int64
				for _, b := range res[0].Profile.Steps[3].Bytes {
					bytes += b
				}
				// 12 bytes a message (index, float64) and an 8-byte header
				// per non-empty buffer.
				if bytes < 12*91756 || bytes > 12*91756+8*int64(nw*nw) {
					t.Errorf("pagerank on %d processes: %d bytes in superstep 3, want 12 per message and a header per pair", nw, bytes)
				}
			}
		}
	}
}

// TestDistributedLouvain: Louvain's local moving (four-number messages,
// four aggregators, a vote that ends it) on 4 processes, each holding its
// own vertices' arcs and told the total weight, finds the same
// communities as in process.
func TestDistributedLouvain(t *testing.T) {
	g, err := datasets.Open("karate")
	if err != nil {
		t.Fatal(err)
	}
	opts := vertex.LouvainOptions{Seed: 3}
	in := vertex.NewLouvain(g, opts)
	cl, _ := cluster.Single(4)
	cfg := in.Config(bsp.Config{Cluster: cl, Partition: partition.Hash(g, 4)})
	want, err := bsp.Run(context.Background(), g, in, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Cluster = nil
	// Each process holds only its vertices' arcs: it is told 2m.
	for u := 0; u < g.NumVertices(); u++ {
		lo, _ := g.ArcRange(u)
		for i, v := range g.Neighbors(u) {
			opts.TotalWeight += g.Weight(lo + i)
			if int(v) == u {
				opts.TotalWeight += g.Weight(lo + i)
			}
		}
	}
	res, errs := runLoopback(t, g, func(g *graph.Graph) bsp.Program { return vertex.NewLouvain(g, opts) }, cfg, 4, false)
	for r, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", r, err)
		}
	}
	sameRun(t, "louvain", want, res[0], 0)
	if res[0].Aggregated["louvain.in"] != want.Aggregated["louvain.in"] {
		t.Errorf("aggregated %v, in-process %v", res[0].Aggregated, want.Aggregated)
	}
}

type panicOn struct{ worker, step int }

func (p panicOn) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	if c.Worker() == p.worker && c.Superstep() == p.step {
		panic("boom")
	}
	c.SendToNeighbors(v, 1)
}

// TestDistributedPanic: a program that panics on one process ends the job
// on every process in the same superstep, each naming the worker.
func TestDistributedPanic(t *testing.T) {
	g, _ := datasets.Lattice(6, 6)
	_, errs := runLoopback(t, g, func(*graph.Graph) bsp.Program { return panicOn{worker: 2, step: 3} }, bsp.Config{MaxSupersteps: 10}, 4, false)
	for r, err := range errs {
		if err == nil {
			t.Fatalf("process %d: no error", r)
		}
		want := "on worker 2"
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "superstep 3") {
			t.Errorf("process %d: %v, want it to name superstep 3 and worker 2", r, err)
		}
	}
	if !strings.Contains(errs[2].Error(), "panicked in superstep 3 on worker 2: boom") {
		t.Errorf("the failing process's own error: %v", errs[2])
	}
}

type failingTransport struct {
	bsp.Transport
	at int // the Exchange call that fails
	n  int
}

func (f *failingTransport) Exchange(send [][]byte) ([][]byte, error) {
	f.n++
	if f.n == f.at {
		return nil, errors.New("link down")
	}
	return f.Transport.Exchange(send)
}

// TestDistributedTransportError: a failed exchange is an error naming the
// superstep and the call, and the process makes no further call.
func TestDistributedTransportError(t *testing.T) {
	g, _ := datasets.Lattice(4, 4)
	cl, _ := cluster.Single(1)
	tr := &failingTransport{Transport: bsp.Loopback(1)[0], at: 3}
	res, err := bsp.Run(context.Background(), g, vertex.PageRank{}, bsp.Config{Cluster: cl, Transport: tr})
	if err == nil || !strings.Contains(err.Error(), "the exchange in superstep 2 on worker 0: link down") {
		t.Fatalf("got %v", err)
	}
	if res.Supersteps != 2 || len(res.Profile.Steps) != 2 {
		t.Errorf("%d supersteps, %d profiled; want the 2 before the failure", res.Supersteps, len(res.Profile.Steps))
	}
}
