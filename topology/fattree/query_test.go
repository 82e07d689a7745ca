package fattree

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Footprints and reach on KAry(4) with D-mod-k, by hand (node d is
// 4p + 2i + x; an L1 goes up to L2 d mod 2, an L2 to L3 ⌊d/2⌋ mod 2).
func TestFootprintHand(t *testing.T) {
	f := build(t, KAry(4))
	r := DModK(f)
	ctx := context.Background()
	up := func(sw, port int) int { return f.Switches[sw].Ports[port-1].Out }
	l1a, l1b, l2 := f.L1(0, 0), f.L1(0, 1), f.L2(0, 0)
	n := f.Nodes
	// Nodes 0 and 1 share L1 p0 s0: their host links only.
	s, err := Footprint(ctx, f, r, []int{0, 1})
	if want := sorted(n[0].Up, n[1].Up, n[0].Down, n[1].Down); err != nil || !slices.Equal(s.Links, want) || !slices.Equal(s.Switches, []int{l1a}) {
		t.Errorf("footprint {0, 1}: %+v %v", s, err)
	}
	// 0 → 2 and 2 → 0 both go through L2 p0 s0 (2 mod 2 = 0 mod 2 = 0).
	s, err = Footprint(ctx, f, r, []int{2, 0})
	want02 := sorted(n[0].Up, n[2].Up, n[0].Down, n[2].Down, up(l1a, 3), up(l1b, 3), up(l2, 1), up(l2, 2))
	if err != nil || !slices.Equal(s.Links, want02) || !slices.Equal(s.Switches, []int{l1a, l1b, l2}) {
		t.Errorf("footprint {2, 0}: %+v %v, want links %v", s, err, want02)
	}
	// TreeScope's rule: links ∩, switches ∪; or links ∪.
	s, err = Footprints(ctx, f, r, [][]int{{0, 1}, {0, 2}}, false)
	if err != nil || !slices.Equal(s.Links, sorted(n[0].Up, n[0].Down)) || !slices.Equal(s.Switches, []int{l1a, l1b, l2}) {
		t.Errorf("footprints ∩: %+v %v", s, err)
	}
	s, err = Footprints(ctx, f, r, [][]int{{0, 1}, {0, 2}}, true)
	if err != nil || !slices.Equal(s.Links, sorted(append(want02, n[1].Up, n[1].Down)...)) || len(s.Switches) != 3 {
		t.Errorf("footprints ∪: %+v %v", s, err)
	}
	if s, err := Footprints(ctx, f, r, nil, false); err != nil || s.Links != nil {
		t.Errorf("no sets: %+v %v", s, err)
	}
	if _, err := Footprints(ctx, f, r, [][]int{{0}, {99}}, false); err == nil || !strings.Contains(err.Error(), "footprint of set 1") {
		t.Errorf("bad set: %v", err)
	}
	// The whole fabric's footprint is every link and switch.
	if s, err := Footprint(ctx, f, r, nil); err != nil || len(s.Links) != len(f.Links) || len(s.Switches) != len(f.Switches) {
		t.Errorf("footprint of all: %d links, %d switches, %v", len(s.Links), len(s.Switches), err)
	}

	for _, c := range []struct {
		link int
		want []int
	}{
		// L1 p0 s0 → L2 p0 s0 carries the even destinations outside L1 p0 s0.
		{up(l1a, 3), []int{2, 4, 6, 8, 10, 12, 14}},
		// L3 b0 s0 carries d with d mod 2 = 0 and ⌊d/2⌋ mod 2 = 0, i.e. 0, 4,
		// 8, 12; its link down to pod 1 only 4.
		{f.Switches[f.L3(0, 0)].Ports[1].Out, []int{4}},
		{n[0].Up, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{n[5].Down, []int{5}},
	} {
		got, err := Reach(ctx, f, r, c.link)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("reach of %s: %v %v, want %v", linkNamed(f, c.link), got, err, c.want)
		}
	}
	reach, _ := Reach(ctx, f, r, up(l1a, 3))
	if got := Combine(reach, []int{7, 6, 5, 4, 3, 2, 1, 0}); !slices.Equal(got, []int{2, 4, 6}) {
		t.Errorf("combine: %v", got)
	}
	if _, err := Reach(ctx, f, r, len(f.Links)); err == nil || !strings.Contains(err.Error(), "links 0..") {
		t.Errorf("reach of a missing link: %v", err)
	}
	if _, err := Reach(ctx, f, NewTable(f), up(l1a, 3)); err == nil || !strings.Contains(err.Error(), "no route to node 0") {
		t.Errorf("reach with an empty table: %v", err)
	}
}

// Reach agrees with following every route, on every link of KAry(4) and
// of parallelSpec, for D-mod-k and a random routing.
func TestReachBrute(t *testing.T) {
	for _, s := range []Spec{KAry(4), parallelSpec} {
		f := build(t, s)
		for _, r := range []Routing{DModK(f), Random(f, 4)} {
			want := make([][]int, len(f.Links))
			for d := range f.Nodes {
				hit := make([]bool, len(f.Links))
				for src := range f.Nodes {
					p, _ := Route(f, r, src, d)
					for _, id := range p.Links {
						hit[id] = true
					}
				}
				for id, ok := range hit {
					if ok {
						want[id] = append(want[id], d)
					}
				}
			}
			for id := range f.Links {
				got, err := Reach(context.Background(), f, r, id)
				if err != nil || !slices.Equal(got, want[id]) {
					t.Fatalf("%v reach of %s: %v %v, want %v", s, linkNamed(f, id), got, err, want[id])
				}
			}
		}
	}
}

func sorted(ids ...int) []int {
	slices.Sort(ids)
	return ids
}

// The two jobs of TestMetricsHand: on L1 p0 s0 → L2 p0 s0 the ring's rank
// 1 → 2 and the pair's rank 0 → 1 (node 1 → 2), 2 MB/s each, half each.
func TestWhoUsesHand(t *testing.T) {
	f := build(t, KAry(4))
	r := DModK(f)
	jobs := []Job{
		{ID: "ring", Nodes: []int{0, 1, 2, 3}, Pattern: Ring(), BytesPerPair: 2e6},
		{ID: "pair", Nodes: []int{1, 2}, Pattern: Ring(), BytesPerPair: 2e6},
		{ID: "far", Nodes: []int{8, 12}, Pattern: AllToAll(), BytesPerPair: 1},
	}
	link := f.Switches[f.L1(0, 0)].Ports[2].Out
	got, err := WhoUses(f, r, jobs, link)
	if err != nil {
		t.Fatal(err)
	}
	want := []Use{
		{Job: 0, ID: "ring", Pairs: [][2]int{{1, 2}}, Bytes: 2e6, Share: 0.5},
		{Job: 1, ID: "pair", Pairs: [][2]int{{0, 1}}, Bytes: 2e6, Share: 0.5},
	}
	if len(got) != len(want) {
		t.Fatalf("who uses %s: %+v", linkNamed(f, link), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Job != w.Job || g.ID != w.ID || !slices.Equal(g.Pairs, w.Pairs) || g.Bytes != w.Bytes || g.Share != w.Share {
			t.Errorf("use %d: %+v, want %+v", i, g, w)
		}
	}
	// On every link, WhoUses agrees with JobLoads.
	tr := jobLoads(t, f, r, jobs)
	for id := range f.Links {
		uses, err := WhoUses(f, r, jobs, id)
		if err != nil {
			t.Fatal(err)
		}
		sum, share := 0.0, 0.0
		for _, u := range uses {
			if int64(len(u.Pairs)) != tr.Jobs[u.Job].Routes[id] || u.Bytes != tr.Jobs[u.Job].Links[id] {
				t.Fatalf("%s: %+v, job loads %d routes", linkNamed(f, id), u, tr.Jobs[u.Job].Routes[id])
			}
			sum += u.Bytes
			share += u.Share
		}
		if sum != tr.Links[id] || len(uses) > 0 && (share < 0.999999 || share > 1.000001) {
			t.Fatalf("%s: uses sum to %v (shares %v), loads %v", linkNamed(f, id), sum, share, tr.Links[id])
		}
	}
	for _, c := range []struct {
		jobs []Job
		link int
		want string
	}{
		{jobs, -1, "links 0.."},
		{[]Job{{ID: "bad", Nodes: []int{1, 1}}}, link, `job 0 ("bad")`},
		{[]Job{{ID: "loop", Nodes: []int{9, 0}}}, link, "loop"},
	} {
		r := Routing(r)
		if c.want == "loop" {
			r = portRouting{f, 3}
		}
		if _, err := WhoUses(f, r, c.jobs, c.link); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v on link %d: %v, want %q", c.jobs, c.link, err, c.want)
		}
	}
}
