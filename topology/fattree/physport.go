package fattree

import "slices"

// physPorts maps the Fabric's port numbers (Build's regular numbering) to
// the port numbers of the real devices, for fabrics that Infer found with
// cables on other ports or missing. A nil *physPorts is the identity: every
// port and host cabled at its regular number.
type physPorts struct {
	toPhys  [][]uint8 // per switch, indexed by model port: physical port (0: not cabled)
	toModel [][]uint8 // per switch, indexed by physical port: model port (0: unknown)
	hca     []uint8   // per node: the HCA port cabled (0: the node is missing)
}

// PhysicalPort is the number that switch sw's real device uses for the
// Fabric's port p, or 0 when that port has no discovered cable. For a
// Fabric made by Build it is p. Readers of per-port data (counters, routing
// tables) use ModelPort for the inverse.
func (f *Fabric) PhysicalPort(sw, p int) int {
	if sw < 0 || sw >= len(f.Switches) || p < 1 || p > len(f.Switches[sw].Ports) {
		return 0
	}
	if f.phys == nil {
		return p
	}
	return int(f.phys.toPhys[sw][p])
}

// ModelPort is the Fabric's port of switch sw that the real device calls
// physical, or 0 when no discovered cable of sw uses that port (the port
// is free, or its cable was ignored as irregular). For a Fabric made by
// Build it is physical when that port exists.
func (f *Fabric) ModelPort(sw, physical int) int {
	if sw < 0 || sw >= len(f.Switches) || physical < 1 {
		return 0
	}
	if f.phys == nil {
		if physical > len(f.Switches[sw].Ports) {
			return 0
		}
		return physical
	}
	m := f.phys.toModel[sw]
	if physical >= len(m) {
		return 0
	}
	return int(m[physical])
}

// NodeHCAPort is the port of node n's adapter that is cabled to its L1
// switch (the Fabric's port 1 of the node), or 0 when the node was not
// discovered. For a Fabric made by Build it is 1.
func (f *Fabric) NodeHCAPort(n int) int {
	if n < 0 || n >= len(f.Nodes) {
		return 0
	}
	if f.phys == nil {
		return 1
	}
	return int(f.phys.hca[n])
}

// mapPhysicalPorts records, for every discovered cable between two
// levels, which model port each of its ends is. where maps discovered
// devices to node indices (level 0) or switch ids. Parallel cables
// between two switches are matched in the order of the lower switch's
// physical ports. Cables the Fabric has no place for stay unmapped.
func (in *inferrer) mapPhysicalPorts(f *Fabric, where []int, nodeDev []int) {
	pp := &physPorts{
		toPhys:  make([][]uint8, len(f.Switches)),
		toModel: make([][]uint8, len(f.Switches)),
		hca:     make([]uint8, len(f.Nodes)),
	}
	for id := range f.Switches {
		pp.toPhys[id] = make([]uint8, len(f.Switches[id].Ports)+1)
	}
	set := func(sw, model, phys int) {
		if phys < 1 || phys > MaxPorts || model < 1 {
			return
		}
		pp.toPhys[sw][model] = uint8(phys)
		m := pp.toModel[sw]
		if phys >= len(m) {
			m = append(m, make([]uint8, phys+1-len(m))...)
			pp.toModel[sw] = m
		}
		m[phys] = uint8(model)
	}
	type pair struct{ lo, hi int } // switch ids
	type halfCable struct{ loPort, hiPort int }
	between := map[pair][]halfCable{}
	for _, c := range in.g.Cables {
		a, b := c.A, c.B
		la, lb := in.level[a.Device], in.level[b.Device]
		if la < 0 || lb < 0 || la == lb {
			continue
		}
		if la > lb {
			a, b, la = b, a, lb
		}
		if la == 0 {
			n := where[a.Device]
			if n < 0 || n >= len(f.Nodes) || nodeDev[n] != a.Device {
				continue
			}
			nd := f.Nodes[n]
			if where[b.Device] != nd.Switch {
				continue
			}
			if a.Port >= 1 && a.Port <= MaxPorts {
				pp.hca[n] = uint8(a.Port)
			}
			set(nd.Switch, nd.Slot+1, b.Port)
			continue
		}
		k := pair{where[a.Device], where[b.Device]}
		between[k] = append(between[k], halfCable{a.Port, b.Port})
	}
	for k, cs := range between {
		slices.SortFunc(cs, func(x, y halfCable) int { return x.loPort - y.loPort })
		lo := &f.Switches[k.lo]
		var ups []int // model up ports of lo leading to hi, in cable order
		for p := lo.DownPorts + 1; p <= len(lo.Ports); p++ {
			if f.Links[lo.Ports[p-1].Out].To == k.hi {
				ups = append(ups, p)
			}
		}
		for i, c := range cs {
			if i >= len(ups) {
				break
			}
			l := f.Links[lo.Ports[ups[i]-1].Out]
			set(k.lo, ups[i], c.loPort)
			set(k.hi, l.ToPort, c.hiPort)
		}
	}
	if !pp.identity() {
		f.phys = pp
		f.markMissing(pp)
	}
}

// identity reports whether every port and every host is cabled at its
// regular number, so that no map is needed.
func (pp *physPorts) identity() bool {
	for _, h := range pp.hca {
		if h != 1 {
			return false
		}
	}
	for _, ps := range pp.toPhys {
		for p := 1; p < len(ps); p++ {
			if int(ps[p]) != p {
				return false
			}
		}
	}
	return true
}
