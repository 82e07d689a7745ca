package fattree

import "fmt"

// Fabric is a fat-tree built from a Spec: every node, switch, port and
// directed link, numbered as the package documentation describes. A Fabric
// is read-only once built and safe for concurrent use.
type Fabric struct {
	Spec     Spec
	Nodes    []Node   // node d is Nodes[d], in (pod, L1, slot) order
	Switches []Switch // switch ids: L1 (pod, index), then L2 (pod, index), then L3 (bundle, index)
	Links    []Link   // link ids: by Kind, then source, destination, cable

	kindStart [NumKinds + 1]int // links of kind k are kindStart[k]:kindStart[k+1]
	firstL2   int               // switch id of the first L2
	firstL3   int               // switch id of the first L3

	// Flat copies of the port and link tables for the inner loops.
	portBase []int32 // port p of switch s is portOut[portBase[s]+p-1]; len = switches+1
	portOut  []int32 // id of the link leaving through each port
	linkTo   []int32 // Links[id].To

	phys    *physPorts // real port numbers of an inferred fabric; nil: Build's
	missing []bool     // per link: no cable (Missing); nil when every link exists
}

// Node is a compute node (level 0). Its only port, port 1, is cabled to
// port Slot+1 of its L1 switch.
type Node struct {
	Pod    int // pod
	L1     int // index of its L1 in the pod
	Slot   int // position under its L1, 0-based
	Switch int // switch id of its L1
	Up     int // id of the link node → L1
	Down   int // id of the link L1 → node
	Name   string
	GUID   uint64
	LID    uint16 // 0 when the fabric has more devices than InfiniBand's 49,151 unicast LIDs
}

// Switch is a switch at level 1, 2 or 3.
type Switch struct {
	Level  int // 1 (edge), 2 (aggregation) or 3 (core)
	Pod    int // pod of an L1 or L2; -1 for an L3
	Bundle int // bundle of an L3, or of an L2 in a three-level tree; -1 otherwise
	Index  int // position in its pod (L1, L2) or bundle (L3), 0-based
	Name   string
	GUID   uint64
	LID    uint16 // 0 when the fabric has more devices than InfiniBand's 49,151 unicast LIDs
	// DownPorts is the number of down ports: ports 1..DownPorts lead to
	// the level below, ports DownPorts+1..len(Ports) to the level above.
	DownPorts int
	Ports     []Port // port p is Ports[p-1]
}

// Port is one port of a switch: the two directed links of its cable.
type Port struct {
	Out int // id of the link leaving the switch through this port
	In  int // id of the link entering the switch through this port
}

// Link is one direction of a cable.
type Link struct {
	Kind     Kind
	From     int // node index when Kind.From() is 0, switch id otherwise
	To       int // node index when Kind.To() is 0, switch id otherwise
	FromPort int // port number at From (a node's only port is 1)
	ToPort   int // port number at To
	Cable    int // which of the parallel cables between From and To, 0-based
}

// Names. Nodes are "node 13"; switches are "L1 p0 s3" (L1 3 of pod 0),
// "L2 p0 s3" and "L3 b1 s0" (L3 0 of bundle 1).
//
// GUIDs are synthetic and deterministic: 0x0002c9 (a vendor prefix) in the
// top 24 bits, the level in the next 8 and the 1-based index within the
// level (node index, or switch id minus the level's first id) in the low
// 32. LIDs: nodes 1..N in node order, then switches in id order; a device
// beyond LID 0xBFFF gets LID 0.
const (
	guidPrefix = uint64(0x0002c9) << 40
	maxLID     = 0xBFFF
)

func guid(level, i int) uint64 { return guidPrefix | uint64(level)<<32 | uint64(i+1) }

func lid(i int) uint16 {
	if i+1 > maxLID {
		return 0
	}
	return uint16(i + 1)
}

