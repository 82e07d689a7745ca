package fattree

import (
	"testing"
	"time"
)

type constRouting int

func (c constRouting) Port(sw, dst int) int { return int(c) }

func TestRoutingsAt(t *testing.T) {
	t0 := time.Date(2017, 8, 23, 10, 0, 0, 0, time.UTC)
	rs := Routings{
		{From: t0.Add(time.Hour), Routing: constRouting(2)},
		{From: t0, Routing: constRouting(1)},
		{From: t0.Add(2 * time.Hour), Routing: constRouting(3)},
		{From: t0.Add(2 * time.Hour), Routing: constRouting(4)},
	}
	rs.Sort()
	for i, want := range []int{1, 2, 3, 4} {
		if got := int(rs[i].Routing.(constRouting)); got != want {
			t.Fatalf("after Sort, rs[%d] is routing %d, want %d", i, got, want)
		}
	}
	for _, c := range []struct {
		at   time.Duration
		want int
	}{
		{-time.Hour, 1},           // before the first: the first
		{0, 1},                    // exactly at From
		{59 * time.Minute, 1},     // just before the second
		{time.Hour, 2},            // exactly at the second
		{90 * time.Minute, 2},     // between
		{2 * time.Hour, 4},        // two with the same From: the last
		{1000 * time.Hour, 4},     // after the last
		{-1000000 * time.Hour, 1}, // long before
	} {
		got := rs.At(t0.Add(c.at))
		if int(got.(constRouting)) != c.want {
			t.Errorf("At(t0%+v) = routing %d, want %d", c.at, int(got.(constRouting)), c.want)
		}
	}
	if r := (Routings{}).At(t0); r != nil {
		t.Errorf("empty Routings: At = %v, want nil", r)
	}
	one := Routings{{From: t0, Routing: constRouting(7)}}
	if int(one.At(t0.Add(-time.Second)).(constRouting)) != 7 || int(one.At(t0.Add(time.Second)).(constRouting)) != 7 {
		t.Error("a single routing is active at every time")
	}
}
