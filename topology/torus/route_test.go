package torus

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// hops renders a route as "(x,y) +x (x,y) …": the start, then each hop's
// direction and dimension and the node it reaches.
func hops(tr *Torus, u int, route []int) string {
	coord := func(v int) string {
		return strings.ReplaceAll(fmt.Sprint(tr.Coord(v)), " ", ",")
	}
	var b strings.Builder
	b.WriteString(coord(u))
	at := u
	for _, id := range route {
		c := tr.Channel(id)
		if c.Node != at {
			return b.String() + fmt.Sprintf(" [channel %d leaves %d, not %d]", id, c.Node, at)
		}
		sign := "+"
		if c.Dir < 0 {
			sign = "−"
		}
		fmt.Fprintf(&b, " %s%s %s", sign, tr.names[c.Dim], coord(c.To))
		at = c.To
	}
	return b.String()
}

func TestRouteHandTables(t *testing.T) {
	t44 := mustNew(t, []string{"x", "y"}, []int{4, 4})
	abc := []string{"a", "b", "c"}
	t234 := mustNew(t, abc, []int{2, 3, 4})
	t234one := mustNew(t, abc, []int{2, 3, 4}, Extent2Channels(1))
	t234mesh := mustNew(t, abc, []int{2, 3, 4}, Mesh("c"))
	cases := []struct {
		tr       *Torus
		from, to []int
		o        RouteOptions
		want     string
	}{
		// 4×4: x first; x 0→2 is a tie, + by default.
		{t44, []int{0, 0}, []int{2, 1}, RouteOptions{}, "[0,0] +x [1,0] +x [2,0] +y [2,1]"},
		{t44, []int{0, 0}, []int{2, 1}, RouteOptions{TieMinus: true}, "[0,0] −x [3,0] −x [2,0] +y [2,1]"},
		// x 3→0 wraps +; y 3→1 is a tie, + wraps through 0.
		{t44, []int{3, 3}, []int{0, 1}, RouteOptions{}, "[3,3] +x [0,3] +y [0,0] +y [0,1]"},
		{t44, []int{3, 3}, []int{0, 1}, RouteOptions{TieMinus: true}, "[3,3] +x [0,3] −y [0,2] −y [0,1]"},
		// y first.
		{t44, []int{3, 3}, []int{0, 1}, RouteOptions{Order: []int{1, 0}}, "[3,3] +y [3,0] +y [3,1] +x [0,1]"},
		// Shortest way: 1→0 is −, 0→3 is −.
		{t44, []int{1, 0}, []int{0, 3}, RouteOptions{}, "[1,0] −x [0,0] −y [0,3]"},
		{t44, []int{2, 2}, []int{2, 2}, RouteOptions{}, "[2,2]"},
		// 2×3×4: a is a tie at 1 (extent 2): the + channel; b 0→2 is −
		// (1 step against 2); c 0→2 is a tie, +.
		{t234, []int{0, 0, 0}, []int{1, 2, 2}, RouteOptions{}, "[0,0,0] +a [1,0,0] −b [1,2,0] +c [1,2,1] +c [1,2,2]"},
		{t234, []int{0, 0, 0}, []int{1, 2, 2}, RouteOptions{TieMinus: true}, "[0,0,0] −a [1,0,0] −b [1,2,0] −c [1,2,3] −c [1,2,2]"},
		{t234, []int{1, 2, 3}, []int{0, 0, 0}, RouteOptions{Order: []int{2, 1, 0}}, "[1,2,3] +c [1,2,0] +b [1,0,0] +a [0,0,0]"},
		{t234, []int{1, 1, 1}, []int{0, 2, 3}, RouteOptions{}, "[1,1,1] +a [0,1,1] +b [0,2,1] +c [0,2,2] +c [0,2,3]"},
		// One channel on extent 2: + whatever TieMinus says.
		{t234one, []int{1, 0, 0}, []int{0, 0, 2}, RouteOptions{TieMinus: true}, "[1,0,0] +a [0,0,0] −c [0,0,3] −c [0,0,2]"},
		// Mesh c: straight, no wrap.
		{t234mesh, []int{0, 0, 3}, []int{0, 0, 0}, RouteOptions{}, "[0,0,3] −c [0,0,2] −c [0,0,1] −c [0,0,0]"},
		{t234, []int{0, 0, 3}, []int{0, 0, 0}, RouteOptions{}, "[0,0,3] +c [0,0,0]"},
		{t234mesh, []int{0, 0, 0}, []int{0, 0, 2}, RouteOptions{TieMinus: true}, "[0,0,0] +c [0,0,1] +c [0,0,2]"},
	}
	for _, c := range cases {
		u, _ := c.tr.ID(c.from)
		v, _ := c.tr.ID(c.to)
		route, err := c.tr.Route(u, v, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := hops(c.tr, u, route); got != c.want {
			t.Errorf("%s: route %v→%v %+v:\n got %s\nwant %s", c.tr, c.from, c.to, c.o, got, c.want)
		}
	}
}

func TestRouteErrors(t *testing.T) {
	tr := mustNew(t, []string{"x", "y"}, []int{4, 4})
	for _, o := range []RouteOptions{{Order: []int{0}}, {Order: []int{0, 0}}, {Order: []int{0, 2}}} {
		if _, err := tr.Route(0, 1, o); err == nil {
			t.Errorf("route order %v accepted", o.Order)
		}
	}
	if _, err := tr.Route(0, 16, RouteOptions{}); err == nil {
		t.Error("route to node 16 of 16 accepted")
	}
}

// TestRouteProperties: on random shapes a route is a path of Dist hops
// from u to v, and Router.Add loads exactly its channels.
func TestRouteProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		tr := randomTorus(t, rng)
		o := RouteOptions{TieMinus: rng.IntN(2) == 0, Order: rng.Perm(tr.Dims())}
		r, err := tr.Router(o)
		if err != nil {
			t.Fatal(err)
		}
		loads := make([]int64, tr.Channels())
		for range 30 {
			u, v := rng.IntN(tr.Nodes()), rng.IntN(tr.Nodes())
			route, err := tr.Route(u, v, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(route) != tr.Dist(u, v) {
				t.Fatalf("%s: route %d→%d has %d hops, distance %d", tr, u, v, len(route), tr.Dist(u, v))
			}
			at := u
			for _, id := range route {
				c := tr.Channel(id)
				if c.Node != at {
					t.Fatalf("%s: route %d→%d broken at channel %+v", tr, u, v, c)
				}
				at = c.To
			}
			if at != v {
				t.Fatalf("%s: route %d→%d ends at %d", tr, u, v, at)
			}
			clear(loads)
			r.Add(loads, u, v, 1)
			want := make([]int64, tr.Channels())
			for _, id := range route {
				want[id]++
			}
			for id := range loads {
				if loads[id] != want[id] {
					t.Fatalf("%s: Add %d→%d loads channel %d with %d, Route crosses it %d times", tr, u, v, id, loads[id], want[id])
				}
			}
		}
	}
}

func TestRouterAddAllocates(t *testing.T) {
	tr := mustNew(t, []string{"a", "b", "c", "d", "e"}, []int{4, 4, 4, 4, 2})
	r, _ := tr.Router(RouteOptions{})
	loads := make([]int64, tr.Channels())
	if n := testing.AllocsPerRun(100, func() { r.Add(loads, 0, tr.Nodes()-1, 1) }); n != 0 {
		t.Errorf("Router.Add allocates %v times", n)
	}
}

func ExampleTorus_Route() {
	t, _ := New([]string{"x", "y"}, []int{4, 4})
	// From (0,0) to (2,1): x first, the tie at distance 2 going +.
	route, _ := t.Route(0, 2+4*1, RouteOptions{})
	for _, id := range route {
		c := t.Channel(id)
		fmt.Println(t.Coord(c.Node), "→", t.Coord(c.To))
	}
	// Output:
	// [0 0] → [1 0]
	// [1 0] → [2 0]
	// [2 0] → [2 1]
}
