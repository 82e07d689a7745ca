package fattree

import (
	"context"
	"slices"
	"testing"
)

// TestDestinationsHand: on KAry(4) (nodes have LIDs 1–16, switch id s
// LID 17+s) a Table where L1 p0 s0 (switch 0) sends nodes 5 and 7 (LIDs
// 6, 8) and switch 8 (L2 p0 s0, LID 25) out of port 3, and switch 9 (LID
// 26) out of port 4: port 3's link has destinations 6, 8, 25, port 4's
// 26. Without the switch routes (a Routing of nodes only), 6 and 8.
func TestDestinationsHand(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	tab := NewTable(f)
	for _, e := range []error{tab.SetPort(0, 5, 3), tab.SetPort(0, 7, 3), tab.SetSwitchRoute(0, 8, 3), tab.SetSwitchRoute(0, 9, 4)} {
		if e != nil {
			t.Fatal(e)
		}
	}
	up3, up4 := f.Switches[0].Ports[2].Out, f.Switches[0].Ports[3].Out
	for _, c := range []struct {
		r    Routing
		link int
		want []int
	}{
		{tab, up3, []int{6, 8, 25}},
		{tab, up4, []int{26}},
		{nodesOnly{tab}, up3, []int{6, 8}},
		{tab, f.Nodes[0].Down, nil},
	} {
		got, err := Destinations(f, c.r, c.link)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("link %d: %v %v, want %v", c.link, got, err, c.want)
		}
	}
	copied, err := TableOf(context.Background(), f, tab)
	if err != nil || copied.SwitchRoute(0, 8) != 3 || copied.SwitchRoute(0, 9) != 4 || copied.Port(0, 5) != 3 {
		t.Errorf("TableOf lost routes: %v", err)
	}
	if tab.SwitchRoute(0, 8) != 3 || tab.SwitchRoute(1, 8) != 0 || tab.SwitchRoute(-1, 0) != 0 || NewTable(f).SwitchRoute(0, 8) != 0 {
		t.Error("SwitchRoute")
	}
	for _, bad := range [][3]int{{-1, 0, 1}, {0, 20, 1}, {0, 1, MaxPorts + 1}} {
		if tab.SetSwitchRoute(bad[0], bad[1], bad[2]) == nil {
			t.Errorf("SetSwitchRoute%v is accepted", bad)
		}
	}
	for _, link := range []int{-1, len(f.Links), f.Nodes[3].Up} {
		if _, err := Destinations(f, tab, link); err == nil {
			t.Errorf("link %d has destinations", link)
		}
	}
}

type nodesOnly struct{ t *Table }

func (r nodesOnly) Port(sw, dst int) int { return r.t.Port(sw, dst) }

// TestDestinationsCoverReach: on KAry(4) under D-mod-k, every node whose
// traffic crosses a switch's link (Reach) is among the LIDs its table
// sends out of that port (Destinations), and an L2's up link lists the
// 12 nodes outside its pod though Reach finds fewer: only its pod's
// traffic arrives there.
func TestDestinationsCoverReach(t *testing.T) {
	f, err := Build(KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	r := DModK(f)
	for id, l := range f.Links {
		if l.Kind == Up01 {
			continue
		}
		reach, err := Reach(context.Background(), f, r, id)
		if err != nil {
			t.Fatal(err)
		}
		dests, err := Destinations(f, r, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range reach {
			if _, ok := slices.BinarySearch(dests, int(f.Nodes[d].LID)); !ok {
				t.Fatalf("link %d: node %d is reached but not a destination %v", id, d, dests)
			}
		}
	}
	first, _ := f.KindLinks(Up23)
	dests, _ := Destinations(f, r, first)
	reach, _ := Reach(context.Background(), f, r, first)
	if len(reach) >= len(dests) {
		t.Errorf("L2 up link: reach %v, destinations %v", reach, dests)
	}
}
