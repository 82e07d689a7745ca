package fattree

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// DeviceKind says whether a discovered device is a host (an InfiniBand
// channel adapter, CA) or a switch.
type DeviceKind uint8

// The two kinds of discovered device.
const (
	HostDevice   DeviceKind = iota // a host channel adapter: a compute node
	SwitchDevice                   // a switch
)

// String is "host" or "switch".
func (k DeviceKind) String() string {
	switch k {
	case HostDevice:
		return "host"
	case SwitchDevice:
		return "switch"
	}
	return fmt.Sprintf("DeviceKind(%d)", uint8(k))
}

// Device is one discovered device.
type Device struct {
	Kind  DeviceKind
	GUID  uint64 // node GUID; 0 when unknown
	Name  string // node description, e.g. "node017 HCA-1" or "MF0;sw-l1-3:SX6036/U1"
	Ports int    // number of ports (1..Ports); 0 when unknown (then any port number from 1 is accepted)
	LID   uint16 // base LID; 0 when unknown
}

// Endpoint is one end of a cable: a device (its index in
// Discovered.Devices) and a port number, from 1.
type Endpoint struct {
	Device int
	Port   int
}

// Cable is one discovered cable between two ports.
type Cable struct {
	A, B Endpoint
}

// Discovered is a topology as a discovery tool sees it: devices and the
// cables between their ports, in any order, with no claim about levels,
// pods or bundles. Readers of real formats (package
// superstep/topology/infiniband) produce it; Infer turns it into a Fabric.
type Discovered struct {
	Devices []Device
	Cables  []Cable
}

// Warning reports an irregularity that Infer tolerated: something missing
// relative to the regular pattern it inferred (a device, a cable), pods of
// unequal size, an extra cable it ignored, port numbers that differ from
// the regular numbering.
type Warning struct {
	Msg string
}

// String returns the message.
func (w Warning) String() string { return w.Msg }

// maxWarningsPerClass bounds the warnings of one class (missing cables,
// cross links, …) that Infer lists one by one; the rest are counted in one
// last warning.
const maxWarningsPerClass = 20

// Infer recognises the fat-tree in a discovered topology: it finds the
// regular Spec the topology follows and returns the Fabric that Build makes
// of it, with the discovered names, GUIDs and (when known) LIDs put on its
// nodes and switches.
//
// Levels come from the cabling alone, never from names: hosts are level 0,
// the switches cabled to hosts level 1, the switches cabled to those level
// 2, then level 3 (breadth-first from the hosts). Pods are the connected
// components of the graph of L1–L2 cables, bundles those of the L2–L3
// cables. Counts are the maxima found (L1 per pod, hosts per L1, L2 per pod
// and bundle, L3 per bundle, parallel cables per pair), so every discovered
// device has its place in the Fabric.
//
// Order follows the port numbers, as Build numbers them, so that a fabric
// cabled as Build cables it comes back with the same ids: pods by the L3
// ports they use, L1 of a pod by the L2 ports they use, L2 of a pod by
// bundle and then by the L1 ports they use, bundles by the positions of
// their L2, L3 of a bundle by the L2 ports they use, and hosts by their L1
// port (slot = port−1 when every host port of every L1 is at most the
// number of hosts per L1, otherwise by rank). Ties are broken by GUID.
//
// The Fabric always has Build's numbering, including port numbers; a
// warning says how many discovered cables use other ports. A device of the
// regular pattern that was not discovered keeps Build's name and has GUID
// 0 (and LID 0 when discovered LIDs are used). LIDs are the discovered ones
// when any device has one, else Build's.
//
// Warnings name what is missing or extra relative to the regular pattern:
// a missing device, a missing cable (both ends), unequal pods and bundles,
// an extra cable between switches of one level (ignored), devices not
// connected to any host (ignored). Errors: a cable naming a device or port
// that does not exist, a port used twice, a host cabled on more than one
// port or to another host (two planes), several disconnected fabrics, more
// than 3 switch levels, only one switch level, switches without clear
// levels (a torus or a mesh), a topology so irregular that the regular
// pattern holding all its devices is more than twice its size, and a Spec
// that Validate rejects.
func Infer(g Discovered) (*Fabric, []Warning, error) {
	in := inferrer{g: g, warnCount: map[string]int{}}
	return in.run()
}

