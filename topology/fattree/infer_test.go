package fattree

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// discoverFabric turns a Fabric into what a discovery tool would see:
// devices in a shuffled order, GUIDs permuted among them, new names, one
// cable per pair of directed links. It returns the Discovered and, for
// every device, the node index (hosts) or switch id (switches) it came from.
func discoverFabric(f *Fabric, seed uint64) (Discovered, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	type src struct{ host, id int }
	var srcs []src
	for d := range f.Nodes {
		srcs = append(srcs, src{1, d})
	}
	for id := range f.Switches {
		srcs = append(srcs, src{0, id})
	}
	rng.Shuffle(len(srcs), func(i, j int) { srcs[i], srcs[j] = srcs[j], srcs[i] })
	guids := make([]uint64, len(srcs))
	for i := range guids {
		guids[i] = 0x0008f10000000000 + uint64(i+1)
	}
	rng.Shuffle(len(guids), func(i, j int) { guids[i], guids[j] = guids[j], guids[i] })
	var g Discovered
	nodeAt := map[int]int{}
	swAt := map[int]int{}
	origin := make([]int, len(srcs))
	for i, s := range srcs {
		origin[i] = s.id
		if s.host == 1 {
			nodeAt[s.id] = i
			g.Devices = append(g.Devices, Device{Kind: HostDevice, GUID: guids[i], Name: fmt.Sprintf("h%d HCA-1", i), Ports: 1})
		} else {
			swAt[s.id] = i
			g.Devices = append(g.Devices, Device{Kind: SwitchDevice, GUID: guids[i], Name: fmt.Sprintf("sw%d", i), Ports: len(f.Switches[s.id].Ports)})
		}
	}
	for _, l := range f.Links {
		if !l.Kind.Up() {
			continue
		}
		a := Endpoint{Port: l.FromPort}
		if l.Kind.From() == 0 {
			a.Device = nodeAt[l.From]
		} else {
			a.Device = swAt[l.From]
		}
		g.Cables = append(g.Cables, Cable{A: a, B: Endpoint{Device: swAt[l.To], Port: l.ToPort}})
	}
	rng.Shuffle(len(g.Cables), func(i, j int) {
		g.Cables[i], g.Cables[j] = g.Cables[j], g.Cables[i]
	})
	for i := range g.Cables {
		if rng.IntN(2) == 0 {
			g.Cables[i].A, g.Cables[i].B = g.Cables[i].B, g.Cables[i].A
		}
	}
	return g, origin
}

// anonymous is a copy of f without names and GUIDs.
func anonymous(f *Fabric) Fabric {
	c := *f
	c.Nodes = append([]Node(nil), f.Nodes...)
	c.Switches = append([]Switch(nil), f.Switches...)
	for i := range c.Nodes {
		c.Nodes[i].Name, c.Nodes[i].GUID = "", 0
	}
	for i := range c.Switches {
		c.Switches[i].Name, c.Switches[i].GUID = "", 0
	}
	c.phys = nil    // compared by the tests of PhysicalPort and ModelPort
	c.missing = nil // compared by the tests of Missing
	return c
}

func TestInferRoundTrip(t *testing.T) {
	for _, s := range []Spec{KAry(4), KAry(8), Paper1296(), twoLevelSpec, parallelSpec, KAry(2)} {
		want := build(t, s)
		for seed := uint64(1); seed <= 3; seed++ {
			g, origin := discoverFabric(want, seed)
			got, warns, err := Infer(g)
			if err != nil {
				t.Fatalf("%v seed %d: %v", s, seed, err)
			}
			if len(warns) != 0 {
				t.Fatalf("%v seed %d: warnings %v", s, seed, warns)
			}
			if got.Spec != s {
				t.Fatalf("%v seed %d: inferred spec %v", s, seed, got.Spec)
			}
			if a, b := anonymous(got), anonymous(want); !reflect.DeepEqual(a, b) {
				t.Fatalf("%v seed %d: fabrics differ", s, seed)
			}
			// Every device is where it came from, with its name and GUID.
			for i, d := range g.Devices {
				var name string
				var guid uint64
				if d.Kind == HostDevice {
					name, guid = got.Nodes[origin[i]].Name, got.Nodes[origin[i]].GUID
				} else {
					name, guid = got.Switches[origin[i]].Name, got.Switches[origin[i]].GUID
				}
				if name != d.Name || guid != d.GUID {
					t.Fatalf("%v seed %d: device %d (%s %#x) came out as %s %#x", s, seed, i, d.Name, d.GUID, name, guid)
				}
			}
		}
	}
}

