package mpijob

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"superstep/algo/vertex"
	"superstep/sdk/bsp"
	"superstep/sdk/graph"
)

// builtin is a vertex program the worker knows by name: its parameters
// and how to make it for a rank (g has every vertex but only the rank's
// own arcs).
type builtin struct {
	params []string
	make   func(p params, g *graph.Graph) (bsp.Program, error)
}

var builtins = map[string]builtin{
	"pagerank": {[]string{"damping", "iterations"}, func(p params, _ *graph.Graph) (bsp.Program, error) {
		return vertex.PageRank{Damping: p.float("damping"), Iterations: p.int("iterations")}, p.err
	}},
	"sssp": {[]string{"source"}, func(p params, g *graph.Graph) (bsp.Program, error) {
		return vertex.SSSP{Source: p.vertex("source", g)}, p.err
	}},
	"buggy-sssp": {[]string{"source"}, func(p params, g *graph.Graph) (bsp.Program, error) {
		return vertex.SSSP{Source: p.vertex("source", g), Buggy: true}, p.err
	}},
	"components": {nil, func(p params, _ *graph.Graph) (bsp.Program, error) {
		return vertex.Components{}, p.err
	}},
	"louvain": {[]string{"seed", "resolution", "move_probability", "max_rounds", "patience", "min_gain"}, func(p params, g *graph.Graph) (bsp.Program, error) {
		opts := vertex.LouvainOptions{Seed: uint64(p.int("seed")), Resolution: p.float("resolution"), MoveProbability: p.float("move_probability"),
			MaxRounds: p.int("max_rounds"), Patience: p.int("patience"), MinGain: p.float("min_gain")}
		if p.err != nil {
			return nil, p.err
		}
		if g.Directed() {
			return nil, fmt.Errorf("louvain needs an undirected graph")
		}
		return louvainOnRank{opts}, nil // made once the ranks know 2m
	}},
	"gila": {[]string{"hops", "periods", "seed"}, func(p params, g *graph.Graph) (bsp.Program, error) {
		return vertex.NewGILA(g.NumVertices(), p.int("hops"), p.int("periods"), uint64(p.int("seed"))), p.err
	}},
}

// louvainOnRank defers NewLouvain until the ranks have added up the
// whole graph's 2m from their parts.
type louvainOnRank struct{ opts vertex.LouvainOptions }

func (l louvainOnRank) Compute(*bsp.Context, int, bsp.Messages) {
	panic("mpijob: louvainOnRank is made into vertex.Louvain before the job starts")
}

// Programs lists the built-in programs a Spec may name, sorted:
//
//   - "pagerank": vertex.PageRank; params damping (0.85), iterations (20);
//   - "sssp": vertex.SSSP; params source (a vertex index, 0);
//   - "buggy-sssp": the same with Buggy set (GiViP's scenario 2);
//   - "components": vertex.Components;
//   - "louvain": vertex.Louvain's local moving; params seed, resolution
//     (1), move_probability (0.8), max_rounds (100), patience (3),
//     min_gain (1e-4);
//   - "gila": vertex.GILA; params hops (2), periods (10), seed.
//
// A parameter left out takes the program's default.
func Programs() []string {
	var names []string
	for name := range builtins {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// makeProgram makes the named program for g (the whole graph).
func makeProgram(name string, ps map[string]float64, g *graph.Graph) (bsp.Program, error) {
	b, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("no built-in program %q; there are %s", name, strings.Join(Programs(), ", "))
	}
	for k := range ps {
		if !contains(b.params, k) {
			if len(b.params) == 0 {
				return nil, fmt.Errorf("%s takes no parameter, got %q", name, k)
			}
			return nil, fmt.Errorf("%s has no parameter %q (it has %s)", name, k, strings.Join(b.params, ", "))
		}
	}
	prog, err := b.make(params{values: ps}, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return prog, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// params reads a program's parameters, remembering the first bad one.
type params struct {
	values map[string]float64
	err    error
}

func (p *params) float(name string) float64 {
	x := p.values[name]
	if math.IsNaN(x) || math.IsInf(x, 0) {
		p.fail(fmt.Errorf("parameter %s is %v, want a finite number", name, x))
	}
	return x
}

func (p *params) int(name string) int {
	x := p.float(name)
	if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		p.fail(fmt.Errorf("parameter %s is %v, want an integer", name, x))
		return 0
	}
	return int(x)
}

func (p *params) vertex(name string, g *graph.Graph) int {
	v := p.int(name)
	if v < 0 || v >= g.NumVertices() {
		p.fail(fmt.Errorf("parameter %s is vertex %d, the graph has vertices 0..%d", name, v, g.NumVertices()-1))
	}
	return v
}

func (p *params) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// totalStrength is the weight of g's arcs, a self-loop's twice (as
// vertex.Louvain counts it): 2m for a whole graph.
func totalStrength(g *graph.Graph) float64 {
	m2 := 0.0
	for u := 0; u < g.NumVertices(); u++ {
		lo, _ := g.ArcRange(u)
		for i, v := range g.Neighbors(u) {
			w := g.Weight(lo + i)
			m2 += w
			if int(v) == u {
				m2 += w
			}
		}
	}
	return m2
}
