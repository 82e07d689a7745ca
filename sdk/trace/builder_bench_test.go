package trace

import (
	"context"
	"slices"
	"testing"
)

// BenchmarkMatchFD4Like feeds the 2.2 M messages of FD4Like to a Builder
// as sends and receives, process by process in time order, and matches
// them (the target: ≤ 1 s on 2 cores).
func BenchmarkMatchFD4Like(b *testing.B) {
	src := FD4Like(1)
	type ev struct {
		proc int32
		ns   int64
		m    int32
		recv bool
	}
	evs := make([]ev, 0, 2*len(src.Messages))
	for i, m := range src.Messages {
		evs = append(evs, ev{m.Src, m.SendNS, int32(i), false}, ev{m.Dst, m.RecvNS, int32(i), true})
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if a.proc != b.proc {
			return int(a.proc - b.proc)
		}
		return cmpInt64(a.ns, b.ns)
	})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bl := NewBuilder("bench")
		for range src.Processes {
			bl.AddProcess(Process{})
		}
		c := bl.Comm("MPI_COMM_WORLD")
		bl.Reserve(len(src.Messages), len(src.Messages))
		for _, e := range evs {
			m := &src.Messages[e.m]
			if e.recv {
				_ = bl.Recv(e.proc, e.ns, m.Src, c, m.Tag, m.Bytes)
			} else {
				_ = bl.Send(e.proc, e.ns, m.Dst, c, m.Tag, m.Bytes, m.Kind)
			}
		}
		tr, err := bl.Finish(context.Background())
		if err != nil || len(tr.Messages) != len(src.Messages) || len(tr.Unmatched) != 0 {
			b.Fatalf("matched %d of %d (%d unmatched): %v", len(tr.Messages), len(src.Messages), len(tr.Unmatched), err)
		}
	}
}