// without removes the cables for which drop is true, and the devices
// for which dropDev is true (with their cables).
func without(g Discovered, dropCable func(Cable) bool, dropDev func(int) bool) Discovered {
	var out Discovered
	idx := make([]int, len(g.Devices))
	for i, d := range g.Devices {
		idx[i] = -1
		if dropDev == nil || !dropDev(i) {
			idx[i] = len(out.Devices)
			out.Devices = append(out.Devices, d)
		}
	}
	for _, c := range g.Cables {
		if idx[c.A.Device] < 0 || idx[c.B.Device] < 0 || dropCable != nil && dropCable(c) {
			continue
		}
		c.A.Device, c.B.Device = idx[c.A.Device], idx[c.B.Device]
		out.Cables = append(out.Cables, c)
	}
	return out
}

func warned(warns []Warning, parts ...string) bool {
	for _, w := range warns {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w.String(), p)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestInferIrregular(t *testing.T) {
	s := KAry(4)
	f := build(t, s)
	g, origin := discoverFabric(f, 7)
	devOf := func(host bool, id int) int {
		for i, d := range g.Devices {
			if (d.Kind == HostDevice) == host && origin[i] == id {
				return i
			}
		}
		t.Fatalf("no device for %v %d", host, id)
		return -1
	}
	l1, l2 := devOf(false, f.L1(1, 0)), devOf(false, f.L2(1, 1))
	l3 := devOf(false, f.L3(1, 1))
	l2b := devOf(false, f.L2(3, 1))

	t.Run("missing cable", func(t *testing.T) {
		h := without(g, func(c Cable) bool {
			return c.A.Device == l1 && c.B.Device == l2 || c.A.Device == l2 && c.B.Device == l1
		}, nil)
		got, warns, err := Infer(h)
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec != s || len(warns) != 1 || !warned(warns, "missing cable", g.Devices[l1].Name, g.Devices[l2].Name) {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
		// The ports of the missing cable have no physical number; the others keep theirs.
		a, b := f.L1(1, 0), f.L2(1, 1)
		for _, sw := range []int{a, b} {
			for p := 1; p <= len(got.Switches[sw].Ports); p++ {
				l := got.Links[got.Switches[sw].Ports[p-1].Out]
				want := p
				if sw == a && l.To == b || sw == b && l.To == a {
					want = 0
				}
				if got.PhysicalPort(sw, p) != want || got.ModelPort(sw, p) != want {
					t.Fatalf("switch %d port %d: physical %d, model %d; want %d", sw, p, got.PhysicalPort(sw, p), got.ModelPort(sw, p), want)
				}
			}
		}
	})
	t.Run("missing node", func(t *testing.T) {
		nd := devOf(true, f.Node(2, 1, 1))
		got, warns, err := Infer(without(g, nil, func(i int) bool { return i == nd }))
		if err != nil {
			t.Fatal(err)
		}
		want := f.Nodes[f.Node(2, 1, 1)]
		if got.Spec != s || len(warns) != 1 || !warned(warns, "missing host cable", "port 2", g.Devices[devOf(false, want.Switch)].Name, "node 11 and its cable") {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
		if ids := got.MissingLinks(); !reflect.DeepEqual(ids, []int{want.Up, want.Down}) || !got.NodeMissing(11) {
			t.Fatalf("missing links %v, want node 11's %d and %d", ids, want.Up, want.Down)
		}
		// The missing node has no counters; jobs cannot use it.
		t0 := time.Unix(1000, 0)
		rows, err := Simulate(context.Background(), got, DModK(got), []Job{{ID: "j", Nodes: []int{0, 1}, Pattern: AllToAll(), BytesPerPair: 10}}, t0, t0.Add(2*time.Second), time.Second)
		if err != nil || len(rows) != 2*(len(got.Links)-2) {
			t.Fatalf("Simulate: %d rows, %v; want %d", len(rows), err, 2*(len(got.Links)-2))
		}
		for _, r := range rows {
			if got.Missing(r.Link) {
				t.Fatalf("a counter row on missing link %d", r.Link)
			}
		}
		if _, err := JobLoads(context.Background(), got, DModK(got), []Job{{ID: "j", Nodes: []int{10, 11}, Pattern: AllToAll(), BytesPerPair: 1}}); err == nil || !strings.Contains(err.Error(), "nodes[1] = 11 (node 11) is missing") {
			t.Fatalf("a job on the missing node: %v", err)
		}
		if got.Nodes[f.Node(2, 1, 1)].GUID != 0 || got.Nodes[f.Node(2, 1, 0)].GUID == 0 {
			t.Fatal("the missing node is not the one with GUID 0")
		}
	})
	t.Run("missing switch", func(t *testing.T) {
		got, warns, err := Infer(without(g, nil, func(i int) bool { return i == l2b }))
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec != s || !warned(warns, "missing switch", "pod 3", "1 of the 2") {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
	})
	t.Run("unequal pods", func(t *testing.T) {
		// Remove L1 1 of pod 0 with its nodes.
		drop := map[int]bool{devOf(false, f.L1(0, 1)): true}
		for x := range s.NodesPerL1 {
			drop[devOf(true, f.Node(0, 1, x))] = true
		}
		got, warns, err := Infer(without(g, nil, func(i int) bool { return drop[i] }))
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec != s || len(warns) != 1 || !warned(warns, "pod 0 has 1 of the 2 L1") {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
	})
	t.Run("L2 without L3", func(t *testing.T) {
		isL3 := map[int]bool{}
		for i, d := range g.Devices {
			if d.Kind == SwitchDevice && f.Switches[origin[i]].Level == 3 {
				isL3[i] = true
			}
		}
		h := without(g, func(c Cable) bool {
			return c.A.Device == l2b && isL3[c.B.Device] || c.B.Device == l2b && isL3[c.A.Device]
		}, nil)
		got, warns, err := Infer(h)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := anonymous(got), anonymous(f); !reflect.DeepEqual(a, b) || len(warns) != 3 ||
			!warned(warns, g.Devices[l2b].Name, "no cable to an L3", "bundle 1") || !warned(warns, "missing cable", g.Devices[l2b].Name) {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
		if n := len(got.MissingLinks()); n != 4 {
			t.Fatalf("%d missing links, want the 4 of the two cables", n)
		}
		if got.Switches[f.L2(3, 1)].Name != g.Devices[l2b].Name {
			t.Fatalf("L2 p3 s1 is %s, want %s", got.Switches[f.L2(3, 1)].Name, g.Devices[l2b].Name)
		}
	})
	t.Run("cross link", func(t *testing.T) {
		h := g
		h.Cables = append(h.Cables[:len(h.Cables):len(h.Cables)], Cable{Endpoint{l3, 9}, Endpoint{devOf(false, f.L3(0, 0)), 9}})
		h.Devices = append([]Device(nil), g.Devices...)
		h.Devices[l3].Ports = 9
		h.Devices[devOf(false, f.L3(0, 0))].Ports = 9
		got, warns, err := Infer(h)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := anonymous(got), anonymous(f); !reflect.DeepEqual(a, b) || len(warns) != 1 || !warned(warns, "extra cable between two L3", "port 9") {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
	})
	t.Run("other ports", func(t *testing.T) {
		h := g
		h.Cables = append([]Cable(nil), g.Cables...)
		for i, c := range h.Cables {
			if c.A.Device == l3 {
				h.Cables[i].A.Port += 10
			}
			if c.B.Device == l3 {
				h.Cables[i].B.Port += 10
			}
		}
		h.Devices = append([]Device(nil), g.Devices...)
		h.Devices[l3].Ports = 0
		got, warns, err := Infer(h)
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec != s || len(warns) != 1 || !warned(warns, "4 of 48 cables use other port numbers") {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
		// The moved ports translate both ways; the others are themselves.
		sw := f.L3(1, 1)
		for p := 1; p <= len(got.Switches[sw].Ports); p++ {
			if phys := got.PhysicalPort(sw, p); phys != p+10 || got.ModelPort(sw, phys) != p || got.ModelPort(sw, p) != 0 {
				t.Fatalf("L3 port %d: physical %d, back %d, port %d as physical → %d", p, phys, got.ModelPort(sw, phys), p, got.ModelPort(sw, p))
			}
		}
		for id := range got.Switches {
			for p := 1; p <= len(got.Switches[id].Ports) && id != sw; p++ {
				l := got.Links[got.Switches[id].Ports[p-1].Out]
				want := p
				if l.To == sw {
					want = p // the L2 end of a moved cable keeps its port
				}
				if got.PhysicalPort(id, p) != want || got.ModelPort(id, p) != p {
					t.Fatalf("switch %d port %d: physical %d, model %d", id, p, got.PhysicalPort(id, p), got.ModelPort(id, p))
				}
			}
		}
		for n := range got.Nodes {
			if got.NodeHCAPort(n) != 1 {
				t.Fatalf("node %d: HCA port %d", n, got.NodeHCAPort(n))
			}
		}
	})
	t.Run("hosts on other ports", func(t *testing.T) {
		// Hosts cabled to ports 5..6 of their L1 and on HCA port 2: the
		// model keeps slots 0..1, the map gives the real numbers back.
		h := g
		h.Cables = append([]Cable(nil), g.Cables...)
		h.Devices = append([]Device(nil), g.Devices...)
		for i := range h.Devices {
			h.Devices[i].Ports = 0
		}
		for i, c := range h.Cables {
			for _, e := range []*Endpoint{&h.Cables[i].A, &h.Cables[i].B} {
				other := c.B
				if e == &h.Cables[i].B {
					other = c.A
				}
				if g.Devices[e.Device].Kind == HostDevice {
					e.Port = 2
				} else if g.Devices[other.Device].Kind == HostDevice {
					e.Port += 4
				}
			}
		}
		got, warns, err := Infer(h)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := anonymous(got), anonymous(f); !reflect.DeepEqual(a, b) || len(warns) != 1 || !warned(warns, "16 of 48 cables use other port numbers") {
			t.Fatalf("spec %v, warnings %v", got.Spec, warns)
		}
		for n, nd := range got.Nodes {
			if got.NodeHCAPort(n) != 2 || got.PhysicalPort(nd.Switch, nd.Slot+1) != nd.Slot+5 || got.ModelPort(nd.Switch, nd.Slot+5) != nd.Slot+1 {
				t.Fatalf("node %d: HCA port %d, L1 port %d", n, got.NodeHCAPort(n), got.PhysicalPort(nd.Switch, nd.Slot+1))
			}
		}
	})
}

func TestInferErrors(t *testing.T) {
	two := build(t, twoLevelSpec)
	g, _ := discoverFabric(two, 3)
	// Two planes: two copies of the same two-level tree.
	planes := Discovered{Devices: append(append([]Device(nil), g.Devices...), g.Devices...)}
	planes.Cables = append(planes.Cables, g.Cables...)
	for _, c := range g.Cables {
		c.A.Device += len(g.Devices)
		c.B.Device += len(g.Devices)
		planes.Cables = append(planes.Cables, c)
	}
	// A host with two HCA ports on the two planes.
	dual := Discovered{Devices: append([]Device(nil), planes.Devices...), Cables: planes.Cables}
	dual.Devices = append(dual.Devices, Device{Kind: HostDevice, Name: "dual", Ports: 2})
	// Give the host a port on the first L1 of each plane: add a free port to both.
	l1a, l1b := -1, -1
	for i, d := range planes.Devices {
		if d.Kind == SwitchDevice && d.Ports == twoLevelSpec.Ports(1) {
			if i < len(g.Devices) && l1a < 0 {
				l1a = i
			} else if i >= len(g.Devices) && l1b < 0 {
				l1b = i
			}
		}
	}
	dual.Devices[l1a].Ports++
	dual.Devices[l1b].Ports++
	dual.Cables = append(dual.Cables[:len(dual.Cables):len(dual.Cables)],
		Cable{Endpoint{len(dual.Devices) - 1, 1}, Endpoint{l1a, dual.Devices[l1a].Ports}},
		Cable{Endpoint{len(dual.Devices) - 1, 2}, Endpoint{l1b, dual.Devices[l1b].Ports}})

	// A ring of 6 switches with 2 hosts each (a 1-D torus).
	var ring Discovered
	for i := range 6 {
		ring.Devices = append(ring.Devices, Device{Kind: SwitchDevice, Name: fmt.Sprintf("r%d", i), Ports: 4})
	}
	for i := range 6 {
		ring.Cables = append(ring.Cables, Cable{Endpoint{i, 3}, Endpoint{(i + 1) % 6, 4}})
		for x := range 2 {
			ring.Devices = append(ring.Devices, Device{Kind: HostDevice, Ports: 1})
			ring.Cables = append(ring.Cables, Cable{Endpoint{len(ring.Devices) - 1, 1}, Endpoint{i, x + 1}})
		}
	}
	// A ring of 10 switches with hosts on one: 6 levels.
	var deep Discovered
	for i := range 10 {
		deep.Devices = append(deep.Devices, Device{Kind: SwitchDevice, Ports: 3})
		deep.Cables = append(deep.Cables, Cable{Endpoint{i, 2}, Endpoint{(i + 1) % 10, 3}})
	}
	deep.Devices = append(deep.Devices, Device{Kind: HostDevice, Ports: 1})
	deep.Cables = append(deep.Cables, Cable{Endpoint{10, 1}, Endpoint{0, 1}})
	// One switch with hosts.
	single := Discovered{Devices: []Device{{Kind: SwitchDevice, Ports: 2}, {Kind: HostDevice}, {Kind: HostDevice}},
		Cables: []Cable{{Endpoint{1, 1}, Endpoint{0, 1}}, {Endpoint{2, 1}, Endpoint{0, 2}}}}

	// One L1 with 30 hosts and 30 L1 with one host under one L2.
	lopsided := Discovered{Devices: []Device{{Kind: SwitchDevice}}}
	for i := range 31 {
		lopsided.Devices = append(lopsided.Devices, Device{Kind: SwitchDevice})
		l1 := len(lopsided.Devices) - 1
		lopsided.Cables = append(lopsided.Cables, Cable{Endpoint{l1, 40}, Endpoint{0, i + 1}})
		for x := range max(1, 30*(1-min(i, 1))) {
			lopsided.Devices = append(lopsided.Devices, Device{Kind: HostDevice})
			lopsided.Cables = append(lopsided.Cables, Cable{Endpoint{len(lopsided.Devices) - 1, 1}, Endpoint{l1, x + 1}})
		}
	}

	for _, c := range []struct {
		name string
		g    Discovered
		want string
	}{
		{"lopsided", lopsided, "too irregular for a fat-tree: the regular pattern that holds every device (1 pods × 31 L1 × 30 nodes, 1 L2/pod, cables 1/0) has 962 devices, more than twice the 92 found"},
		{"two planes", planes, "2 disconnected fabrics"},
		{"dual-port host", dual, "cabled on 2 ports"},
		{"torus", ring, "without clear levels"},
		{"deep", deep, "more than 3 switch levels"},
		{"one level", single, "only one switch level"},
		{"empty", Discovered{}, "no host is cabled"},
		{"bad device", Discovered{Devices: []Device{{}}, Cables: []Cable{{Endpoint{0, 1}, Endpoint{3, 1}}}}, "names device 3"},
		{"bad port", Discovered{Devices: []Device{{}, {Kind: SwitchDevice, Ports: 2}}, Cables: []Cable{{Endpoint{0, 1}, Endpoint{1, 3}}}}, "has ports 1..2"},
		{"port twice", Discovered{Devices: []Device{{}, {}, {Kind: SwitchDevice}}, Cables: []Cable{{Endpoint{0, 1}, Endpoint{2, 1}}, {Endpoint{1, 1}, Endpoint{2, 1}}}}, "has two cables"},
		{"host to host", Discovered{Devices: []Device{{}, {}}, Cables: []Cable{{Endpoint{0, 1}, Endpoint{1, 1}}}}, "joins two hosts"},
		{"loop", Discovered{Devices: []Device{{Kind: SwitchDevice}}, Cables: []Cable{{Endpoint{0, 1}, Endpoint{0, 2}}}}, "its own port"},
	} {
		_, _, err := Infer(c.g)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestInferIgnored(t *testing.T) {
	f := build(t, KAry(4))
	g, _ := discoverFabric(f, 11)
	g.Devices = append(g.Devices, Device{Kind: HostDevice, Name: "lonely"}, Device{Kind: SwitchDevice, Name: "spare1", Ports: 4}, Device{Kind: SwitchDevice, Name: "spare2", Ports: 4})
	n := len(g.Devices)
	g.Cables = append(g.Cables, Cable{Endpoint{n - 2, 1}, Endpoint{n - 1, 1}})
	got, warns, err := Infer(g)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := anonymous(got), anonymous(f); !reflect.DeepEqual(a, b) || len(warns) != 2 ||
		!warned(warns, "lonely", "no cable") || !warned(warns, "spare1", "reach no host") {
		t.Fatalf("warnings %v", warns)
	}
}

// FuzzInfer decodes bytes into a small Discovered (3 bytes a cable:
// device, device, ports) and checks that Infer neither panics nor returns
// a Fabric that does not hold every cabled host.
func FuzzInfer(f *testing.F) {
	for _, s := range []Spec{KAry(2), KAry(4), twoLevelSpec} {
		g, _ := discoverFabric(build(f, s), 1)
		var b []byte
		b = append(b, byte(len(g.Devices)))
		for _, d := range g.Devices {
			b = append(b, byte(d.Kind))
		}
		for _, c := range g.Cables {
			b = append(b, byte(c.A.Device), byte(c.B.Device), byte(c.A.Port)<<4|byte(c.B.Port)&15)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		n := int(b[0])
		b = b[1:]
		var g Discovered
		for i := 0; i < n && len(b) > 0; i++ {
			g.Devices = append(g.Devices, Device{Kind: DeviceKind(b[0] % 2), GUID: uint64(i + 1)})
			b = b[1:]
		}
		if len(g.Devices) == 0 {
			return
		}
		for ; len(b) >= 3; b = b[3:] {
			g.Cables = append(g.Cables, Cable{
				A: Endpoint{int(b[0]) % len(g.Devices), int(b[2]>>4) + 1},
				B: Endpoint{int(b[1]) % len(g.Devices), int(b[2]&15) + 1},
			})
		}
		fab, _, err := Infer(g)
		if err != nil {
			return
		}
		hosts := 0
		for _, nd := range fab.Nodes {
			if nd.GUID != 0 {
				hosts++
			}
		}
		if hosts == 0 || hosts > len(fab.Nodes) {
			t.Fatalf("%d hosts placed", hosts)
		}
	})
}
