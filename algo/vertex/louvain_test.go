package vertex_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"superstep/algo/community"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/topology/cluster"
)

func plantedGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g, _, err := datasets.Planted(datasets.PlantedOptions{N: 5000, AvgDegree: 15, MaxDegree: 100, Mixing: 0.2, MinCommunity: 20, MaxCommunity: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func eightWorkers(t testing.TB) bsp.Config {
	cl, err := cluster.New(1, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	return bsp.Config{Cluster: cl}
}

func louvainBSP(t testing.TB, g *graph.Graph, cfg bsp.Config, opts vertex.LouvainOptions) ([]int32, []*bsp.Result) {
	t.Helper()
	m, jobs, err := vertex.LouvainBSP(context.Background(), g, cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != g.NumVertices() {
		t.Fatalf("%d labels for %d vertices", len(m), g.NumVertices())
	}
	return m, jobs
}

// The criterion: the vertex-program Louvain reaches modularity
// within 0.01 of the compiled one.
func TestLouvainBSPReachesTheCompiledModularity(t *testing.T) {
	graphs := []struct {
		name string
		g    *graph.Graph
	}{{"karate", open(t, "karate")}, {"lesmis", open(t, "lesmis")}, {"planted", plantedGraph(t)}}
	for _, tc := range graphs {
		start := time.Now()
		ref := compiledLouvain(t, tc.g)
		compiledTime := time.Since(start)
		want := community.Modularity(tc.g, ref.Membership, 1)
		for _, seed := range []uint64{1, 2} {
			start = time.Now()
			m, jobs := louvainBSP(t, tc.g, eightWorkers(t), vertex.LouvainOptions{Seed: seed})
			took := time.Since(start)
			got := community.Modularity(tc.g, m, 1)
			// Supersteps per job, the trials (if several) apart.
			steps, total := "", 0
			for _, j := range jobs {
				name := strings.TrimPrefix(j.Profile.Job, "louvain/")
				if strings.HasPrefix(name, "trial-") && strings.HasSuffix(name, "/level-0") {
					steps += " |"
				}
				steps += fmt.Sprintf(" %s:%d", name[strings.LastIndex(name, "/")+1:], j.Supersteps)
				total += j.Supersteps
			}
			t.Logf("%s seed %d: compiled Q=%.4f (%v); BSP Q=%.4f (%v, %d jobs, %d supersteps:%s)",
				tc.name, seed, want, compiledTime.Round(time.Microsecond), got, took.Round(time.Microsecond), len(jobs), total, steps)
			if got < want-0.01 {
				t.Errorf("%s seed %d: BSP Louvain Q=%.4f, compiled %.4f", tc.name, seed, got, want)
			}
		}
	}
}

// The same seed gives the same communities on any number of workers, and
// again on a second run; with non-integral weights too (sorted sums).
func TestLouvainBSPIsDeterministic(t *testing.T) {
	lm := open(t, "lesmis")
	b := graph.NewBuilder(false)
	for u := 0; u < lm.NumVertices(); u++ {
		ws := lm.EdgeWeights(u)
		for i, v := range lm.Neighbors(u) {
			if int(v) > u {
				b.AddWeightedEdge(int64(u), int64(v), ws[i]*0.37+0.01*float64(u%7))
			}
		}
	}
	fractional := b.Build()
	one, _ := cluster.Single(1)
	three, _ := cluster.Single(3)
	clusters := []bsp.Config{{Cluster: one}, {Cluster: three}, eightWorkers(t), {Cluster: three, Parallelism: 1}}
	for _, tc := range []struct {
		name string
		g    *graph.Graph
	}{{"planted", plantedGraph(t)}, {"lesmis×0.37", fractional}} {
		first, jobs := louvainBSP(t, tc.g, clusters[0], vertex.LouvainOptions{Seed: 7, Trials: 1})
		for i, cfg := range append(clusters, clusters[2]) {
			m, js := louvainBSP(t, tc.g, cfg, vertex.LouvainOptions{Seed: 7, Trials: 1})
			if !slices.Equal(m, first) {
				t.Fatalf("%s: configuration %d (%d workers) gives other communities than 1 worker", tc.name, i, cfg.Cluster.NumWorkers())
			}
			if len(js) != len(jobs) {
				t.Fatalf("%s: configuration %d ran %d jobs, 1 worker %d", tc.name, i, len(js), len(jobs))
			}
			for j := range js {
				if js[j].Supersteps != jobs[j].Supersteps {
					t.Fatalf("%s: configuration %d: job %d ran %d supersteps, on 1 worker %d", tc.name, i, j, js[j].Supersteps, jobs[j].Supersteps)
				}
			}
		}
		other, _ := louvainBSP(t, tc.g, clusters[0], vertex.LouvainOptions{Seed: 8, Trials: 1})
		t.Logf("%s: seed 7 Q=%.4f, seed 8 Q=%.4f (same partition: %v)", tc.name,
			community.Modularity(tc.g, first, 1), community.Modularity(tc.g, other, 1), slices.Equal(first, other))
	}
}

// The heartbeat: every local-moving superstep sends messages — one per
// vertex to its representative, one back, one per arc — and only the
// last, which decides to stop, is silent.
func TestLouvainHeartbeat(t *testing.T) {
	g := open(t, "karate")
	_, jobs := louvainBSP(t, g, eightWorkers(t), vertex.LouvainOptions{Seed: 1, Trials: 1})
	if len(jobs) < 3 || jobs[0].Profile.Job != "louvain/level-0" {
		t.Fatalf("%d jobs, the first %q", len(jobs), jobs[0].Profile.Job)
	}
	for _, j := range jobs {
		m := messagesPerSuperstep(j.Profile)
		if !j.Halted || len(m) != j.Supersteps || j.Supersteps%3 != 2 || j.Supersteps < 5 {
			t.Fatalf("%s: halted %v after %d supersteps (%d profiled), want 3·rounds+2", j.Profile.Job, j.Halted, j.Supersteps, len(m))
		}
		for i, x := range m[:len(m)-1] {
			if x == 0 {
				t.Fatalf("%s: superstep %d sent no messages: %v", j.Profile.Job, i, m)
			}
		}
		if m[len(m)-1] != 0 {
			t.Fatalf("%s: the last superstep sent %d messages", j.Profile.Job, m[len(m)-1])
		}
	}
	// On the input graph the counts are exact: n, n, arcs, n, n, arcs, …
	m := messagesPerSuperstep(jobs[0].Profile)
	n, arcs := int64(g.NumVertices()), int64(g.NumArcs())
	for i, x := range m[:len(m)-1] {
		want := [3]int64{n, n, arcs}[i%3]
		if x != want {
			t.Fatalf("level 0, superstep %d: %d messages, want %d: %v", i, x, want, m)
		}
	}
	// Bytes as on a wire: a destination id and four numbers.
	var msgs, bytes int64
	for _, s := range jobs[0].Profile.Steps {
		for i := range s.Messages {
			msgs += s.Messages[i]
			bytes += s.Bytes[i]
		}
	}
	if bytes != 36*msgs {
		t.Fatalf("%d bytes for %d messages", bytes, msgs)
	}
}

// NewLouvain is a program of its own: one level of local moving, which
// never ends below where it started.
func TestLouvainProgram(t *testing.T) {
	g := open(t, "karate")
	prog := vertex.NewLouvain(g, vertex.LouvainOptions{Seed: 1})
	res := run(t, g, prog, bsp.Config{})
	m := prog.Membership()
	q := community.Modularity(g, m, 1)
	if q < 0.35 || prog.Modularity() != q || prog.Rounds() < 2 || res.Supersteps != 3*prog.Rounds()+2 {
		t.Fatalf("one level: Q=%.4f (program says %.4f) after %d rounds, %d supersteps", q, prog.Modularity(), prog.Rounds(), res.Supersteps)
	}
	// The vertex values are the communities (representatives' indices).
	for u := 0; u < g.NumVertices(); u++ {
		for v := 0; v < g.NumVertices(); v++ {
			if (res.Value(u) == res.Value(v)) != (m[u] == m[v]) {
				t.Fatalf("values and Membership disagree on %d and %d", u, v)
			}
		}
	}
	// Started from the optimum, it stays there.
	ref := compiledLouvain(t, g)
	prog = vertex.NewLouvain(g, vertex.LouvainOptions{Seed: 1, Initial: ref.Membership})
	run(t, g, prog, bsp.Config{})
	if got := prog.Modularity(); got < ref.Modularity-1e-12 {
		t.Fatalf("from the compiled partition (Q=%.4f) local moving ends at %.4f", ref.Modularity, got)
	}
}

// Directed graphs count as undirected, as in community.Modularity;
// self-loops and graphs without edges are handled.
func TestLouvainBSPOddGraphs(t *testing.T) {
	k := open(t, "karate")
	var edges [][2]int
	for u := 0; u < k.NumVertices(); u++ {
		for _, v := range k.Neighbors(u) {
			if int(v) > u {
				edges = append(edges, [2]int{u, int(v)})
			}
		}
	}
	loops := append(slices.Clone(edges), [2]int{0, 0}, [2]int{33, 33}, [2]int{5, 5})
	for _, tc := range []struct {
		name string
		g    *graph.Graph
	}{{"directed karate", graph.FromEdges(k.NumVertices(), true, edges)}, {"karate with self-loops", graph.FromEdges(k.NumVertices(), false, loops)}} {
		m, _ := louvainBSP(t, tc.g, bsp.Config{}, vertex.LouvainOptions{Seed: 1})
		got := community.Modularity(tc.g, m, 1)
		want := compiledLouvain(t, tc.g).Modularity
		if got < want-0.01 {
			t.Errorf("%s: BSP Q=%.4f, compiled %.4f", tc.name, got, want)
		}
	}
	empty := graph.FromEdges(5, false, nil)
	m, jobs := louvainBSP(t, empty, bsp.Config{}, vertex.LouvainOptions{})
	if !slices.Equal(m, []int32{0, 1, 2, 3, 4}) || len(jobs) == 0 {
		t.Fatalf("graph without edges: %v after %d jobs", m, len(jobs))
	}
}

func TestLouvainBSPErrors(t *testing.T) {
	b := graph.NewBuilder(false)
	b.AddWeightedEdge(0, 1, -1)
	if _, _, err := vertex.LouvainBSP(context.Background(), b.Build(), bsp.Config{}, vertex.LouvainOptions{}); err == nil {
		t.Fatal("a negative weight is accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := open(t, "karate")
	m, _, err := vertex.LouvainBSP(ctx, g, bsp.Config{}, vertex.LouvainOptions{})
	if !errors.Is(err, context.Canceled) || len(m) != g.NumVertices() {
		t.Fatalf("cancelled: %v, %d labels", err, len(m))
	}
}

// compiledLouvain is community.Louvain with seed 1, the reference.
func compiledLouvain(t *testing.T, g *graph.Graph) community.Result {
	t.Helper()
	r, err := community.Louvain(context.Background(), g, community.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
