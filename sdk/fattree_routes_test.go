package sdk

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"superstep/display/views"
	"superstep/topology/fattree"
)

// routeUnion is the item ids of the routes of every ordered pair of
// srcs × dsts (distinct nodes), by fattree.Route: the answer the board's
// route clicks must give.
func routeUnion(t *testing.T, f *fattree.Fabric, r fattree.Routing, srcs, dsts []int, keep func(link int) bool) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range srcs {
		for _, d := range dsts {
			if s == d {
				continue
			}
			p, err := fattree.Route(f, r, s, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range p.Links {
				if keep(l) {
					seen[boardItem(f, l)] = true
				}
			}
		}
	}
	var ids []string
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// boardItem is the board's item id of link l (sdk.FatTree's naming: the
// first link of a switch pair names the pair's item).
func boardItem(f *fattree.Fabric, l int) string {
	k := f.Links[l]
	if !k.Kind.Cell() {
		return fmt.Sprintf("l%d", l)
	}
	for id, o := range f.Links {
		if o.Kind.Cell() && o.From == k.From && o.To == k.To {
			return fmt.Sprintf("c%d", id)
		}
	}
	return ""
}

// The board's route clicks, computed in Go, against fattree.Route by hand:
// an L1 as source and another as destination give the routes between
// their nodes; a cell alone gives the routes through it (d(ℓ)); with a job
// selected, only those to and from its nodes (d(ℓ) ∩ N(J)).
func TestFatTreeBoardRoutes(t *testing.T) {
	f := k4(t)
	r := fattree.DModK(f)
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	job := fattree.Job{ID: "half", Nodes: []int{0, 1, 2, 3, 4, 5, 6, 7}, Pattern: fattree.AllToAll(), BytesPerPair: 1, Start: start, End: start.Add(time.Hour)}
	rows, err := fattree.Simulate(context.Background(), f, r, []fattree.Job{job}, start, start.Add(time.Hour), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fatTreeBoard(context.Background(), f, rows, FatTreeOptions{Jobs: []fattree.Job{job}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Routes == nil || len(d.Routes.Endpoints) != 16 || len(d.Routes.Headers) != 20 {
		t.Fatalf("routes: %+v", d.Routes)
	}
	v := views.MatrixBoard(d)
	hdr := switchHeaderIDs(f)

	// L1(0,0) → L1(3,0): nodes 0, 1 to 12, 13.
	items, headers, err := v.RouteItems(views.MatrixSelection{Headers: []string{hdr[f.L1(0, 0)]}}, views.MatrixSelection{Headers: []string{hdr[f.L1(3, 0)]}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(items)
	// The host links into L1(0,0) are before the source; the links out of
	// L1(3,0) after the destination.
	inner := func(l int) bool { return f.Links[l].Kind.Cell() }
	if want := routeUnion(t, f, r, []int{0, 1}, []int{12, 13}, inner); !slices.Equal(items, want) {
		t.Errorf("L1(0,0) → L1(3,0): %v, want %v", items, want)
	}
	// 0→12 and 0→13 both go up by L2(0,1) (D-mod-k: 12 and 13 are even
	// and odd… by hand: d mod 2 picks the L2, d/2 mod 2 the L3).
	if !slices.Contains(headers, hdr[f.L1(0, 0)]) || !slices.Contains(headers, hdr[f.L1(3, 0)]) {
		t.Errorf("headers %v lack the ends", headers)
	}

	// A cell alone: every route through it, from where it starts to the ends.
	up := -1
	for id, l := range f.Links {
		if l.Kind == fattree.Up12 && l.From == f.L1(0, 0) {
			up = id
			break
		}
	}
	cell := boardItem(f, up)
	items, _, err = v.RouteItems(views.MatrixSelection{Items: []string{cell}}, views.MatrixSelection{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(items)
	var reach []int // d(ℓ): the destinations whose routes from nodes 0, 1 take ℓ
	for dst := 2; dst < 16; dst++ {
		p, err := fattree.Route(f, r, 0, dst)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(p.Links, up) {
			reach = append(reach, dst)
		}
	}
	if len(reach) == 0 {
		t.Fatal("the link reaches nothing")
	}
	onward := func(l int) bool {
		return f.Links[l].Kind != fattree.Up01 && !(f.Links[l].Kind == fattree.Up12 && f.Links[l].From == f.L1(0, 0) && l != up)
	}
	if want := routeUnion(t, f, r, []int{0, 1}, reach, onward); !slices.Equal(items, want) {
		t.Errorf("from %s: %v, want %v (d(ℓ) = %v)", cell, items, want, reach)
	}

	// With the job selected: only its nodes, 0..7.
	items, _, err = v.RouteItems(views.MatrixSelection{Items: []string{cell}}, views.MatrixSelection{}, []string{"half"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(items)
	var inJob []int
	for _, n := range reach {
		if n < 8 {
			inJob = append(inJob, n)
		}
	}
	if want := routeUnion(t, f, r, []int{0, 1}, inJob, onward); !slices.Equal(items, want) {
		t.Errorf("from %s, job half: %v, want %v (d(ℓ) ∩ N(J) = %v)", cell, items, want, inJob)
	}

	// Nothing selected: nothing; unknown names: errors.
	if items, _, err := v.RouteItems(views.MatrixSelection{}, views.MatrixSelection{}, nil); err != nil || len(items) != 0 {
		t.Errorf("empty selection: %v, %v", items, err)
	}
	if _, _, err := v.RouteItems(views.MatrixSelection{Headers: []string{"nope"}}, views.MatrixSelection{}, nil); err == nil {
		t.Error("an unknown header: no error")
	}
}

// A forwarding table over MatrixRoutesPayload is left out with a note.
func TestFatTreeBoardRoutesTooLarge(t *testing.T) {
	f, err := fattree.Build(fattree.KAry(36)) // 1,620 switches × 11,664 nodes
	if err != nil {
		t.Fatal(err)
	}
	d, err := fatTreeBoard(context.Background(), f, nil, FatTreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Routes != nil || d.RoutesNote == "" {
		t.Fatalf("routes shipped for KAry(36): %v %q", d.Routes != nil, d.RoutesNote)
	}
}
