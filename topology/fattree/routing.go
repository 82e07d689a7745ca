package fattree

import (
	"context"
	"fmt"
	"slices"

	"superstep/internal/parallel"
)

// Routing is destination-based forwarding, as InfiniBand switches do it
// with linear forwarding tables: every switch sends traffic for a
// destination node through one output port, whatever its source.
//
// Port is the port number (1..len(Switches[sw].Ports)) through which
// switch sw forwards traffic for node dst, or 0 when it has no route for
// dst. Implementations must be safe for concurrent use: AllToAllLoads
// calls Port from several goroutines.
type Routing interface {
	Port(sw, dst int) int
}

// Path is the route of one pair of nodes.
type Path struct {
	Switches []int // switch ids in the order the traffic visits them
	Links    []int // link ids, from the source's up link to the destination's down link
}

// Route follows r from node src to node dst. The route of a node to
// itself is empty. It fails when a switch has no route for dst, names a
// port it does not have, delivers to another node, or when the route
// loops (comes back to a switch it visited), and when either node or a
// link on the way is missing (Fabric.Missing).
func Route(f *Fabric, r Routing, src, dst int) (Path, error) {
	if src < 0 || src >= len(f.Nodes) || dst < 0 || dst >= len(f.Nodes) {
		return Path{}, fmt.Errorf("fattree: route %d → %d: the fabric has nodes 0..%d", src, dst, len(f.Nodes)-1)
	}
	if src == dst {
		return Path{}, nil
	}
	for _, n := range []int{src, dst} {
		if f.NodeMissing(n) {
			return Path{}, fmt.Errorf("fattree: route %d → %d: node %d (%s) is missing from the fabric", src, dst, n, f.Nodes[n].Name)
		}
	}
	p := Path{Links: []int{f.Nodes[src].Up}}
	sw := f.Nodes[src].Switch
	for {
		if slices.Contains(p.Switches, sw) {
			return Path{}, fmt.Errorf("fattree: route %d → %d loops: %s", src, dst, f.switchNames(append(p.Switches, sw)))
		}
		p.Switches = append(p.Switches, sw)
		id, err := f.next(r, sw, dst)
		if err != nil {
			return Path{}, fmt.Errorf("fattree: route %d → %d: %w", src, dst, err)
		}
		p.Links = append(p.Links, id)
		if f.Links[id].Kind == Down10 {
			return p, nil
		}
		sw = f.Links[id].To
	}
}

// next is the id of the link on which switch sw forwards traffic for dst
// under r, or an error saying why there is none. A link down to a node
// other than dst is an error, and so is a missing link (Fabric.Missing):
// every walk of routes (Route, the destination trees of the loads,
// Footprint, Reach, WhoUses) comes through here.
func (f *Fabric) next(r Routing, sw, dst int) (int, error) {
	p := r.Port(sw, dst)
	id := f.port(sw, p)
	switch {
	case p == 0:
		return -1, fmt.Errorf("switch %s has no route to node %d", f.Switches[sw].Name, dst)
	case id < 0:
		return -1, fmt.Errorf("switch %s routes node %d to port %d, it has ports 1..%d", f.Switches[sw].Name, dst, p, len(f.Switches[sw].Ports))
	case f.Links[id].Kind == Down10 && f.Links[id].To != dst:
		return -1, fmt.Errorf("switch %s routes node %d to port %d, where node %d is", f.Switches[sw].Name, dst, p, f.Links[id].To)
	case f.missing != nil && f.missing[id]:
		return -1, fmt.Errorf("switch %s routes node %d over %s, whose cable is missing: route with the fabric's own forwarding tables (infiniband.ReadLFT) or a routing that avoids it", f.Switches[sw].Name, dst, f.linkName(id))
	}
	return id, nil
}

func (f *Fabric) switchNames(ids []int) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += f.Switches[id].Name
	}
	return s
}

// Table is a Routing stored as linear forwarding tables: one output port
// per switch and destination node, one byte each (switch ports are at most
// MaxPorts), 0 meaning no route; and, once SetSwitchRoute sets one, one
// per switch and destination switch (a SwitchRouting: the routes of the
// switches' own LIDs, switches × switches bytes). It is what an imported OpenSM dump or an
// explicit routing becomes. It takes switches × nodes bytes: 1.7 MB for
// Paper1296, 80 MB for KAry(48); computed routings such as DModK need no
// table. A Table may be read concurrently once it is no longer changed.
type Table struct {
	nodes, switches int
	ports           []uint8 // port of switch s for node d at s*nodes+d
	// toSwitch is the port of switch s for the LID of switch d at
	// s*switches+d (SetSwitchRoute), made on the first such route.
	toSwitch []uint8
}

