package vrecord_test

import (
	"math"
	"testing"

	"superstep/sdk/vrecord"
)

// FuzzAppend feeds the record deltas made from arbitrary bytes: each is
// refused with an error or kept, never a panic, and a kept one reads back
// from Step as it was given (values of the changed vertices, states and
// counts of the touched ones, the rest halted and silent).
func FuzzAppend(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 2, 1, 3, 1, 0})
	f.Add([]byte{2, 0, 9, 1, 1, 0, 0, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := vrecord.New([]int{0, 1, 3, 4}, []int32{1, 0, 2, 1}, []float64{math.Inf(1), math.Inf(1), math.Inf(1)}, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		next := func() int32 {
			if len(b) == 0 {
				return 0
			}
			x := int32(int8(b[0]))
			b = b[1:]
			return x
		}
		for step := 0; len(b) > 0 && step < 40; step++ {
			var d vrecord.Delta
			for range next() & 3 {
				d.Changed = append(d.Changed, next())
				d.Values = append(d.Values, float64(next()))
			}
			for range next() & 3 {
				d.Touched = append(d.Touched, next())
				d.State = append(d.State, vrecord.State(next()&3))
				d.Sent = append(d.Sent, next())
				d.Received = append(d.Received, next())
			}
			for range next() & 1 {
				d.Arcs = append(d.Arcs, vrecord.ArcCount{Arc: next(), Count: next()})
				d.Broadcasts = append(d.Broadcasts, vrecord.VertexCount{Vertex: next(), Count: next()})
			}
			before := r.Len()
			if err := r.Append(d); err != nil {
				if r.Len() != before {
					t.Fatalf("a refused delta changed the record: %v", err)
				}
				continue
			}
			s := r.Step(r.Len() - 1)
			for k, v := range d.Changed {
				if s.Value[v] != d.Values[k] {
					t.Fatalf("vertex %d reads %v, was given %v", v, s.Value[v], d.Values[k])
				}
			}
			touched := map[int32]bool{}
			for k, v := range d.Touched {
				touched[v] = true
				if s.State[v] != d.State[k] || s.Sent[v] != d.Sent[k] || s.Received[v] != d.Received[k] {
					t.Fatalf("vertex %d reads %v %d %d", v, s.State[v], s.Sent[v], s.Received[v])
				}
			}
			for v := range int32(3) {
				if !touched[v] && (s.State[v] != vrecord.Halted || s.Sent[v] != 0 || s.Received[v] != 0) {
					t.Fatalf("untouched vertex %d reads %v %d %d", v, s.State[v], s.Sent[v], s.Received[v])
				}
			}
			_ = r.ArcMessages(r.Len() - 1)
		}
	})
}
