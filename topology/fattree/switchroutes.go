package fattree

import (
	"fmt"
	"slices"
)

// SwitchRouting is a Routing that also knows where switches forward the
// traffic addressed to other switches' LIDs (management traffic: a
// forwarding table has an entry for every LID of the subnet, switches'
// included). A Table read from a dump of forwarding tables is one.
//
// SwitchRoute is the port (1..len(Switches[sw].Ports)) through which
// switch sw forwards traffic for the LID of switch dst, or 0 when it has
// no such route (a switch's own LID, which it consumes, included).
type SwitchRouting interface {
	Routing
	SwitchRoute(sw, dst int) int
}

// SetSwitchRoute makes switch sw forward traffic for the LID of switch
// dst through port; port 0 removes the route. As with SetPort, whether
// sw has that port is checked when the table is used.
func (t *Table) SetSwitchRoute(sw, dst, port int) error {
	switch {
	case sw < 0 || sw >= t.switches:
		return fmt.Errorf("fattree: table entry for switch %d: the fabric has switches 0..%d", sw, t.switches-1)
	case dst < 0 || dst >= t.switches:
		return fmt.Errorf("fattree: table entry of switch %d for switch %d: the fabric has switches 0..%d", sw, dst, t.switches-1)
	case port < 0 || port > MaxPorts:
		return fmt.Errorf("fattree: table entry of switch %d for switch %d: port %d, want 0..%d", sw, dst, port, MaxPorts)
	}
	if t.toSwitch == nil {
		if port == 0 {
			return nil
		}
		t.toSwitch = make([]uint8, t.switches*t.switches)
	}
	t.toSwitch[sw*t.switches+dst] = uint8(port)
	return nil
}

// SwitchRoute is the port through which switch sw forwards traffic for
// the LID of switch dst, 0 if none is set (or sw or dst is out of range).
func (t *Table) SwitchRoute(sw, dst int) int {
	if t.toSwitch == nil || sw < 0 || sw >= t.switches || dst < 0 || dst >= t.switches {
		return 0
	}
	return int(t.toSwitch[sw*t.switches+dst])
}

// Destinations is d(ℓ) as TreeScope v1.0 computes it (app/src/modules/
// routing.js, dlids4link): the LIDs that the forwarding table of the
// link's source switch sends out of the link's port, in increasing order.
// They are the LIDs of the nodes d with r.Port(sw, d) = port and, when r
// is a SwitchRouting (a Table read by infiniband.ReadLFT), of the
// switches with r.SwitchRoute(sw, s) = port; devices without a LID (0)
// have no address and are left out.
//
// It differs from Reach in three ways. Reach follows the routes of every
// source through the whole fabric and gives the nodes whose traffic
// actually crosses the link; Destinations reads one switch's table, so
// it also lists destinations that no node's route brings to that switch
// (an L2's up port lists every node outside its pod, though only its
// pod's traffic can arrive there). Destinations gives LIDs, Reach node
// indices. And Destinations includes switches' LIDs, which Reach, about
// the nodes' traffic, never does. A node's up link has no forwarding
// table: Destinations fails for it (Reach gives every other node), and
// when link is out of range.
func Destinations(f *Fabric, r Routing, link int) ([]int, error) {
	if link < 0 || link >= len(f.Links) {
		return nil, fmt.Errorf("fattree: destinations of link %d: the fabric has links 0..%d", link, len(f.Links)-1)
	}
	l := f.Links[link]
	if l.Kind.From() == 0 {
		return nil, fmt.Errorf("fattree: destinations of link %d: it leaves node %s, which has no forwarding table", link, f.Nodes[l.From].Name)
	}
	sw, port := l.From, l.FromPort
	var out []int
	for d, n := range f.Nodes {
		if n.LID != 0 && r.Port(sw, d) == port {
			out = append(out, int(n.LID))
		}
	}
	if sr, ok := r.(SwitchRouting); ok {
		for d, s := range f.Switches {
			if s.LID != 0 && sr.SwitchRoute(sw, d) == port {
				out = append(out, int(s.LID))
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
