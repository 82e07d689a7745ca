package mpijob

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"superstep/algo/community"
	"superstep/algo/partition"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

// workLoopback runs spec as n ranks on goroutines and returns each rank's
// error.
func workLoopback(t *testing.T, spec *Spec, n int, hosts []string) []error {
	t.Helper()
	ts := bsp.Loopback(n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[r] = Work(context.Background(), ts[r], hosts[r], spec, nil)
		}()
	}
	wg.Wait()
	return errs
}

// inProcess runs the built-in program as the in-process engine would with
// nw workers and the hash partition.
func inProcess(t *testing.T, graphName string, prog bsp.Program, nw int) *bsp.Result {
	t.Helper()
	g, err := datasets.Open(graphName)
	if err != nil {
		t.Fatal(err)
	}
	cl, _ := cluster.Single(nw)
	cfg := bsp.Config{Cluster: cl, Partition: partition.Hash(g, nw)}
	if c, ok := prog.(interface{ Config(bsp.Config) bsp.Config }); ok {
		cfg = c.Config(cfg)
	}
	res, err := bsp.Run(context.Background(), g, prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestWorkLoopback: four ranks on goroutines run PageRank on 4elt; rank 0
// writes values equal bit for bit to the in-process engine's, a profile
// with the same messages per pair (91,756 a superstep), the hosts as the
// cluster, and result.json.
func TestWorkLoopback(t *testing.T) {
	out := t.TempDir()
	spec := &Spec{Graph: "4elt", Program: "pagerank", Params: map[string]float64{"iterations": 5}, Out: out}
	hosts := []string{"a", "a", "b", "b"}
	for r, err := range workLoopback(t, spec, 4, hosts) {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	res := &Result{}
	if err := readResult(out, res); err != nil {
		t.Fatal(err)
	}
	want := inProcess(t, "4elt", vertex.PageRank{Iterations: 5}, 4)
	if res.Supersteps != want.Supersteps || !res.Halted || res.Vertices != 15606 {
		t.Fatalf("outcome %+v", res.Outcome)
	}
	for i, x := range want.Values {
		if res.Values[i] != x {
			t.Fatalf("value %d: %v, in-process %v", i, res.Values[i], x)
		}
	}
	p := res.Profile
	if got := p.Cluster.Hosts; len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" || p.Cluster.HostOf(2) != 1 {
		t.Errorf("cluster hosts %+v", p.Cluster.Hosts)
	}
	for s, st := range p.Steps {
		var total int64
		for i, m := range st.Messages {
			total += m
			if m != want.Profile.Steps[s].Messages[i] {
				t.Fatalf("superstep %d pair %d: %d messages, in-process %d", s, i, m, want.Profile.Steps[s].Messages[i])
			}
		}
		if s < 5 && total != 91756 {
			t.Errorf("superstep %d: %d messages, want 91,756", s, total)
		}
	}
	pq, err := profile.LoadParquet(filepath.Join(out, ProfileDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(pq.Steps) != len(p.Steps) || pq.Totals().Bytes != p.Totals().Bytes {
		t.Errorf("Parquet profile: %d steps, %d bytes; capture %d, %d", len(pq.Steps), pq.Totals().Bytes, len(p.Steps), p.Totals().Bytes)
	}
}

// TestWorkErrors: a spec or a parameter that cannot work is refused on
// every rank with a message that says what is wrong.
func TestWorkErrors(t *testing.T) {
	out := t.TempDir()
	badPart := filepath.Join(out, "part")
	if err := WritePartition(badPart, []int32{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Graph: "karate", Program: "pagerenk", Out: out}, `no built-in program "pagerenk"`},
		{Spec{Graph: "karate", Program: "pagerank", Params: map[string]float64{"damp": 0.8}, Out: out}, `pagerank has no parameter "damp" (it has damping, iterations)`},
		{Spec{Graph: "karate", Program: "sssp", Params: map[string]float64{"source": 34}, Out: out}, "parameter source is vertex 34, the graph has vertices 0..33"},
		{Spec{Graph: "karate", Program: "pagerank", Params: map[string]float64{"iterations": 2.5}, Out: out}, "parameter iterations is 2.5, want an integer"},
		{Spec{Graph: "no-such.graph", Program: "pagerank", Out: out}, "no-such.graph"},
		{Spec{Graph: "karate", Program: "pagerank", Partition: badPart, Out: out}, "partition part: 12 bytes, want 4 per vertex (136)"},
		{Spec{Graph: "karate", Program: "pagerank", Partitioner: "spinner", Out: out}, `partitioner "spinner"`},
		{Spec{Graph: "karate", Program: "pagerank"}, "no output directory"},
	} {
		errs := workLoopback(t, &c.spec, 2, []string{"h", "h"})
		for r, err := range errs {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: rank %d: %v, want %q", c.spec, r, err, c.want)
			}
		}
	}
}

// TestSpecRoundTrip: a spec saved is the spec loaded; unknown fields are
// refused (a misspelt option must not pass silently).
func TestSpecRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := &Spec{Name: "pr", Graph: "4elt", Program: "pagerank", Params: map[string]float64{"damping": 0.9}, Partitioner: "range", MaxSupersteps: 7, Out: dir}
	path := filepath.Join(dir, SpecFile)
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != s.Name || got.Params["damping"] != 0.9 || got.Partitioner != "range" || got.MaxSupersteps != 7 {
		t.Errorf("loaded %+v", got)
	}
	if err := os.WriteFile(path, []byte(`{"graph":"4elt","program":"pagerank","out":"x","rank":3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSpec(path); err == nil || !strings.Contains(err.Error(), `unknown field "rank"`) {
		t.Errorf("unknown field: %v", err)
	}
}

func TestTotalStrength(t *testing.T) {
	g, _ := datasets.Open("karate")
	if m2 := totalStrength(g); m2 != 156 {
		t.Errorf("karate: 2m = %v, want 156", m2)
	}
}

// writeMETIS writes g (undirected, ids 1..n in index order) as METIS.
func writeMETIS(t *testing.T, g *graph.Graph, path string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d\n", g.NumVertices(), g.NumEdges())
	for v := 0; v < g.NumVertices(); v++ {
		for i, u := range g.Neighbors(v) {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprint(&b, u+1)
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWorkMETISParts: ranks reading a METIS file keep only their own
// vertices' lines (4elt on 4 ranks: each holds its own arcs, about a
// quarter, and together exactly the graph's 91,756), and the job gives the
// values of the in-process engine, PageRank bit for bit and Louvain's
// modularity, whose 2m the ranks add up from their parts.
func TestWorkMETISParts(t *testing.T) {
	g, err := datasets.Open("4elt")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "4elt.graph")
	writeMETIS(t, g, path)
	part := partition.Hash(g, 4)
	total := 0
	for r := 0; r < 4; r++ {
		_, gotPart, mine, err := prepare(&Spec{Graph: path, Program: "pagerank"}, r, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		own := 0
		for v := 0; v < g.NumVertices(); v++ {
			if part[v] == int32(r) {
				own += g.Degree(v)
				if mine.Degree(v) != g.Degree(v) {
					t.Fatalf("rank %d lacks vertex %d's arcs", r, v)
				}
			} else if mine.Degree(v) != 0 || gotPart[v] != part[v] {
				t.Fatalf("rank %d holds arcs of vertex %d, on rank %d", r, v, part[v])
			}
		}
		if mine.NumArcs() != own || own > g.NumArcs()/3 {
			t.Errorf("rank %d holds %d arcs, its own are %d of %d", r, mine.NumArcs(), own, g.NumArcs())
		}
		total += mine.NumArcs()
	}
	if total != g.NumArcs() || total != 91756 {
		t.Errorf("the ranks hold %d arcs, the graph %d", total, g.NumArcs())
	}

	out := t.TempDir()
	spec := &Spec{Graph: path, Program: "pagerank", Params: map[string]float64{"iterations": 5}, Out: out}
	for r, err := range workLoopback(t, spec, 4, []string{"a", "a", "a", "a"}) {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	res := &Result{}
	if err := readResult(out, res); err != nil {
		t.Fatal(err)
	}
	want := inProcess(t, "4elt", vertex.PageRank{Iterations: 5}, 4)
	for i, x := range want.Values {
		if res.Values[i] != x {
			t.Fatalf("value %d: %v, in-process %v", i, res.Values[i], x)
		}
	}

	out = t.TempDir()
	spec = &Spec{Graph: path, Program: "louvain", Params: map[string]float64{"seed": 1}, Out: out}
	for r, err := range workLoopback(t, spec, 4, []string{"a", "a", "a", "a"}) {
		if err != nil {
			t.Fatalf("louvain, rank %d: %v", r, err)
		}
	}
	if err := readResult(out, res); err != nil {
		t.Fatal(err)
	}
	labels := make([]int32, len(res.Values))
	for i, x := range res.Values {
		labels[i] = int32(x)
	}
	lwant := inProcess(t, "4elt", vertex.NewLouvain(g, vertex.LouvainOptions{Seed: 1}), 4)
	wantLabels := make([]int32, len(lwant.Values))
	for i, x := range lwant.Values {
		wantLabels[i] = int32(x)
	}
	if q, qw := community.Modularity(g, labels, 1), community.Modularity(g, wantLabels, 1); math.Abs(q-qw) > 0.001 || q < 0.5 {
		t.Errorf("louvain from METIS parts: modularity %.6f, in process %.6f", q, qw)
	}
}

// TestWorkMETISPartsDisagree: an edge listed by one end only, the ends on
// different ranks, passes each rank's own check; the ranks' sum of arcs
// against the header's edges catches it, on every rank.
func TestWorkMETISPartsDisagree(t *testing.T) {
	// Vertex 1 (index 0) lists 2 (index 1), which does not list 1; the
	// header counts the edge 1-2 and 2-3 (listed from both ends).
	path := filepath.Join(t.TempDir(), "bad.graph")
	if err := os.WriteFile(path, []byte("3 2\n2\n3\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := &Spec{Graph: path, Program: "pagerank", Partitioner: "range", Out: t.TempDir()}
	for r, err := range workLoopback(t, spec, 3, []string{"a", "a", "a"}) {
		if err == nil || !strings.Contains(err.Error(), "the vertex lines list 3 neighbours in all, but the header's 2 edges need 4") {
			t.Errorf("rank %d: %v", r, err)
		}
	}
}
