package fattree

import "fmt"

// Missing links. A Fabric made by Build has every link of its Spec. One
// that Infer finds in a discovered topology keeps Build's numbering but
// may lack some of its cables: a cable that was not discovered, or the
// cables of a node or switch that was not. Those links are missing: they
// keep their ids (so ids stay those of the regular pattern), but they
// exist nowhere. Statistics count only the links that exist (Traffic.Stats,
// Loads.Stats), a route that crosses a missing link is an error wherever
// routes are followed (Route, AllToAllLoads, JobLoads, Footprint, Reach,
// WhoUses), a job or node set naming a missing node is refused, Simulate
// gives missing links no counter rows, and the matrix board draws them
// apart from idle links.

// Missing reports whether link id has no cable: Infer found none where
// the regular pattern has one. It is false for every link of a Fabric made
// by Build, and for an id out of range.
func (f *Fabric) Missing(id int) bool {
	return f.missing != nil && id >= 0 && id < len(f.missing) && f.missing[id]
}

// MissingLinks is the ids of the missing links, in id order (nil when
// every link exists).
func (f *Fabric) MissingLinks() []int {
	var out []int
	for id, m := range f.missing {
		if m {
			out = append(out, id)
		}
	}
	return out
}

// NodeMissing reports whether node n was not discovered (its links are
// missing).
func (f *Fabric) NodeMissing(n int) bool {
	return n >= 0 && n < len(f.Nodes) && f.Missing(f.Nodes[n].Up)
}

// markMissing records as missing every link whose cable the physical
// port map lacks: a host link whose node has no cabled HCA port, a switch
// link whose lower end has no physical port. It leaves f.missing nil when
// every link exists.
func (f *Fabric) markMissing(pp *physPorts) {
	missing := make([]bool, len(f.Links))
	any := false
	for id, l := range f.Links {
		var m bool
		switch l.Kind {
		case Up01:
			m = pp.hca[l.From] == 0 || pp.toPhys[l.To][l.ToPort] == 0
		case Down10:
			m = pp.hca[l.To] == 0 || pp.toPhys[l.From][l.FromPort] == 0
		default:
			m = pp.toPhys[l.From][l.FromPort] == 0 || pp.toPhys[l.To][l.ToPort] == 0
		}
		missing[id] = m
		any = any || m
	}
	if any {
		f.missing = missing
	}
}

// linkName names link id by its ends: "L1 p0 s0 → L2 p0 s1 (link 40)".
func (f *Fabric) linkName(id int) string {
	l := f.Links[id]
	end := func(level, i int) string {
		if level == 0 {
			return f.Nodes[i].Name
		}
		return f.Switches[i].Name
	}
	return fmt.Sprintf("%s → %s (link %d)", end(l.Kind.From(), l.From), end(l.Kind.To(), l.To), id)
}

// missingAt reports whether the i-th link of kind k is missing, given a
// fabric's missing links (nil: none) and kind ranges.
func missingAt(missing []bool, kindStart [NumKinds + 1]int, k Kind, i int) bool {
	return missing != nil && missing[kindStart[k]+i]
}
