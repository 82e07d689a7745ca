package fattree

import (
	"slices"
	"testing"
)

// The ring of TestJobLoadsRingHand (nodes 0..3 of KAry(4), 2 MB/s per
// pair) and a second job, a ring of nodes 1 and 2 (1→2, 2→1) at 2 MB/s
// that shares nodes with it. 1→2 is on both jobs' routes: up 1, L1 p0 s0
// → L2 p0 s0, L2 p0 s0 → L1 p0 s1, down 2; 2→1 shares up 2 (with 2→3)
// and down 1 (with 0→1) but goes up to L2 p0 s1 (1 mod 2). So 6 links are
// shared, 2 of them between switches, and both jobs' inflation is 2.
func TestMetricsHand(t *testing.T) {
	f := build(t, KAry(4))
	tr := jobLoads(t, f, DModK(f), []Job{
		{ID: "ring", Nodes: []int{0, 1, 2, 3}, Pattern: Ring(), BytesPerPair: 2e6},
		{ID: "pair", Nodes: []int{1, 2}, Pattern: Ring(), BytesPerPair: 2e6},
	})
	up12 := func(l1, l2 int) int { return f.Switches[f.L1(0, l1)].Ports[2+l2].Out }
	down21 := func(l2, l1 int) int { return f.Switches[f.L2(0, l2)].Ports[l1].Out }
	wantShared := []int{f.Nodes[1].Up, f.Nodes[2].Up, f.Nodes[1].Down, f.Nodes[2].Down, up12(0, 0), down21(0, 1)}
	slices.Sort(wantShared)
	if got := tr.Shared(false); !slices.Equal(got, wantShared) {
		t.Errorf("shared links %v, want %v", got, wantShared)
	}
	if got := tr.Shared(true); !slices.Equal(got, []int{up12(0, 0), down21(0, 1)}) {
		t.Errorf("shared cells %v", got)
	}
	for j := range 2 {
		inf, at, err := tr.Inflation(j)
		if err != nil || inf != 2 || at != f.Nodes[1].Up {
			t.Errorf("job %d: inflation %v at link %d (%v), want 2 at %d", j, inf, at, err, f.Nodes[1].Up)
		}
	}
	if _, _, err := tr.Inflation(2); err == nil {
		t.Error("inflation of job 2 of 2")
	}
	// Up12: the ring's 1→2 (plus the pair's) on L1 p0 s0 → L2 p0 s0 = 4 MB/s,
	// 3→0 on L1 p0 s1 → L2 p0 s0 = 2 MB/s, 2→1 on L1 p0 s1 → L2 p0 s1 = 2 MB/s.
	st := tr.Stats(Up12)
	want := LoadStats{Kind: Up12, Links: 16, Used: 3, Dark: 13, Min: 0, Max: 4e6, Sum: 8e6, Mean: 0.5e6, MaxOverMean: 8,
		UsedMean: 8e6 / 3, UsedMaxOverMean: 1.5}
	if st != want {
		t.Errorf("Up12 stats %+v, want %+v", st, want)
	}
	if d := tr.Dark(Up12); len(d) != 13 || slices.Contains(d, up12(0, 0)) {
		t.Errorf("dark Up12 links %v", d)
	}
	if got := tr.Hotspots(3e6, false); !slices.Equal(got, []int{f.Nodes[1].Up, f.Nodes[2].Up, f.Nodes[1].Down, f.Nodes[2].Down, up12(0, 0), down21(0, 1)}) {
		t.Errorf("hotspots above 3 MB/s: %v", got)
	}
	// Host links: 12 MB/s over 16 links, mean 0.75 MB/s; 5× that is 3.75.
	if got := tr.Hotspots(5, true); !slices.Equal(got, wantShared) {
		t.Errorf("hotspots above 5 × mean: %v", got)
	}
	if got := tr.Hotspots(8.5, true); got != nil {
		t.Errorf("hotspots above 8.5 × mean: %v", got)
	}
}

// Done-when 10, case 2, on Paper3200 (8 pods of 400 nodes, 20 per L1)
// with D-mod-k. The jobs, for a notebook to reuse, in this order:
//
//	ring-a  400 nodes  Ring()      1 GB/s per pair
//	ring-b  200 nodes  Ring()      1 GB/s per pair
//	ring-c  200 nodes  Ring()      1 GB/s per pair
//	qbox    800 nodes  AllToAll()  10 MB/s per pair
//
// Every size is a multiple of 20 nodes, so under PodBased placement (seed
// unused) every job has whole L1s to itself: ring-a gets pod 0, ring-b and
// ring-c pod 1 (nodes 400–599, 600–799), qbox pods 2–3; no link carries
// two jobs and every inflation is exactly 1. Under Fragmented placement
// (seed 2026) the nodes are scattered over all pods; each job's nodes are
// sorted, so a ring mostly stays within a pod (ring-a's 400 pairs use 312
// inter-switch links), while qbox's 639,200 pairs use 7,492 of the 12,800:
// 380 inter-switch links carry two jobs, and the rings' inflation is 5.20,
// 5.32 and 5.32 (qbox puts about 4 GB/s where a ring puts 1 GB/s).
func TestCaseStudy2(t *testing.T) {
	f := build(t, Paper3200())
	sizes := []int{400, 200, 200, 800}
	mk := func(placed [][]int) []Job {
		return []Job{
			{ID: "ring-a", Nodes: placed[0], Pattern: Ring(), BytesPerPair: 1e9},
			{ID: "ring-b", Nodes: placed[1], Pattern: Ring(), BytesPerPair: 1e9},
			{ID: "ring-c", Nodes: placed[2], Pattern: Ring(), BytesPerPair: 1e9},
			{ID: "qbox", Nodes: placed[3], Pattern: AllToAll(), BytesPerPair: 1e7},
		}
	}
	r := DModK(f)
	pods, err := Place(f, PodBased, sizes, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr := jobLoads(t, f, r, mk(pods))
	if s := tr.Shared(true); len(s) != 0 {
		t.Errorf("pod-based: %d inter-switch links shared", len(s))
	}
	if s := tr.Shared(false); len(s) != 0 {
		t.Errorf("pod-based: %d links shared", len(s))
	}
	for j := range tr.Jobs {
		if inf, _, _ := tr.Inflation(j); inf != 1 {
			t.Errorf("pod-based: %s inflation %.2f, want 1.00", tr.Jobs[j].ID, inf)
		}
	}
	frag, err := Place(f, Fragmented, sizes, 2026)
	if err != nil {
		t.Fatal(err)
	}
	tr = jobLoads(t, f, r, mk(frag))
	shared := len(tr.Shared(true))
	if shared != 380 {
		t.Errorf("fragmented: %d inter-switch links shared, want 380", shared)
	}
	t.Logf("fragmented: %d of %d inter-switch links shared", shared, f.Spec.Cells())
	for j := range 3 {
		inf, at, _ := tr.Inflation(j)
		t.Logf("fragmented: %s inflation %.2f at %s", tr.Jobs[j].ID, inf, linkNamed(f, at))
		if inf < 2 {
			t.Errorf("fragmented: %s inflation %.2f, want ≥ 2", tr.Jobs[j].ID, inf)
		}
	}
}
