package torus

import (
	"errors"
	"fmt"
	"strings"
)

// Torus is an n-dimensional torus (or mesh, per dimension) of
// ∏ extents nodes. It is immutable once built and safe for concurrent use.
type Torus struct {
	names   []string
	extents []int
	mesh    []bool
	strides []int
	nodes   int
	// k2 is the number of directed channels a node has towards its single
	// neighbour in a wrapped dimension of extent 2 (1 or 2).
	k2 int
	// slotID maps a channel slot (node·2n + 2·dim + sign) to its dense id,
	// -1 where the slot holds no channel.
	slotID []int32
	// slots lists the slot of every channel, by id.
	slots []int32
}

// Option changes how New builds a torus.
type Option func(*config) error

type config struct {
	mesh []string
	k2   int
}

// Mesh makes the named dimensions meshes: no wrap-around link joins
// coordinate K−1 to 0 there, and distances along them are |Δ|.
func Mesh(dims ...string) Option {
	return func(c *config) error {
		c.mesh = append(c.mesh, dims...)
		return nil
	}
}

// Extent2Channels sets how many directed channels a node has towards its
// neighbour in a wrapped dimension of extent 2: 2 (the default: a "+" and
// a "−" channel to the same neighbour, as Blue Gene/Q's E dimension has)
// or 1 (only "+", as some counter files list).
func Extent2Channels(n int) Option {
	return func(c *config) error {
		if n != 1 && n != 2 {
			return fmt.Errorf("torus: Extent2Channels(%d): want 1 or 2", n)
		}
		c.k2 = n
		return nil
	}
}

