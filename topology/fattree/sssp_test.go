package fattree

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// mustTable is tab, or a panic with err.
func mustTable(tab *Table, err error) *Table {
	if err != nil {
		panic(err)
	}
	return tab
}

// Every route of SSSP and JobAware is minimal and loop-free, on every
// kind of tree.
func TestBalancedMinimal(t *testing.T) {
	ctx := context.Background()
	for _, s := range []Spec{KAry(4), KAry(6), parallelSpec, twoLevelSpec} {
		f := build(t, s)
		job := Job{ID: "j", Nodes: []int{0, len(f.Nodes) - 1, len(f.Nodes) / 2, 1}}
		for i, r := range []Routing{mustTable(SSSP(ctx, f)), mustTable(JobAware(ctx, f, []Job{job}))} {
			for src := range f.Nodes {
				for d := range f.Nodes {
					p, err := Route(f, r, src, d)
					if err != nil {
						t.Fatalf("%v routing %d: %v", s, i, err)
					}
					if len(p.Switches) != f.Distance(src, d) {
						t.Fatalf("%v routing %d: route %d → %d visits %s, want %d switches", s, i, src, d, f.switchNames(p.Switches), f.Distance(src, d))
					}
					if src != d {
						checkPath(t, f, src, d, p)
					}
				}
			}
		}
	}
}

// SSSP balances an all-to-all on KAry(4) as well as D-mod-k: the loads
// of TestAllToAllHand on every link of a kind.
func TestSSSPKAry4(t *testing.T) {
	f := build(t, KAry(4))
	l := loads(t, f, mustTable(SSSP(context.Background(), f)), nil)
	want := [NumKinds][2]int64{same(15), same(15), same(14), same(14), same(12), same(12)}
	if got := kindLoads(l); got != want {
		t.Errorf("SSSP loads per kind %v, want %v", got, want)
	}
}

// JobAware is never worse than D-mod-k on the job's own worst link. On
// Paper1296 the stride job (nodes 0, 18, 36, …: one per L1) puts 71
// routes on its L1–L2 links and 54 on its L2–L3 links under D-mod-k
// (TestAllToAllHand); JobAware brings its worst inter-switch link down to
// 8 routes (no routing can do better than ⌈71/18⌉ = 4: an L1's 71 routes
// leave on 18 up links), SSSP, which balances every node's routes rather
// than the job's, to 18.
func TestJobAwareStride(t *testing.T) {
	f := build(t, Paper1296())
	placed, err := Place(f, Stride, []int{72}, 0)
	if err != nil {
		t.Fatal(err)
	}
	job := Job{ID: "stride", Nodes: placed[0], Pattern: AllToAll(), BytesPerPair: 1}
	ja := mustTable(JobAware(context.Background(), f, []Job{job}))
	sssp := mustTable(SSSP(context.Background(), f))
	worst := func(r Routing) (cells, all int64) {
		l := loads(t, f, r, job.Nodes)
		for k := Kind(0); k < NumKinds; k++ {
			m := l.Stats(k).Max
			all = max(all, m)
			if k.Cell() {
				cells = max(cells, m)
			}
		}
		return cells, all
	}
	dc, da := worst(DModK(f))
	jc, ja2 := worst(ja)
	sc, _ := worst(sssp)
	t.Logf("stride job, worst inter-switch link: D-mod-k %d, JobAware %d, SSSP %d", dc, jc, sc)
	if dc != 71 || jc > dc || ja2 > da || sc != 18 {
		t.Errorf("worst inter-switch link: D-mod-k %d (want 71), JobAware %d; any link %d vs %d", dc, jc, da, ja2)
	}
	if jc != 8 {
		t.Errorf("JobAware puts %d routes on an inter-switch link, want 8", jc)
	}
}

func TestBalancedErrors(t *testing.T) {
	f := build(t, KAry(4))
	if _, err := JobAware(context.Background(), f, []Job{{ID: "x", Nodes: []int{3, 3}}}); err == nil || !strings.Contains(err.Error(), `job 0 ("x")`) {
		t.Errorf("bad job: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SSSP(ctx, f); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func BenchmarkSSSPPaper3200(b *testing.B) {
	f := build(b, Paper3200())
	for b.Loop() {
		if _, err := SSSP(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}
