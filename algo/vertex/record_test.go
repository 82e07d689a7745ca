package vertex_test

import (
	"math"
	"testing"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/vrecord"
	"superstep/topology/cluster"
)

// recorded runs prog on g with a vertex record, on 4 workers.
func recorded(t *testing.T, g *graph.Graph, prog bsp.Program, cfg bsp.Config) *bsp.Result {
	t.Helper()
	cl, err := cluster.New(1, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Cluster = cl
	cfg.Partition = make([]int32, g.NumVertices())
	for v := range cfg.Partition {
		cfg.Partition[v] = int32(v % 4)
	}
	cfg.Record = &vrecord.Options{}
	res := run(t, g, prog, cfg)
	if res.Record == nil {
		t.Fatal("no record")
	}
	if res.Record.Len() != res.Supersteps {
		t.Fatalf("the record has %d supersteps, the job ran %d", res.Record.Len(), res.Supersteps)
	}
	return res
}

// SSSP from a corner of a 5×5 lattice: in superstep i exactly the vertices
// at hop distance i (row + column) are active, with value i; the farther
// ones are still +Inf; the nearer ones keep their distance. Vertices at
// distance i-2 are woken (their neighbours at i-1 sent back to them) and
// find nothing better.
func TestRecordSSSPWaveOnLattice(t *testing.T) {
	g, err := datasets.Lattice(5, 5)
	if err != nil {
		t.Fatal(err)
	}
	res := recorded(t, g, vertex.SSSP{Source: 0}, bsp.Config{})
	rec := res.Record
	if res.Supersteps != 10 {
		t.Fatalf("%d supersteps, want 10 (0..8 and the quiet one after)", res.Supersteps)
	}
	dist := func(v int) int { return v/5 + v%5 }
	for i := 0; i <= 9; i++ {
		s := rec.Step(i)
		for v := range 25 {
			d := dist(v)
			wantState := vrecord.Halted
			switch {
			case d == i:
				wantState = vrecord.Active
			case i > 0 && d == i-2:
				wantState = vrecord.Woken
			case i == 0:
				wantState = vrecord.Woken // every vertex computes in superstep 0; only the source acts
			}
			if s.State[v] != wantState {
				t.Errorf("superstep %d: vertex %d (distance %d) is %v, want %v", i, v, d, s.State[v], wantState)
			}
			want := math.Inf(1)
			if d <= i {
				want = float64(d)
			}
			if s.Value[v] != want {
				t.Errorf("superstep %d: vertex %d has value %v, want %v", i, v, s.Value[v], want)
			}
		}
		if got := rec.Count(i, vrecord.Active); i <= 8 && got != min(i+1, 9-i) {
			t.Errorf("superstep %d: %d active, want %d", i, got, min(i+1, 9-i))
		}
	}
	// Messages: a vertex at distance i sends one along each of its arcs in
	// superstep i; the min combiner delivers one per destination.
	for i := 0; i <= 8; i++ {
		s := rec.Step(i)
		for v := range 25 {
			wantSent := int32(0)
			if dist(v) == i {
				wantSent = int32(g.Degree(v))
			}
			if s.Sent[v] != wantSent {
				t.Errorf("superstep %d: vertex %d sent %d, want %d", i, v, s.Sent[v], wantSent)
			}
			wantRecv := int32(0)
			if d := dist(v); d == i+1 || (d == i-1 && i > 0) {
				wantRecv = 1
			}
			if s.Received[v] != wantRecv {
				t.Errorf("superstep %d: vertex %d received %d, want %d", i, v, s.Received[v], wantRecv)
			}
		}
		for _, ac := range rec.ArcMessages(i) {
			if src := rec.Source(int(ac.Arc)); dist(src) != i || ac.Count != 1 {
				t.Errorf("superstep %d: arc %d from vertex %d carries %d", i, ac.Arc, src, ac.Count)
			}
		}
	}
	checkSumsAgainstProfile(t, res, true)
}

// PageRank on a 4-cycle: every vertex is active in every superstep, with
// value 1/4, sends one message along each of its 2 arcs in every
// superstep but the last, and receives 2.
func TestRecordPageRankOnFourCycle(t *testing.T) {
	g := graph.FromEdges(4, false, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}})
	res := recorded(t, g, vertex.PageRank{Iterations: 5}, bsp.Config{})
	rec := res.Record
	if rec.Len() != 6 {
		t.Fatalf("%d supersteps, want 6", rec.Len())
	}
	for i := range rec.Len() {
		s := rec.Step(i)
		for v := range 4 {
			if s.State[v] != vrecord.Active {
				t.Errorf("superstep %d: vertex %d is %v", i, v, s.State[v])
			}
			if math.Abs(s.Value[v]-0.25) > 1e-15 {
				t.Errorf("superstep %d: vertex %d has %v, want 1/4", i, v, s.Value[v])
			}
			want := int32(2)
			if i == 5 {
				want = 0
			}
			if s.Sent[v] != want || s.Received[v] != want {
				t.Errorf("superstep %d: vertex %d sent %d and received %d, want %d", i, v, s.Sent[v], s.Received[v], want)
			}
		}
		if want := []int{0, 8}[min(1, 5-i)]; len(rec.ArcMessages(i)) != want {
			t.Errorf("superstep %d: %d busy arcs, want %d", i, len(rec.ArcMessages(i)), want)
		}
	}
	checkSumsAgainstProfile(t, res, false)
}

// The per-vertex counts sum to the profile's totals in every superstep:
// received (after the combiner) always, per destination worker; sent
// (before it) per source worker when the job has no combiner, and at least
// the profile's otherwise. The vertices that computed are the profile's
// processed ones.
func checkSumsAgainstProfile(t *testing.T, res *bsp.Result, combiner bool) {
	t.Helper()
	p, rec := res.Profile, res.Record
	nw := p.NumWorkers()
	if len(p.Steps) != rec.Len() {
		t.Fatalf("%d profile steps, %d recorded", len(p.Steps), rec.Len())
	}
	part := func(v int) int { return v % 4 } // as recorded sets it
	for i, ps := range p.Steps {
		s := rec.Step(i)
		sent, recv, processed := make([]int64, nw), make([]int64, nw), make([]int64, nw)
		for v := range rec.Vertices {
			sent[part(v)] += int64(s.Sent[v])
			recv[part(v)] += int64(s.Received[v])
			if s.State[v] != vrecord.Halted {
				processed[part(v)]++
			}
		}
		var total int64
		for w := range nw {
			var out, in int64
			for d := range nw {
				out += ps.Messages[w*nw+d]
				in += ps.Messages[d*nw+w]
			}
			total += out
			if recv[w] != in {
				t.Errorf("superstep %d: worker %d's vertices received %d, the profile says %d", i, w, recv[w], in)
			}
			if !combiner && sent[w] != out || combiner && sent[w] < out {
				t.Errorf("superstep %d: worker %d's vertices sent %d, the profile says %d", i, w, sent[w], out)
			}
			if processed[w] != ps.Workers[w].Processed {
				t.Errorf("superstep %d: worker %d computed %d vertices, the profile says %d", i, w, processed[w], ps.Workers[w].Processed)
			}
		}
		if rec.Messages(i) != total {
			t.Errorf("superstep %d: %d messages received, the profile has %d", i, rec.Messages(i), total)
		}
	}
}