// New builds a torus with one dimension per name, of the given extents
// (any extent ≥ 1; an extent-1 dimension has no channel). Node ids put
// the first coordinate fastest: id = x₀ + K₀·(x₁ + K₁·(x₂ + …)), as
// Boxfish numbers Blue Gene nodes (x + 8y + 64z on 8×8×8).
func New(names []string, extents []int, opts ...Option) (*Torus, error) {
	if len(extents) == 0 {
		return nil, errors.New("torus: no dimension")
	}
	if len(names) != len(extents) {
		return nil, fmt.Errorf("torus: %d names for %d extents", len(names), len(extents))
	}
	c := config{k2: 2}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	t := &Torus{
		names:   append([]string(nil), names...),
		extents: append([]int(nil), extents...),
		mesh:    make([]bool, len(extents)),
		strides: make([]int, len(extents)),
		k2:      c.k2,
	}
	seen := map[string]bool{}
	n := 1
	for d, k := range extents {
		name := names[d]
		if name == "" {
			return nil, fmt.Errorf("torus: dimension %d has no name", d)
		}
		if strings.Contains(name, ",") {
			return nil, fmt.Errorf("torus: dimension name %q has a comma (table metadata lists names comma-separated)", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("torus: dimension name %q appears twice", name)
		}
		seen[name] = true
		if k < 1 {
			return nil, fmt.Errorf("torus: dimension %s has extent %d, want ≥ 1", name, k)
		}
		t.strides[d] = n
		if n > (1<<31-1)/k {
			return nil, fmt.Errorf("torus: %s has more than 2³¹−1 nodes", shape(extents))
		}
		n *= k
	}
	t.nodes = n
	for _, m := range c.mesh {
		d := t.Dim(m)
		if d < 0 {
			return nil, fmt.Errorf("torus: Mesh(%q): no such dimension (have %s)", m, strings.Join(names, ", "))
		}
		t.mesh[d] = true
	}
	if n > (1<<31-1)/(2*len(extents)) {
		return nil, fmt.Errorf("torus: %s has too many channel slots", shape(extents))
	}
	t.slotID = make([]int32, n*2*len(extents))
	coord := make([]int, len(extents))
	for v := 0; v < n; v++ {
		for d := range extents {
			for s := 0; s < 2; s++ {
				slot := (v*len(extents)+d)*2 + s
				if t.hasChannel(coord, d, s) {
					t.slotID[slot] = int32(len(t.slots))
					t.slots = append(t.slots, int32(slot))
				} else {
					t.slotID[slot] = -1
				}
			}
		}
		t.next(coord)
	}
	return t, nil
}

// next advances coord to the following node id (first coordinate fastest).
func (t *Torus) next(coord []int) {
	for d := range coord {
		coord[d]++
		if coord[d] < t.extents[d] {
			return
		}
		coord[d] = 0
	}
}

// hasChannel says whether the node at coord has a channel in dimension d,
// direction s (0 = +, 1 = −).
func (t *Torus) hasChannel(coord []int, d, s int) bool {
	k := t.extents[d]
	switch {
	case k == 1:
		return false
	case t.mesh[d]:
		if s == 0 {
			return coord[d] < k-1
		}
		return coord[d] > 0
	case k == 2:
		return s == 0 || t.k2 == 2
	}
	return true
}

func shape(extents []int) string {
	parts := make([]string, len(extents))
	for i, k := range extents {
		parts[i] = fmt.Sprint(k)
	}
	return strings.Join(parts, "×")
}

// String is the torus's shape, such as "torus 8×8×8 (x, y, z)".
func (t *Torus) String() string {
	s := "torus " + shape(t.extents) + " (" + strings.Join(t.names, ", ") + ")"
	var m []string
	for d, ok := range t.mesh {
		if ok {
			m = append(m, t.names[d])
		}
	}
	if len(m) > 0 {
		s += ", mesh in " + strings.Join(m, ", ")
	}
	return s
}

// Dims is the number of dimensions.
func (t *Torus) Dims() int { return len(t.extents) }

// Names returns the dimension names (a copy).
func (t *Torus) Names() []string { return append([]string(nil), t.names...) }

// Extents returns the extents (a copy).
func (t *Torus) Extents() []int { return append([]int(nil), t.extents...) }

// Extent is the extent of dimension d.
func (t *Torus) Extent(d int) int { return t.extents[d] }

// IsMesh says whether dimension d has no wrap-around link.
func (t *Torus) IsMesh(d int) bool { return t.mesh[d] }

// Extent2 is the number of directed channels (1 or 2) a node has towards
// its neighbour in a wrapped dimension of extent 2, as Extent2Channels set
// it (2 unless told).
func (t *Torus) Extent2() int { return t.k2 }

// Dim returns the index of the named dimension, or −1.
func (t *Torus) Dim(name string) int {
	for d, n := range t.names {
		if n == name {
			return d
		}
	}
	return -1
}

// Nodes is the number of nodes, ∏ extents.
func (t *Torus) Nodes() int { return t.nodes }

// Coord returns the coordinates of node v (0 ≤ v < Nodes()).
func (t *Torus) Coord(v int) []int {
	c := make([]int, len(t.extents))
	t.CoordInto(v, c)
	return c
}

// CoordInto writes the coordinates of node v into c (len(c) = Dims()),
// allocating nothing.
func (t *Torus) CoordInto(v int, c []int) {
	for d, k := range t.extents {
		c[d] = v % k
		v /= k
	}
}

// ID returns the node at coordinates c, or an error naming the coordinate
// out of range.
func (t *Torus) ID(c []int) (int, error) {
	if len(c) != len(t.extents) {
		return 0, fmt.Errorf("torus: %d coordinates for %d dimensions", len(c), len(t.extents))
	}
	v := 0
	for d, x := range c {
		if x < 0 || x >= t.extents[d] {
			return 0, fmt.Errorf("torus: %s = %d is outside 0..%d", t.names[d], x, t.extents[d]-1)
		}
		v += x * t.strides[d]
	}
	return v, nil
}

// Stride is the difference in node id between neighbours along
// dimension d: ∏ of the extents before d.
func (t *Torus) Stride(d int) int { return t.strides[d] }

// Step returns the node one step from v along dimension d in direction
// dir (+1 or −1), wrapping around, and false in a mesh dimension at its
// edge or in an extent-1 dimension.
func (t *Torus) Step(v, d, dir int) (int, bool) {
	k := t.extents[d]
	if k == 1 {
		return v, false
	}
	x := v / t.strides[d] % k
	y := x + dir
	if y < 0 || y >= k {
		if t.mesh[d] {
			return v, false
		}
		y = (y + k) % k
	}
	return v + (y-x)*t.strides[d], true
}

// DimDist is the distance between coordinates a and b along dimension
// d: min(|a−b|, K−|a−b|), or |a−b| in a mesh dimension.
func (t *Torus) DimDist(d, a, b int) int {
	x := a - b
	if x < 0 {
		x = -x
	}
	if !t.mesh[d] && t.extents[d]-x < x {
		x = t.extents[d] - x
	}
	return x
}

// Dist is the hop distance between nodes u and v, the sum over
// dimensions of DimDist (eq. 3 of Cheng et al. 2018).
func (t *Torus) Dist(u, v int) int {
	s := 0
	for d, k := range t.extents {
		s += t.DimDist(d, u%k, v%k)
		u /= k
		v /= k
	}
	return s
}

// Diameter is the largest distance between two nodes: Σ ⌊K/2⌋ over
// wrapped dimensions plus Σ (K−1) over mesh dimensions.
func (t *Torus) Diameter() int {
	s := 0
	for d, k := range t.extents {
		if t.mesh[d] {
			s += k - 1
		} else {
			s += k / 2
		}
	}
	return s
}

// Neighbours returns the distinct nodes one hop from v, by dimension and
// then + before −.
func (t *Torus) Neighbours(v int) []int {
	var out []int
	for d := range t.extents {
		for _, dir := range [2]int{+1, -1} {
			w, ok := t.Step(v, d, dir)
			if !ok || w == v {
				continue
			}
			dup := false
			for _, x := range out {
				dup = dup || x == w
			}
			if !dup {
				out = append(out, w)
			}
		}
	}
	return out
}
