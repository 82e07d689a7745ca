// Package vertex provides compiled vertex programs for the BSP engine
// (sdk/bsp): single-source shortest paths, PageRank, connected components,
// a GILA-like force-directed layout and Louvain community detection (whose
// heartbeat can be profiled like the thesis's Giraph implementation), plus
// the deliberately buggy SSSP of GiViP's second scenario. Each is a
// bsp.Program with the Config it needs.
package vertex

import (
	"math"

	"superstep/sdk/bsp"
)

// SSSP computes shortest-path distances from Source (Pregel's example):
// a vertex whose best distance improves sends distance + edge weight to its
// neighbours; +Inf marks unreachable vertices. Its heartbeat rises and
// falls as the wave front crosses the graph.
type SSSP struct {
	Source int
	// Buggy re-sends a vertex's distance whenever it receives a message,
	// even if the distance did not improve: the answer stays right, the
	// traffic never dies down (GiViP's scenario 2). Run it with a
	// superstep cap.
	Buggy bool
}

// Config is the job configuration SSSP needs (combine with your own):
// every distance starts at +Inf, as in Pregel's example, and a min
// combiner keeps one message per destination.
func (p SSSP) Config(cfg bsp.Config) bsp.Config {
	cfg.InitialValue = math.Inf(1)
	cfg.Combiner = bsp.MinCombiner{}
	if p.Buggy {
		cfg.Combiner = nil // the bug shows in the message counts
	}
	return cfg
}

// Compute implements bsp.Program.
func (p SSSP) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	if c.Superstep() == 0 {
		if v == p.Source {
			c.SetValue(v, 0)
			sendDistances(c, v, 0)
		} else if !math.IsInf(c.Value(v), 1) {
			c.SetValue(v, math.Inf(1)) // run without Config's initial value
		}
		c.VoteToHalt(v)
		return
	}
	best := msgs.Min()
	if best < c.Value(v) {
		c.SetValue(v, best)
		sendDistances(c, v, best)
	} else if p.Buggy && msgs.Len() > 0 {
		sendDistances(c, v, c.Value(v))
	}
	c.VoteToHalt(v)
}

func sendDistances(c *bsp.Context, v int, d float64) {
	g := c.Graph()
	lo, _ := g.ArcRange(v)
	for i, u := range g.Neighbors(v) {
		c.Send(int(u), d+g.Weight(lo+i))
	}
}

// PageRank is Pregel's PageRank: every vertex starts at 1/n and for
// Iterations supersteps takes (1-Damping)/n + Damping·(sum of messages),
// sending rank/outdegree along each out-edge. Mass of vertices without
// out-edges is lost, as in the classic example. Its heartbeat is flat.
type PageRank struct {
	Damping    float64 // 0 means 0.85
	Iterations int     // 0 means 20
}

func (p PageRank) params() (float64, int) {
	d, it := p.Damping, p.Iterations
	if d == 0 {
		d = 0.85
	}
	if it == 0 {
		it = 20
	}
	return d, it
}

// Compute implements bsp.Program.
func (p PageRank) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	d, it := p.params()
	n := float64(c.NumVertices())
	if c.Superstep() == 0 {
		c.SetValue(v, 1/n)
	} else {
		c.SetValue(v, (1-d)/n+d*msgs.Sum())
	}
	if c.Superstep() < it {
		if deg := c.Graph().Degree(v); deg > 0 {
			c.SendToNeighbors(v, c.Value(v)/float64(deg))
		}
		return
	}
	c.VoteToHalt(v)
}

// Components labels each vertex with the smallest vertex index of its
// connected component (HCC: labels flood until nothing changes). Run it on
// an undirected graph; on a directed one it follows edge directions only.
type Components struct{}

// Config is the job configuration Components needs.
func (Components) Config(cfg bsp.Config) bsp.Config {
	cfg.Combiner = bsp.MinCombiner{}
	return cfg
}

// Compute implements bsp.Program.
func (Components) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	if c.Superstep() == 0 {
		c.SetValue(v, float64(v))
		c.SendToNeighbors(v, float64(v))
		c.VoteToHalt(v)
		return
	}
	if m := msgs.Min(); m < c.Value(v) {
		c.SetValue(v, m)
		c.SendToNeighbors(v, m)
	}
	c.VoteToHalt(v)
}
