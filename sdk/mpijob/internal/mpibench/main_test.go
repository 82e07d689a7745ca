package main

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"superstep/algo/partition"
	"superstep/datasets"
)

// TestChungLu: the generator gives a simple undirected graph with exactly
// m edges (2m arcs, every edge from both ends, no self-loop, no repeat),
// the same one for the same seed and another for another seed, with
// low-index vertices (the heavy weights) of higher degree than the rest;
// written as METIS it reads back with datasets.Load as the same graph.
func TestChungLu(t *testing.T) {
	const n, m = 200, 1000
	off, adj := chungLu(n, m, 7)
	if len(off) != n+1 || off[n] != 2*m || len(adj) != 2*m {
		t.Fatalf("%d offsets, %d arcs, want %d and %d", len(off), off[n], n+1, 2*m)
	}
	has := func(u, v int) bool {
		_, ok := slices.BinarySearch(adj[off[u]:off[u+1]], int32(v))
		return ok
	}
	for u := 0; u < n; u++ {
		nb := adj[off[u]:off[u+1]]
		if !slices.IsSorted(nb) {
			t.Fatalf("vertex %d: neighbours not sorted: %v", u, nb)
		}
		for i, v := range nb {
			switch {
			case int(v) == u:
				t.Fatalf("self-loop at %d", u)
			case i > 0 && nb[i-1] == v:
				t.Fatalf("edge %d–%d twice", u, v)
			case !has(int(v), u):
				t.Fatalf("edge %d–%d not listed at %d", u, v, v)
			}
		}
	}
	off2, adj2 := chungLu(n, m, 7)
	if !slices.Equal(off, off2) || !slices.Equal(adj, adj2) {
		t.Error("seed 7 gave two graphs")
	}
	if _, adj3 := chungLu(n, m, 8); slices.Equal(adj, adj3) {
		t.Error("seeds 7 and 8 gave the same graph")
	}
	// Expected degrees fall as (i+1)^-2/3, capped at √2000 ≈ 45: the
	// first 10 vertices hold at least three times their uniform share of
	// the 2,000 arcs (100); by weight, capped, about 20%.
	if head := off[10]; head < 300 {
		t.Errorf("the first 10 vertices have %d of %d arcs, want a heavy head", head, 2*m)
	}

	path := filepath.Join(t.TempDir(), "g.metis")
	if err := writeMETIS(path, off, adj); err != nil {
		t.Fatal(err)
	}
	g, err := datasets.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != n || g.NumEdges() != m || g.NumArcs() != 2*m || g.Directed() {
		t.Fatalf("read back %d vertices, %d edges, %d arcs, directed %v", g.NumVertices(), g.NumEdges(), g.NumArcs(), g.Directed())
	}
	for v := 0; v < n; v++ {
		got := slices.Sorted(slices.Values(g.Neighbors(v)))
		if !slices.Equal(got, adj[off[v]:off[v+1]]) {
			t.Fatalf("vertex %d read back with neighbours %v, wrote %v", v, got, adj[off[v]:off[v+1]])
		}
	}
}

// TestWriteMETIS: a triangle with a pendant vertex and an isolated one,
// checked by hand.
func TestWriteMETIS(t *testing.T) {
	// 0–1, 0–2, 1–2, 2–3; vertex 4 alone.
	off := []int{0, 2, 4, 7, 8, 8}
	adj := []int32{1, 2, 0, 2, 0, 1, 3, 2}
	path := filepath.Join(t.TempDir(), "g.metis")
	if err := writeMETIS(path, off, adj); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "5 4\n2 3\n1 3\n1 2 4\n3\n\n"; string(b) != want {
		t.Errorf("wrote %q, want %q", b, want)
	}
}

// TestAlias: draws follow the weights 1:2:3:4 (shares 0.1 … 0.4) within
// 1% over 200,000 draws, and a zero weight is never drawn.
func TestAlias(t *testing.T) {
	a := newAlias([]float64{1, 2, 0, 3, 4})
	rng := rand.New(rand.NewPCG(1, 2))
	var count [5]int
	const draws = 200_000
	for range draws {
		count[a.draw(rng)]++
	}
	want := [5]float64{0.1, 0.2, 0, 0.3, 0.4}
	for i, c := range count {
		if got := float64(c) / draws; math.Abs(got-want[i]) > 0.01 || (want[i] == 0 && c != 0) {
			t.Errorf("index %d drawn %.4f of the time, want %.1f", i, got, want[i])
		}
	}
}

