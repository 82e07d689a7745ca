package vertex_test

import (
	"context"
	"math"
	"testing"

	"superstep/algo/sequential"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

func open(t testing.TB, name string) *graph.Graph {
	t.Helper()
	g, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func run(t testing.TB, g *graph.Graph, prog bsp.Program, cfg bsp.Config) *bsp.Result {
	t.Helper()
	if c, ok := prog.(interface{ Config(bsp.Config) bsp.Config }); ok {
		cfg = c.Config(cfg)
	}
	if cfg.Cluster == nil {
		cl, _ := cluster.New(1, 4, 2)
		cfg.Cluster = cl
	}
	res, err := bsp.Run(context.Background(), g, prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// messagesPerSuperstep sums the profile's pair counts per superstep.
func messagesPerSuperstep(p *profile.Profile) []int64 {
	out := make([]int64, len(p.Steps))
	for i, s := range p.Steps {
		for _, m := range s.Messages {
			out[i] += m
		}
	}
	return out
}

func TestSSSPEqualsDijkstraOnTheMeshes(t *testing.T) {
	for _, name := range []string{"cti", "4elt"} {
		g := open(t, name)
		res := run(t, g, vertex.SSSP{Source: 0}, bsp.Config{})
		want := sequential.Dijkstra(g, 0)
		for v := range want {
			if res.Value(v) != want[v] {
				t.Fatalf("%s: dist(%d) = %v, Dijkstra says %v", name, v, res.Value(v), want[v])
			}
		}
		if !res.Halted {
			t.Fatalf("%s: SSSP did not halt", name)
		}
	}
}

func TestComponentsEqualUnionFind(t *testing.T) {
	for _, name := range []string{"cti", "4elt", "add32"} {
		g := open(t, name)
		res := run(t, g, vertex.Components{}, bsp.Config{})
		want := sequential.Components(g)
		for v := range want {
			if int(res.Value(v)) != want[v] {
				t.Fatalf("%s: component(%d) = %v, union-find says %d", name, v, res.Value(v), want[v])
			}
		}
	}
}

func TestPageRankEqualsPowerIteration(t *testing.T) {
	g := open(t, "gnutella31")
	res := run(t, g, vertex.PageRank{Iterations: 20}, bsp.Config{})
	want := sequential.PageRank(g, 0.85, 20)
	for v := range want {
		if d := math.Abs(res.Value(v) - want[v]); d > 1e-12*math.Max(1, want[v]*float64(g.NumVertices())) {
			t.Fatalf("rank(%d) = %v, power iteration %v", v, res.Value(v), want[v])
		}
	}
}

// The heartbeats of GiViP's first two scenarios, checked on the numbers.
func TestHeartbeatShapes(t *testing.T) {
	g := open(t, "cti")
	sssp := messagesPerSuperstep(run(t, g, vertex.SSSP{Source: 0}, bsp.Config{}).Profile)
	peak := 0
	for i, m := range sssp {
		if m > sssp[peak] {
			peak = i
		}
	}
	n := len(sssp)
	if peak < n/8 || peak > n-n/8 {
		t.Fatalf("SSSP peaks at superstep %d of %d: %v", peak, n, sssp)
	}
	if sssp[0] > sssp[peak]/10 || sssp[n-2] > sssp[peak]/10 {
		t.Fatalf("SSSP does not rise and fall: starts %d, peaks %d, ends %d", sssp[0], sssp[peak], sssp[n-2])
	}

	pr := messagesPerSuperstep(run(t, g, vertex.PageRank{Iterations: 15}, bsp.Config{}).Profile)
	for i := 0; i < 15; i++ {
		if pr[i] != int64(g.NumArcs()) {
			t.Fatalf("PageRank superstep %d sent %d messages, want one per arc (%d)", i, pr[i], g.NumArcs())
		}
	}

	buggy := run(t, g, vertex.SSSP{Source: 0, Buggy: true}, bsp.Config{MaxSupersteps: 3 * n})
	bm := messagesPerSuperstep(buggy.Profile)
	for i := 2 * n; i < 3*n; i++ { // long after the correct SSSP would have stopped
		if float64(bm[i]) < 0.9*float64(g.NumArcs()) {
			t.Fatalf("buggy SSSP's traffic dies down: superstep %d sent %d", i, bm[i])
		}
	}
	want := sequential.Dijkstra(g, 0)
	for v := range want {
		if buggy.Value(v) != want[v] {
			t.Fatal("the buggy SSSP's distances are wrong; the bug should only cost traffic")
		}
	}
}

func TestGILAIsPeriodicAndLaysOutALattice(t *testing.T) {
	const side = 12
	var edges [][2]int
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			if c+1 < side {
				edges = append(edges, [2]int{r*side + c, r*side + c + 1})
			}
			if r+1 < side {
				edges = append(edges, [2]int{r*side + c, (r+1)*side + c})
			}
		}
	}
	g := graph.FromEdges(side*side, false, edges)
	prog := vertex.NewGILA(g.NumVertices(), 2, 30, 1)
	res := run(t, g, prog, bsp.Config{})
	m := messagesPerSuperstep(res.Profile)
	for i := 0; i+3 < len(m); i++ {
		if m[i] != m[i+3] {
			t.Fatalf("GILA traffic is not periodic with period 3: %v", m[:9])
		}
	}
	if m[0] != int64(g.NumArcs()) || m[1] <= m[0] || m[2] != 0 {
		t.Fatalf("one period: %v", m[:3])
	}
	// Edges settle near the ideal length, far shorter than the distance
	// between vertices in general (a local force model may still fold a
	// big grid: GILA's multilevel variant is what unfolds it).
	dist := func(a, b int) float64 {
		return math.Hypot(res.Vector(a)[0]-res.Vector(b)[0], res.Vector(a)[1]-res.Vector(b)[1])
	}
	var edge, pairs float64
	for _, e := range edges {
		edge += dist(e[0], e[1]) / float64(len(edges))
	}
	for v := 0; v < side*side; v++ {
		pairs += dist(v, (v*37+11)%(side*side)) / float64(side*side)
	}
	if edge < 0.5 || edge > 2 || pairs < 1.5*edge {
		t.Fatalf("layout: mean edge length %.2f (ideal 1), mean distance of unrelated pairs %.2f", edge, pairs)
	}
}

func TestSlowHostScenario(t *testing.T) {
	// PageRank on 4elt with host 1 slowed: the slow host stands out in
	// time, not in traffic.
	g := open(t, "4elt")
	// Slowed by 50, checked against 2: both sides are wall clock, and on
	// a loaded machine one worker's compute can take several times
	// another's (sdk/bsp's slow-host test failed so with a factor of 8).
	res := run(t, g, vertex.PageRank{Iterations: 5}, bsp.Config{SlowHosts: map[int]float64{1: 50}})
	a, err := res.Profile.Aggregate(profile.Options{Level: profile.HostLevel, FrameSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	var others float64
	for h := range a.Units {
		if h != 1 {
			others = math.Max(others, a.Compute[h][0])
		}
	}
	if a.Compute[1][0] < 2*others {
		t.Fatalf("slow host computed %.4fs, the slowest other %.4fs", a.Compute[1][0], others)
	}
	mean := 0.0
	for h := range a.Units {
		mean += a.MessagesOut[h][0] / float64(len(a.Units))
	}
	if math.Abs(a.MessagesOut[1][0]-mean) > 0.3*mean {
		t.Fatalf("slow host's traffic %v is not like the others' (mean %v)", a.MessagesOut[1][0], mean)
	}
}