// Build makes the Fabric of s, or returns s.Validate()'s error.
func Build(s Spec) (*Fabric, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var (
		n             = s.Nodes()
		nl1, nl2, nl3 = s.Switches(1), s.Switches(2), s.Switches(3)
		perPod        = s.L1PerPod * s.NodesPerL1
		g             = s.L2PerBundle()
		c1, c2        = s.CablesL1L2, s.CablesL2L3
		up1, down2    = s.NodesPerL1, s.L1PerPod * c1 // first up port of an L1 / L2, minus 1
		f             = &Fabric{Spec: s, firstL2: nl1, firstL3: nl1 + nl2}
		nsw           = nl1 + nl2 + nl3
		totalPorts    = nl1*s.Ports(1) + nl2*s.Ports(2) + nl3*s.Ports(3)
	)
	f.Nodes = make([]Node, n)
	for d := range f.Nodes {
		f.Nodes[d] = Node{
			Pod: d / perPod, L1: d / s.NodesPerL1 % s.L1PerPod, Slot: d % s.NodesPerL1,
			Switch: d / s.NodesPerL1, Up: d, Down: n + d,
			Name: fmt.Sprintf("node %d", d), GUID: guid(0, d), LID: lid(d),
		}
	}
	ports := make([]Port, totalPorts)
	f.Switches = make([]Switch, nsw)
	f.portBase = make([]int32, nsw+1)
	base := 0
	for id := range f.Switches {
		sw := Switch{Pod: -1, Bundle: -1}
		switch {
		case id < nl1:
			sw.Level, sw.Pod, sw.Index = 1, id/s.L1PerPod, id%s.L1PerPod
			sw.Name = fmt.Sprintf("L1 p%d s%d", sw.Pod, sw.Index)
			sw.GUID = guid(1, id)
		case id < nl1+nl2:
			i := id - nl1
			sw.Level, sw.Pod, sw.Index = 2, i/s.L2PerPod, i%s.L2PerPod
			if g > 0 {
				sw.Bundle = sw.Index / g
			}
			sw.Name = fmt.Sprintf("L2 p%d s%d", sw.Pod, sw.Index)
			sw.GUID = guid(2, i)
		default:
			i := id - nl1 - nl2
			sw.Level, sw.Bundle, sw.Index = 3, i/s.L3PerBundle, i%s.L3PerBundle
			sw.Name = fmt.Sprintf("L3 b%d s%d", sw.Bundle, sw.Index)
			sw.GUID = guid(3, i)
		}
		sw.LID = lid(n + id)
		sw.DownPorts = s.DownPorts(sw.Level)
		np := s.Ports(sw.Level)
		sw.Ports = ports[base : base+np : base+np]
		f.portBase[id] = int32(base)
		base += np
		f.Switches[id] = sw
	}
	f.portBase[nsw] = int32(base)

	links := make([]Link, 0, s.Links())
	add := func(k Kind, from, to, fromPort, toPort, cable int) {
		links = append(links, Link{Kind: k, From: from, To: to, FromPort: fromPort, ToPort: toPort, Cable: cable})
	}
	f.kindStart[Up01] = len(links)
	for d, nd := range f.Nodes {
		add(Up01, d, nd.Switch, 1, nd.Slot+1, 0)
	}
	f.kindStart[Down10] = len(links)
	for d, nd := range f.Nodes {
		add(Down10, nd.Switch, d, nd.Slot+1, 1, 0)
	}
	f.kindStart[Up12] = len(links)
	for l1 := range nl1 {
		pod, i := l1/s.L1PerPod, l1%s.L1PerPod
		for m := range s.L2PerPod {
			for c := range c1 {
				add(Up12, l1, nl1+pod*s.L2PerPod+m, up1+1+m*c1+c, 1+i*c1+c, c)
			}
		}
	}
	f.kindStart[Down21] = len(links)
	for l2 := range nl2 {
		pod, m := l2/s.L2PerPod, l2%s.L2PerPod
		for i := range s.L1PerPod {
			for c := range c1 {
				add(Down21, nl1+l2, pod*s.L1PerPod+i, 1+i*c1+c, up1+1+m*c1+c, c)
			}
		}
	}
	f.kindStart[Up23] = len(links)
	for l2 := range nl2 {
		if g == 0 {
			break
		}
		pod, m := l2/s.L2PerPod, l2%s.L2PerPod
		b, gi := m/g, m%g
		for j := range s.L3PerBundle {
			for c := range c2 {
				add(Up23, nl1+l2, nl1+nl2+b*s.L3PerBundle+j, down2+1+j*c2+c, 1+(pod*g+gi)*c2+c, c)
			}
		}
	}
	f.kindStart[Down32] = len(links)
	for l3 := range nl3 {
		b, j := l3/s.L3PerBundle, l3%s.L3PerBundle
		for pod := range s.Pods {
			for gi := range g {
				for c := range c2 {
					m := b*g + gi
					add(Down32, nl1+nl2+l3, nl1+pod*s.L2PerPod+m, 1+(pod*g+gi)*c2+c, down2+1+j*c2+c, c)
				}
			}
		}
	}
	f.kindStart[NumKinds] = len(links)
	f.Links = links

	f.portOut = make([]int32, totalPorts)
	f.linkTo = make([]int32, len(links))
	for id, l := range links {
		f.linkTo[id] = int32(l.To)
		if l.Kind.From() > 0 {
			f.Switches[l.From].Ports[l.FromPort-1].Out = id
			f.portOut[int(f.portBase[l.From])+l.FromPort-1] = int32(id)
		}
		if l.Kind.To() > 0 {
			f.Switches[l.To].Ports[l.ToPort-1].In = id
		}
	}
	return f, nil
}

// KindLinks is the range [first, end) of the ids of the links of kind k.
func (f *Fabric) KindLinks(k Kind) (first, end int) {
	if k >= NumKinds {
		return 0, 0
	}
	return f.kindStart[k], f.kindStart[k+1]
}

// L1 is the switch id of L1 i of pod p.
func (f *Fabric) L1(p, i int) int { return p*f.Spec.L1PerPod + i }

// L2 is the switch id of L2 m of pod p.
func (f *Fabric) L2(p, m int) int { return f.firstL2 + p*f.Spec.L2PerPod + m }

// L3 is the switch id of L3 j of bundle b.
func (f *Fabric) L3(b, j int) int { return f.firstL3 + b*f.Spec.L3PerBundle + j }

// Node is the index of the node in slot x of L1 i of pod p.
func (f *Fabric) Node(p, i, x int) int {
	return (p*f.Spec.L1PerPod+i)*f.Spec.NodesPerL1 + x
}

// Distance is the number of switches on a minimal route from node s to
// node d: 0 when s = d, else 2·L−1 where L is the level of their lowest
// common ancestors (1 under the same L1, 2 in the same pod, 3 otherwise).
func (f *Fabric) Distance(s, d int) int {
	a, b := f.Nodes[s], f.Nodes[d]
	switch {
	case s == d:
		return 0
	case a.Switch == b.Switch:
		return 1
	case a.Pod == b.Pod:
		return 3
	}
	return 5
}

// port is the id of the link leaving switch sw through port p, or -1 when
// sw has no port p.
func (f *Fabric) port(sw, p int) int {
	lo := int(f.portBase[sw])
	if p < 1 || lo+p > int(f.portBase[sw+1]) {
		return -1
	}
	return int(f.portOut[lo+p-1])
}
