package fattree

// DModK is D-mod-k routing (Zahavi 2010; what OpenSM's ftree routing
// computes on a regular fat-tree), computed from f's Spec on every call:
// no tables, so it costs no memory however large the tree.
//
// Up. A switch that is not above destination d sends d's traffic up
// through up port number j of its up ports (counted from 0 in port order,
// that is by the index of the switch above, then by parallel cable):
//
//	L1: j = d mod u1,         u1 = L2PerPod·CablesL1L2
//	L2: j = ⌊d / u1⌋ mod u2,  u2 = L3PerBundle·CablesL2L3
//
// so an L1 picks L2 ⌊j/CablesL1L2⌋ of its pod on cable j mod CablesL1L2,
// and an L2 picks L3 ⌊j/CablesL2L3⌋ of its bundle. Every source sends d's
// traffic to the same L2 index in its pod and, from there, to the same L3.
//
// Down. Traffic for d descends along the reverse of d's own up route: an
// L3 sends it to the L2 of d's pod that d's L1 goes up to (index
// ⌊(d mod u1)/CablesL1L2⌋, taken modulo the L2PerPod/Bundles L2 of the
// L3's bundle for an L3 that d's traffic never reaches), on the cable d's
// L2 would take up (⌊d / u1⌋ mod u2 mod CablesL2L3); an L2 sends it to d's
// L1 on cable d mod CablesL1L2 (the cable d's L1 would take up); d's L1
// delivers it. So all traffic to d comes down one path from one L3, and in
// a k-ary tree the loads of an all-to-all are equal on every link of a
// kind.
func DModK(f *Fabric) Routing { return &dModK{newShape(f.Spec)} }

type dModK struct{ shape }

// Port is the D-mod-k output port of switch sw for node d (0 when sw or
// d is out of range).
func (r *dModK) Port(sw, d int) int {
	s := &r.shape
	if !s.valid(sw, d) {
		return 0
	}
	j1 := d % s.u1
	switch {
	case sw < s.nl1: // L1
		if sw == d/s.nodesPerL1 {
			return d%s.nodesPerL1 + 1
		}
		return s.nodesPerL1 + 1 + j1
	case sw < s.nl1+s.nl2: // L2
		if (sw-s.nl1)/s.l2PerPod == d/s.perPod {
			return 1 + d/s.nodesPerL1%s.l1PerPod*s.c1 + j1%s.c1
		}
		if s.u2 == 0 {
			return 0 // a two-level tree has a single pod
		}
		return s.l2Up + 1 + d/s.u1%s.u2
	default: // L3
		j2 := d / s.u1 % s.u2
		gi := j1 / s.c1 % s.g
		return 1 + (d/s.perPod*s.g+gi)*s.c2 + j2%s.c2
	}
}