// TestTypicalMedian: the summary leaves out the first and last supersteps
// and takes the middle of the rest.
func TestTypicalMedian(t *testing.T) {
	steps := []time.Duration{900, 30, 10, 20, 40, 1}
	if got := typical(steps); !slices.Equal(got, []time.Duration{30, 10, 20, 40}) {
		t.Errorf("typical %v", got)
	}
	if got := median(typical(steps)); got != 25 {
		t.Errorf("median %v, want 25 (between 20 and 30)", got)
	}
	if got := median(steps[:5]); got != 30 {
		t.Errorf("median of 900 30 10 20 40: %v, want 30", got)
	}
	m := &measured{Steps: steps, Messages: []int64{5, 7, 7, 9, 7, 0}, Bytes: []int64{60, 84, 84, 108, 84, 0}}
	if s := m.summary(); s.Median != 25 || s.Min != 10 || s.Max != 40 || s.Messages != 7 || s.Bytes != 84 {
		t.Errorf("summary %+v", s)
	}
}

// mpiAvailable reports whether the MPI configurations can run; under CI
// their absence fails the test.
func mpiAvailable(t *testing.T) bool {
	t.Helper()
	for _, tool := range []string{"mpirun", "mpicc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing: install openmpi-bin and libopenmpi-dev", tool)
			}
			t.Logf("%s is missing: running the in-process configuration only", tool)
			return false
		}
	}
	return true
}

// TestBench runs the command's core on 1,000 vertices / 5,000 edges, 5
// PageRank iterations, 4 workers: every configuration runs 6 supersteps;
// supersteps 0–4 each carry exactly the arcs whose ends the hash
// partition puts on different workers (counted here from the generated
// graph), the last none; every ordered pair of workers carries the same
// count in every configuration; MPI values equal the in-process ones
// within 1e-12; and the table names every configuration and the target.
func TestBench(t *testing.T) {
	o := options{Vertices: 1000, Edges: 5000, Iterations: 5, Seed: 3, Ranks: 4, Dir: t.TempDir()}
	withMPI := mpiAvailable(t)
	o.InProcessOnly = !withMPI
	rep, err := bench(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"in-process"}
	if withMPI {
		want = append(want, "mpi-shm", "mpi-tcp")
	}
	var names []string
	for _, m := range rep.Runs {
		names = append(names, m.Config.Name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("ran %v, want %v", names, want)
	}

	// The cross-worker arcs, counted from the CSR the generator makes.
	off, adj := chungLu(o.Vertices, o.Edges, o.Seed)
	g, err := datasets.Load(filepath.Join(o.Dir, "graph.metis"))
	if err != nil {
		t.Fatal(err)
	}
	part := partition.Hash(g, o.Ranks)
	var cross int64
	pairs := make([]int64, o.Ranks*o.Ranks)
	for v := 0; v < o.Vertices; v++ {
		for _, u := range adj[off[v]:off[v+1]] {
			pairs[int(part[v])*o.Ranks+int(part[u])]++
			if part[u] != part[v] {
				cross++
			}
		}
	}
	if cross < int64(o.Edges) { // 2m arcs, about 3/4 of them cross
		t.Fatalf("only %d of %d arcs cross workers", cross, 2*o.Edges)
	}
	for _, m := range rep.Runs {
		name := m.Config.Name
		if len(m.Steps) != o.Iterations+1 || len(m.Messages) != o.Iterations+1 {
			t.Fatalf("%s: %d step times, %d message counts, want %d", name, len(m.Steps), len(m.Messages), o.Iterations+1)
		}
		for s, msgs := range m.Messages {
			want := cross
			if s == o.Iterations {
				want = 0
			}
			if msgs != want {
				t.Errorf("%s superstep %d: %d messages between workers, want %d", name, s, msgs, want)
			}
			if (m.Bytes[s] > 0) != (want > 0) {
				t.Errorf("%s superstep %d: %d bytes for %d messages", name, s, m.Bytes[s], msgs)
			}
			if s < o.Iterations && !slices.Equal(m.PairMessages[s], pairs) {
				t.Errorf("%s superstep %d: per-pair messages %v, want %v", name, s, m.PairMessages[s], pairs)
			}
		}
		for s, d := range m.Steps {
			if d <= 0 {
				t.Errorf("%s superstep %d took %v", name, s, d)
			}
		}
		if d := maxRelDiff(m.Values, rep.Runs[0].Values); d > 1e-12 {
			t.Errorf("%s: values differ from in-process by %g relative", name, d)
		}
		if m.Config.MPI && len(m.PeakRSS) != o.Ranks {
			t.Errorf("%s: peak memory of %d ranks, want %d", name, len(m.PeakRSS), o.Ranks)
		}
	}
	var out bytes.Buffer
	if err := rep.print(&out); err != nil {
		t.Fatal(err)
	}
	for _, s := range append(want, "msgs/step", "1000 vertices, 5000 undirected edges = 10000 arcs") {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the table does not mention %q:\n%s", s, out.String())
		}
	}
	if withMPI && !strings.Contains(out.String(), "target ≤ 2×") {
		t.Errorf("the table does not judge the target:\n%s", out.String())
	}
	t.Logf("\n%s", out.String())
}
