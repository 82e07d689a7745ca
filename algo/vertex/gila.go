package vertex

import (
	"math"

	"superstep/sdk/bsp"
)

// GILA is a force-directed layout in the style of GILA (Arleo et al.):
// in every period of Hops+1 supersteps each vertex floods its position to
// the vertices within Hops hops; at the end of the period it moves, pushed
// away from every vertex it heard of and pulled towards its neighbours. The
// heartbeat is periodic: each period's traffic swells with the flood and
// ends.
//
// Values are (x, y); messages are (id, x, y, hops left). The program keeps
// per-vertex state between supersteps: make it with NewGILA, one per job.
type GILA struct {
	Hops    int     // flooding distance (at least 1)
	Periods int     // number of layout rounds
	Seed    uint64  // initial positions
	Length  float64 // ideal edge length

	heard [][]float64 // per vertex: (x, y) of every vertex heard this period
	near  [][]float64 // per vertex: (x, y) of its neighbours, heard in the first hop
	seen  []map[int32]bool
}

// NewGILA returns a GILA program for a graph of n vertices (hops and
// periods below 1 mean 2 and 10).
func NewGILA(n, hops, periods int, seed uint64) *GILA {
	if hops < 1 {
		hops = 2
	}
	if periods < 1 {
		periods = 10
	}
	return &GILA{Hops: hops, Periods: periods, Seed: seed, Length: 1,
		heard: make([][]float64, n), near: make([][]float64, n), seen: make([]map[int32]bool, n)}
}

// Config is the job configuration GILA needs: widths 2 and 4, and unless
// cfg caps the job already, Periods·(Hops+1) supersteps.
func (p *GILA) Config(cfg bsp.Config) bsp.Config {
	cfg.ValueWidth = 2
	cfg.MessageWidth = 4
	if cfg.MaxSupersteps == 0 {
		cfg.MaxSupersteps = p.Periods * (p.Hops + 1)
	}
	return cfg
}

// position is a deterministic starting point for vertex v in [0,10)².
func (p *GILA) position(v int) (float64, float64) {
	x := uint64(v)*0x9e3779b97f4a7c15 ^ p.Seed
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	a := float64(x>>11) / (1 << 53)
	x *= 0x94d049bb133111eb
	x ^= x >> 32
	b := float64(x>>11) / (1 << 53)
	return a * 10, b * 10
}

// Compute implements bsp.Program.
func (p *GILA) Compute(c *bsp.Context, v int, msgs bsp.Messages) {
	period := p.Hops + 1
	step := c.Superstep()
	phase := step % period
	pos := c.Vector(v)
	if step == 0 {
		pos[0], pos[1] = p.position(v)
		p.seen[v] = map[int32]bool{}
	}
	for i := 0; i < msgs.Len(); i++ {
		m := msgs.At(i)
		id := int32(m[0])
		if int(id) == v || p.seen[v][id] {
			continue
		}
		p.seen[v][id] = true
		p.heard[v] = append(p.heard[v], m[1], m[2])
		if int(m[3]) == p.Hops-1 {
			p.near[v] = append(p.near[v], m[1], m[2])
		}
		if m[3] > 0 {
			c.SendToNeighbors(v, m[0], m[1], m[2], m[3]-1)
		}
	}
	if phase == 0 {
		c.SendToNeighbors(v, float64(v), pos[0], pos[1], float64(p.Hops-1))
	}
	if phase == p.Hops {
		p.move(v, pos, step/period)
		p.heard[v], p.near[v] = p.heard[v][:0], p.near[v][:0]
		clear(p.seen[v])
		if step/period+1 >= p.Periods {
			c.VoteToHalt(v)
		}
	}
}

// move applies the period's forces (Fruchterman–Reingold): repulsion L²/d
// from every heard vertex, attraction d²/L towards each neighbour, the step
// limited by a temperature that cools each period.
func (p *GILA) move(v int, pos []float64, period int) {
	L := p.Length
	var fx, fy float64
	h := p.heard[v]
	for i := 0; i+1 < len(h); i += 2 {
		dx, dy := pos[0]-h[i], pos[1]-h[i+1]
		d2 := dx*dx + dy*dy + 1e-9
		fx += dx * L * L / d2
		fy += dy * L * L / d2
	}
	nb := p.near[v]
	for i := 0; i+1 < len(nb); i += 2 {
		dx, dy := nb[i]-pos[0], nb[i+1]-pos[1]
		d := math.Sqrt(dx*dx + dy*dy)
		fx += dx * d / L
		fy += dy * d / L
	}
	temp := 2.0 * math.Pow(0.85, float64(period))
	if norm := math.Hypot(fx, fy); norm > temp {
		fx, fy = fx/norm*temp, fy/norm*temp
	}
	pos[0] += fx
	pos[1] += fy
}
