package fattree

// Random is a minimal routing that makes every choice at random: for
// each switch and destination, a uniformly random up port while the
// switch is not above the destination, and a uniformly random one of the
// down ports that lead toward it (parallel cables, and the L2 of the
// destination's pod in an L3's bundle) once it is. The choices are a hash
// of (seed, switch, destination): the same seed gives the same routing on
// every run and machine, and nothing is stored. It is a baseline to
// compare D-mod-k against, and a test that load accounting does not
// depend on the routing.
func Random(f *Fabric, seed uint64) Routing { return &random{newShape(f.Spec), seed} }

type random struct {
	shape
	seed uint64
}

// Port is the random output port of switch sw for node d (0 when sw or
// d is out of range).
func (r *random) Port(sw, d int) int {
	s := &r.shape
	if !s.valid(sw, d) {
		return 0
	}
	h := int(mix(r.seed^mix(uint64(sw)<<32|uint64(d))) >> 1)
	switch {
	case sw < s.nl1: // L1
		if sw == d/s.nodesPerL1 {
			return d%s.nodesPerL1 + 1
		}
		return s.nodesPerL1 + 1 + h%s.u1
	case sw < s.nl1+s.nl2: // L2
		if (sw-s.nl1)/s.l2PerPod == d/s.perPod {
			return 1 + d/s.nodesPerL1%s.l1PerPod*s.c1 + h%s.c1
		}
		if s.u2 == 0 {
			return 0
		}
		return s.l2Up + 1 + h%s.u2
	default: // L3
		return 1 + d/s.perPod*s.g*s.c2 + h%(s.g*s.c2)
	}
}

// mix is SplitMix64's finaliser: a bijective hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