// NewTable is an empty Table (no routes) for the switches and nodes of f.
func NewTable(f *Fabric) *Table {
	return &Table{
		nodes: len(f.Nodes), switches: len(f.Switches),
		ports: make([]uint8, len(f.Nodes)*len(f.Switches)),
	}
}

// Port is the port through which switch sw forwards traffic for node dst,
// 0 if none is set (or sw or dst is out of range).
func (t *Table) Port(sw, dst int) int {
	if sw < 0 || sw >= t.switches || dst < 0 || dst >= t.nodes {
		return 0
	}
	return int(t.ports[sw*t.nodes+dst])
}

// SetPort makes switch sw forward traffic for node dst through port;
// port 0 removes the route. Whether the switch has that port is checked
// when the table is used (Route, AllToAllLoads), not here.
func (t *Table) SetPort(sw, dst, port int) error {
	switch {
	case sw < 0 || sw >= t.switches:
		return fmt.Errorf("fattree: table entry for switch %d: the fabric has switches 0..%d", sw, t.switches-1)
	case dst < 0 || dst >= t.nodes:
		return fmt.Errorf("fattree: table entry of switch %d for node %d: the fabric has nodes 0..%d", sw, dst, t.nodes-1)
	case port < 0 || port > MaxPorts:
		return fmt.Errorf("fattree: table entry of switch %d for node %d: port %d, want 0..%d", sw, dst, port, MaxPorts)
	}
	t.ports[sw*t.nodes+dst] = uint8(port)
	return nil
}

// TableOf stores r's choices for every switch of f and every node in a
// Table, switch by switch on the module's worker pool, and the switch
// routes of a SwitchRouting. It fails when r names a port out of
// 0..MaxPorts, or with ctx's error.
func TableOf(ctx context.Context, f *Fabric, r Routing) (*Table, error) {
	t := NewTable(f)
	bad := make([]error, len(f.Switches))
	err := parallel.For(ctx, 0, len(f.Switches), func(_, sw int) {
		row := t.ports[sw*t.nodes : (sw+1)*t.nodes]
		for d := range row {
			p := r.Port(sw, d)
			if p < 0 || p > MaxPorts {
				bad[sw] = fmt.Errorf("fattree: switch %s routes node %d to port %d, want 0..%d", f.Switches[sw].Name, d, p, MaxPorts)
				return
			}
			row[d] = uint8(p)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("fattree: tabulating a routing: %w", err)
	}
	for _, e := range bad {
		if e != nil {
			return nil, e
		}
	}
	if sr, ok := r.(SwitchRouting); ok {
		for sw := range f.Switches {
			for d := range f.Switches {
				if err := t.SetSwitchRoute(sw, d, sr.SwitchRoute(sw, d)); err != nil {
					return nil, fmt.Errorf("fattree: tabulating a routing: %w", err)
				}
			}
		}
	}
	return t, nil
}

// shape is the arithmetic of a Spec that computed routings need: how node
// indices and switch ids decompose, and where port groups start.
type shape struct {
	nodes, switches      int
	nl1, nl2             int // L1 and L2 counts: L2 ids start at nl1, L3 ids at nl1+nl2
	nodesPerL1, l1PerPod int
	l2PerPod, perPod     int // L2 per pod, nodes per pod
	g                    int // L2 per pod per bundle
	c1, c2               int // parallel cables L1–L2, L2–L3
	u1, u2               int // up ports of an L1, of an L2
	l2Up                 int // number of the first up port of an L2, minus 1
}

func newShape(s Spec) shape {
	return shape{
		nodes: s.Nodes(), switches: s.Switches(1) + s.Switches(2) + s.Switches(3),
		nl1: s.Switches(1), nl2: s.Switches(2),
		nodesPerL1: s.NodesPerL1, l1PerPod: s.L1PerPod,
		l2PerPod: s.L2PerPod, perPod: s.L1PerPod * s.NodesPerL1,
		g:  s.L2PerBundle(),
		c1: s.CablesL1L2, c2: s.CablesL2L3,
		u1: s.UpPorts(1), u2: s.UpPorts(2),
		l2Up: s.DownPorts(2),
	}
}

// valid reports whether sw and d are a switch id and a node index.
func (s *shape) valid(sw, d int) bool {
	return uint(sw) < uint(s.switches) && uint(d) < uint(s.nodes)
}