type inferHalf struct {
	port, dev, peerPort int
}

type inferrer struct {
	g         Discovered
	warns     []Warning
	warnCount map[string]int
	adj       [][]inferHalf // per device, its cabled ports sorted by port
	level     []int         // -1 unreached, 0 host, 1..3 switch level
}

func (in *inferrer) warn(class, format string, args ...any) {
	in.warnCount[class]++
	if in.warnCount[class] <= maxWarningsPerClass {
		in.warns = append(in.warns, Warning{Msg: fmt.Sprintf(format, args...)})
	}
}

// over reports whether warnings of class are past the limit, counting one
// more when so; call it before formatting an expensive warning.
func (in *inferrer) over(class string) bool {
	if in.warnCount[class] >= maxWarningsPerClass {
		in.warnCount[class]++
		return true
	}
	return false
}

func (in *inferrer) flushWarnings() {
	classes := make([]string, 0, len(in.warnCount))
	for c := range in.warnCount {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	for _, c := range classes {
		if n := in.warnCount[c]; n > maxWarningsPerClass {
			in.warns = append(in.warns, Warning{Msg: fmt.Sprintf("%d more warnings of the kind %q not listed", n-maxWarningsPerClass, c)})
		}
	}
}

// name shows device i in a message.
func (in *inferrer) name(i int) string {
	d := in.g.Devices[i]
	s := d.Kind.String()
	if d.Name != "" {
		s += " " + quoteName(d.Name)
	}
	if d.GUID != 0 {
		s += fmt.Sprintf(" (GUID %#016x)", d.GUID)
	}
	if d.Name == "" && d.GUID == 0 {
		s += fmt.Sprintf(" #%d", i)
	}
	return s
}

func quoteName(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}

func (in *inferrer) end(e Endpoint) string {
	return fmt.Sprintf("%s port %d", in.name(e.Device), e.Port)
}

type inferUF []int

func newInferUF(n int) inferUF {
	u := make(inferUF, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u inferUF) find(x int) int {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u inferUF) union(a, b int) { u[u.find(a)] = u.find(b) }

// check validates the cables and builds the adjacency lists.
func (in *inferrer) check() error {
	n := len(in.g.Devices)
	for i, d := range in.g.Devices {
		if d.Kind != HostDevice && d.Kind != SwitchDevice {
			return fmt.Errorf("fattree: Infer: device %d has kind %v, expected host or switch", i, d.Kind)
		}
		if d.Ports < 0 {
			return fmt.Errorf("fattree: Infer: %s has %d ports", in.name(i), d.Ports)
		}
	}
	in.adj = make([][]inferHalf, n)
	used := map[Endpoint]int{}
	for ci, c := range in.g.Cables {
		for _, e := range [2]Endpoint{c.A, c.B} {
			if e.Device < 0 || e.Device >= n {
				return fmt.Errorf("fattree: Infer: cable %d names device %d, expected 0..%d", ci, e.Device, n-1)
			}
			if p := in.g.Devices[e.Device].Ports; e.Port < 1 || p > 0 && e.Port > p {
				return fmt.Errorf("fattree: Infer: cable %d names %s, which has ports 1..%d", ci, in.end(e), p)
			}
			if prev, ok := used[e]; ok {
				return fmt.Errorf("fattree: Infer: %s has two cables (%d and %d)", in.end(e), prev, ci)
			}
			used[e] = ci
		}
		if c.A.Device == c.B.Device {
			return fmt.Errorf("fattree: Infer: cable %d joins %s to its own port %d", ci, in.end(c.A), c.B.Port)
		}
		a, b := in.g.Devices[c.A.Device], in.g.Devices[c.B.Device]
		if a.Kind == HostDevice && b.Kind == HostDevice {
			return fmt.Errorf("fattree: Infer: cable %d joins two hosts, %s and %s; expected a switch at one end", ci, in.end(c.A), in.end(c.B))
		}
		in.adj[c.A.Device] = append(in.adj[c.A.Device], inferHalf{c.A.Port, c.B.Device, c.B.Port})
		in.adj[c.B.Device] = append(in.adj[c.B.Device], inferHalf{c.B.Port, c.A.Device, c.A.Port})
	}
	for i := range in.adj {
		slices.SortFunc(in.adj[i], func(a, b inferHalf) int { return cmp.Compare(a.port, b.port) })
		if in.g.Devices[i].Kind == HostDevice && len(in.adj[i]) > 1 {
			var ends []string
			for _, h := range in.adj[i] {
				ends = append(ends, fmt.Sprintf("port %d to %s", h.port, in.end(Endpoint{h.dev, h.peerPort})))
			}
			return fmt.Errorf("fattree: Infer: %s is cabled on %d ports (%s): a host on two planes or with two rails; a fat-tree node has one cable",
				in.name(i), len(in.adj[i]), strings.Join(ends, "; "))
		}
	}
	return nil
}

// components keeps the one component with hosts and switches and marks
// the rest ignored (level -1).
func (in *inferrer) components() error {
	n := len(in.g.Devices)
	u := newInferUF(n)
	for _, c := range in.g.Cables {
		u.union(c.A.Device, c.B.Device)
	}
	type comp struct{ hosts, switches, first int }
	comps := map[int]*comp{}
	var roots []int
	for i, d := range in.g.Devices {
		r := u.find(i)
		c := comps[r]
		if c == nil {
			c = &comp{first: i}
			comps[r] = c
			roots = append(roots, r)
		}
		if d.Kind == HostDevice {
			c.hosts++
		} else {
			c.switches++
		}
	}
	var fabrics []int
	for _, r := range roots {
		c := comps[r]
		switch {
		case c.hosts > 0 && c.switches > 0:
			fabrics = append(fabrics, r)
		case c.switches == 0:
			in.warn("uncabled host", "%s has no cable: ignored", in.name(c.first))
		default:
			in.warn("switches without hosts", "%s and %d other switches cabled to it reach no host: ignored", in.name(c.first), c.switches-1)
		}
	}
	if len(fabrics) == 0 {
		return fmt.Errorf("fattree: Infer: no host is cabled to a switch (%d devices, %d cables)", n, len(in.g.Cables))
	}
	if len(fabrics) > 1 {
		var parts []string
		for _, r := range fabrics {
			c := comps[r]
			parts = append(parts, fmt.Sprintf("%d hosts and %d switches around %s", c.hosts, c.switches, in.name(c.first)))
		}
		return fmt.Errorf("fattree: Infer: found %d disconnected fabrics (two planes?): %s; Infer takes one fabric at a time",
			len(fabrics), strings.Join(parts, "; "))
	}
	in.level = make([]int, n)
	for i := range in.level {
		in.level[i] = -1
		if u.find(i) == fabrics[0] && in.g.Devices[i].Kind == HostDevice {
			in.level[i] = 0
		}
	}
	return nil
}

// levels sets the level of every switch by breadth-first search from the
// hosts.
func (in *inferrer) levels() error {
	var queue []int
	for i, l := range in.level {
		if l == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, h := range in.adj[i] {
			if in.level[h.dev] < 0 {
				in.level[h.dev] = in.level[i] + 1
				queue = append(queue, h.dev)
			}
		}
	}
	var count [5]int
	deepest := -1
	for i, l := range in.level {
		if l < 0 {
			continue
		}
		if l > 3 {
			count[4]++
			if deepest < 0 || l > in.level[deepest] {
				deepest = i
			}
			continue
		}
		count[l]++
	}
	if count[4] > 0 {
		return fmt.Errorf("fattree: Infer: more than 3 switch levels: %d switches are more than 3 switches away from every host (%s is at level %d; %d L1, %d L2, %d L3 below)",
			count[4], in.name(deepest), in.level[deepest], count[1], count[2], count[3])
	}
	same, tree := 0, 0
	for _, c := range in.g.Cables {
		la, lb := in.level[c.A.Device], in.level[c.B.Device]
		if la <= 0 || lb <= 0 {
			continue
		}
		if la == lb {
			same++
		} else {
			tree++
		}
	}
	if count[2] == 0 {
		if same > 0 {
			return fmt.Errorf("fattree: Infer: switches without clear levels: every one of the %d switches has hosts and the %d switch-to-switch cables join them to each other (a torus or a mesh?)", count[1], same)
		}
		return fmt.Errorf("fattree: Infer: only one switch level (%d switches with %d hosts, no switch above them): a fat-tree has at least 2", count[1], count[0])
	}
	if same > tree {
		return fmt.Errorf("fattree: Infer: switches without clear levels: %d of the %d switch-to-switch cables join switches at the same distance from the hosts (a torus or a mesh?)", same, same+tree)
	}
	for _, c := range in.g.Cables {
		la, lb := in.level[c.A.Device], in.level[c.B.Device]
		if la > 0 && la == lb {
			in.warn("extra cross cable", "extra cable between two L%d switches, %s and %s: ignored", la, in.end(c.A), in.end(c.B))
		}
	}
	return nil
}

// compareInts compares sorted keys lexicographically.
func compareInts(a, b []int) int { return slices.Compare(a, b) }

func (in *inferrer) run() (*Fabric, []Warning, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	if err := in.components(); err != nil {
		return nil, nil, err
	}
	if err := in.levels(); err != nil {
		return nil, nil, err
	}
	f, err := in.assemble()
	if err != nil {
		return nil, nil, err
	}
	in.flushWarnings()
	return f, in.warns, nil
}

// group is a set of devices with a sort key.
type inferGroup struct {
	members []int
	key     []int
	guid    uint64 // smallest GUID, the tie-break
}

func (in *inferrer) sortGroups(gs []*inferGroup) {
	for _, g := range gs {
		slices.Sort(g.key)
		g.guid = ^uint64(0)
		for _, m := range g.members {
			g.guid = min(g.guid, in.g.Devices[m].GUID)
		}
	}
	slices.SortStableFunc(gs, func(a, b *inferGroup) int {
		if c := compareInts(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.guid, b.guid)
	})
}

// rankBy orders devices by the sorted list of the ports at the other end
// of their cables to devices of level peerLevel, then by GUID.
func (in *inferrer) rankBy(devs []int, peerLevel int) []int {
	gs := make([]*inferGroup, len(devs))
	for i, d := range devs {
		g := &inferGroup{members: []int{d}}
		for _, h := range in.adj[d] {
			if in.level[h.dev] == peerLevel {
				g.key = append(g.key, h.peerPort)
			}
		}
		gs[i] = g
	}
	in.sortGroups(gs)
	out := make([]int, len(devs))
	for i, g := range gs {
		out[i] = g.members[0]
	}
	return out
}

func (in *inferrer) assemble() (*Fabric, error) {
	n := len(in.g.Devices)
	var l1s, l2s, l3s []int
	for i, l := range in.level {
		switch l {
		case 1:
			l1s = append(l1s, i)
		case 2:
			l2s = append(l2s, i)
		case 3:
			l3s = append(l3s, i)
		}
	}
	three := len(l3s) > 0

	// Pods: components of the L1–L2 cables.
	u := newInferUF(n)
	for _, c := range in.g.Cables {
		la, lb := in.level[c.A.Device], in.level[c.B.Device]
		if la+lb == 3 && la > 0 && lb > 0 {
			u.union(c.A.Device, c.B.Device)
		}
	}
	podOf := map[int]*inferGroup{}
	var pods []*inferGroup
	for _, d := range append(slices.Clone(l1s), l2s...) {
		r := u.find(d)
		g := podOf[r]
		if g == nil {
			g = &inferGroup{}
			podOf[r] = g
			pods = append(pods, g)
		}
		g.members = append(g.members, d)
		if in.level[d] == 2 {
			for _, h := range in.adj[d] {
				if in.level[h.dev] == 3 {
					g.key = append(g.key, h.peerPort)
				}
			}
		}
	}
	in.sortGroups(pods)
	if !three && len(pods) > 1 {
		return nil, fmt.Errorf("fattree: Infer: %d groups of L1 and L2 switches (pods) but no L3 switch to join them; a two-level tree has one", len(pods))
	}
	pod := make([]int, n) // pod index of every L1 and L2
	for p, g := range pods {
		for _, m := range g.members {
			pod[m] = p
		}
	}
	// L1 and provisional L2 order within pods.
	podL1 := make([][]int, len(pods))
	podL2 := make([][]int, len(pods))
	for p, g := range pods {
		var a, b []int
		for _, m := range g.members {
			if in.level[m] == 1 {
				a = append(a, m)
			} else {
				b = append(b, m)
			}
		}
		podL1[p] = in.rankBy(a, 2)
		podL2[p] = in.rankBy(b, 1)
	}
	prov := make([]int, n) // provisional rank of an L2 in its pod
	for _, l := range podL2 {
		for r, d := range l {
			prov[d] = r
		}
	}

	// Bundles: components of the L2–L3 cables.
	bundleOf := make([]int, n)
	var bundles []*inferGroup
	var orphans []int // L2 without L3 in a three-level tree
	if three {
		u = newInferUF(n)
		for _, c := range in.g.Cables {
			la, lb := in.level[c.A.Device], in.level[c.B.Device]
			if la+lb == 5 {
				u.union(c.A.Device, c.B.Device)
			}
		}
		byRoot := map[int]*inferGroup{}
		for _, d := range append(slices.Clone(l3s), l2s...) {
			r := u.find(d)
			g := byRoot[r]
			if g == nil {
				if in.level[d] == 2 {
					orphans = append(orphans, d)
					continue
				}
				g = &inferGroup{}
				byRoot[r] = g
				bundles = append(bundles, g)
			}
			g.members = append(g.members, d)
			if in.level[d] == 2 {
				g.key = append(g.key, prov[d])
			}
		}
		in.sortGroups(bundles)
		for b, g := range bundles {
			for _, m := range g.members {
				bundleOf[m] = b
			}
		}
	}
	nb := max(len(bundles), 1)
	// perPodBundle[p][b] lists the L2 of pod p in bundle b, in provisional order.
	perPodBundle := make([][][]int, len(pods))
	for p := range pods {
		perPodBundle[p] = make([][]int, nb)
		for _, d := range podL2[p] {
			if three && in.level[d] == 2 && slices.Contains(orphans, d) {
				continue
			}
			perPodBundle[p][bundleOf[d]] = append(perPodBundle[p][bundleOf[d]], d)
		}
	}
	for _, d := range orphans {
		p, best := pod[d], 0
		for b := range nb {
			if len(perPodBundle[p][b]) < len(perPodBundle[p][best]) {
				best = b
			}
		}
		bundleOf[d] = best
		perPodBundle[p][best] = append(perPodBundle[p][best], d)
		in.warn("L2 without L3", "%s (an L2 switch of pod %d) has no cable to an L3 switch: put in bundle %d", in.name(d), p, best)
	}

	// The regular pattern.
	s := Spec{Pods: len(pods)}
	g := 0
	for p := range pods {
		s.L1PerPod = max(s.L1PerPod, len(podL1[p]))
		for b := range nb {
			g = max(g, len(perPodBundle[p][b]))
		}
	}
	s.L2PerPod = g * nb
	hostsOf := map[int][]inferHalf{}
	aligned := true
	for _, d := range l1s {
		for _, h := range in.adj[d] {
			if in.level[h.dev] == 0 {
				hostsOf[d] = append(hostsOf[d], h)
			}
		}
		s.NodesPerL1 = max(s.NodesPerL1, len(hostsOf[d]))
	}
	for _, hs := range hostsOf {
		for _, h := range hs {
			if h.port > s.NodesPerL1 {
				aligned = false
			}
		}
	}
	type pair struct{ a, b int }
	cables := map[pair]int{}
	for _, c := range in.g.Cables {
		a, b := c.A.Device, c.B.Device
		la, lb := in.level[a], in.level[b]
		if la <= 0 || lb <= 0 || la == lb {
			continue
		}
		if la > lb {
			a, b = b, a
		}
		cables[pair{a, b}]++
	}
	for pr, k := range cables {
		if in.level[pr.a] == 1 {
			s.CablesL1L2 = max(s.CablesL1L2, k)
		} else {
			s.CablesL2L3 = max(s.CablesL2L3, k)
		}
	}
	if three {
		s.Bundles = len(bundles)
		for _, b := range bundles {
			k := 0
			for _, m := range b.members {
				if in.level[m] == 3 {
					k++
				}
			}
			s.L3PerBundle = max(s.L3PerBundle, k)
		}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("fattree: Infer: the inferred pattern (%v) is not a valid fat-tree: %w", s, err)
	}
	found := 0
	for _, l := range in.level {
		if l >= 0 {
			found++
		}
	}
	if regular := s.Nodes() + s.Switches(1) + s.Switches(2) + s.Switches(3); regular > 2*found+8 {
		return nil, fmt.Errorf("fattree: Infer: too irregular for a fat-tree: the regular pattern that holds every device (%v) has %d devices, more than twice the %d found",
			s, regular, found)
	}
	f, err := Build(s)
	if err != nil {
		return nil, err
	}

	// Place every discovered device.
	nodeDev := make([]int, len(f.Nodes))
	swDev := make([]int, len(f.Switches))
	for i := range nodeDev {
		nodeDev[i] = -1
	}
	for i := range swDev {
		swDev[i] = -1
	}
	where := make([]int, n) // node index or switch id
	for p := range pods {
		for i, d := range podL1[p] {
			id := f.L1(p, i)
			swDev[id], where[d] = d, id
			hs := hostsOf[d]
			for r, h := range hs {
				x := r
				if aligned {
					x = h.port - 1
				}
				nd := f.Node(p, i, x)
				nodeDev[nd], where[h.dev] = h.dev, nd
			}
		}
		for b := range nb {
			for j, d := range perPodBundle[p][b] {
				id := f.L2(p, b*g+j)
				swDev[id], where[d] = d, id
			}
		}
	}
	for b, bg := range bundles {
		var l3 []int
		for _, m := range bg.members {
			if in.level[m] == 3 {
				l3 = append(l3, m)
			}
		}
		for j, d := range in.rankBy(l3, 2) {
			id := f.L3(b, j)
			swDev[id], where[d] = d, id
		}
	}

	// Names, GUIDs, LIDs.
	groupOf := func(sw *Switch) [3]int {
		if sw.Level == 3 {
			return [3]int{3, -1, sw.Bundle}
		}
		return [3]int{sw.Level, sw.Pod, -1}
	}
	present := map[[3]int]int{}
	for id, d := range swDev {
		if d >= 0 {
			present[groupOf(&f.Switches[id])]++
		}
	}
	useLIDs := false
	for i, d := range in.g.Devices {
		if in.level[i] >= 0 && d.LID != 0 {
			useLIDs = true
		}
	}
	for id, d := range nodeDev {
		nd := &f.Nodes[id]
		if d < 0 {
			nd.GUID = 0
			if useLIDs {
				nd.LID = 0
			}
			if swDev[nd.Switch] < 0 {
				continue // the missing switch is reported
			}
			if in.over("missing node") {
				continue
			}
			sw := f.Switches[nd.Switch]
			in.warn("missing node", "missing host cable: no host on port %d of %s (%s): %s and its cable are missing", nd.Slot+1, in.swName(f, swDev, nd.Switch), sw.Name, nd.Name)
			continue
		}
		dv := in.g.Devices[d]
		nd.Name, nd.GUID = dv.Name, dv.GUID
		if useLIDs {
			nd.LID = dv.LID
		}
	}
	for id, d := range swDev {
		sw := &f.Switches[id]
		if d < 0 {
			sw.GUID = 0
			if useLIDs {
				sw.LID = 0
			}
			if in.over("missing switch") {
				continue
			}
			where := fmt.Sprintf("pod %d", sw.Pod)
			if sw.Level == 3 {
				where = fmt.Sprintf("bundle %d", sw.Bundle)
			}
			in.warn("missing switch", "missing switch: %s has %d of the %d L%d switches of the regular pattern; %s is absent (unequal pods or bundles)",
				where, present[groupOf(sw)], in.regular(s, sw.Level), sw.Level, sw.Name)
			continue
		}
		dv := in.g.Devices[d]
		sw.Name, sw.GUID = dv.Name, dv.GUID
		if useLIDs {
			sw.LID = dv.LID
		}
	}

	// Missing cables and port numbers.
	for _, k := range []Kind{Up12, Up23} {
		lo, hi := f.KindLinks(k)
		c := s.CablesL1L2
		if k == Up23 {
			c = s.CablesL2L3
		}
		for id := lo; id < hi; id += c {
			l := f.Links[id]
			a, b := swDev[l.From], swDev[l.To]
			if a < 0 || b < 0 {
				continue
			}
			if got := cables[pair{a, b}]; got < c && !in.over("missing cable") {
				if c == 1 {
					in.warn("missing cable", "missing cable between %s and %s (%s and %s)", in.name(a), in.name(b), f.Switches[l.From].Name, f.Switches[l.To].Name)
				} else {
					in.warn("missing cable", "missing cable between %s and %s (%s and %s): %d of %d parallel cables", in.name(a), in.name(b), f.Switches[l.From].Name, f.Switches[l.To].Name, got, c)
				}
			}
		}
	}
	moved, first := 0, ""
	for _, c := range in.g.Cables {
		a, b := c.A, c.B
		la, lb := in.level[a.Device], in.level[b.Device]
		if la < 0 || lb < 0 || la == lb {
			continue
		}
		if la > lb {
			a, b = b, a
		}
		if !in.cableAt(f, where, a, b) {
			moved++
			if first == "" {
				first = fmt.Sprintf("%s – %s", in.end(a), in.end(b))
			}
		}
	}
	if moved > 0 {
		in.warn("port numbers", "%d of %d cables use other port numbers than the regular numbering, e.g. %s; the Fabric uses the regular numbering (PhysicalPort and ModelPort translate)", moved, len(in.g.Cables), first)
	}
	in.mapPhysicalPorts(f, where, nodeDev)
	return f, nil
}

// cableAt reports whether the Fabric has a cable between lower end a and
// upper end b at exactly these ports.
func (in *inferrer) cableAt(f *Fabric, where []int, a, b Endpoint) bool {
	up := where[b.Device]
	if in.level[a.Device] == 0 {
		nd := f.Nodes[where[a.Device]]
		return a.Port == 1 && nd.Switch == up && b.Port == nd.Slot+1
	}
	sw := f.Switches[where[a.Device]]
	if a.Port < 1 || a.Port > len(sw.Ports) {
		return false
	}
	l := f.Links[sw.Ports[a.Port-1].Out]
	return l.Kind.Up() && l.To == up && l.ToPort == b.Port
}

func (in *inferrer) swName(f *Fabric, swDev []int, id int) string {
	if d := swDev[id]; d >= 0 {
		return in.name(d)
	}
	return "missing switch " + f.Switches[id].Name
}

func (in *inferrer) regular(s Spec, level int) int {
	switch level {
	case 1:
		return s.L1PerPod
	case 2:
		return s.L2PerPod
	}
	return s.L3PerBundle
}
