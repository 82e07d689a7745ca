package trace

import (
	"context"
	"strings"
	"testing"
)

func mustNo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestMatchFIFO feeds two processes one after the other (all of process 1
// before process 0) and checks the n-th send of a key meets the n-th
// receive, keys kept apart by tag and communicator.
func TestMatchFIFO(t *testing.T) {
	b := NewBuilder("fifo")
	p0 := b.AddProcess(Process{Name: "P0", Rank: 0})
	p1 := b.AddProcess(Process{Name: "P1", Rank: 1})
	world, sub := b.Comm("MPI_COMM_WORLD"), b.Comm("sub")
	// Process 1 receives: tag 7 three times, then tag 8 once on world, then
	// tag 7 on sub.
	mustNo(t, b.Recv(p1, 110, p0, world, 7, 10))
	mustNo(t, b.Recv(p1, 120, p0, world, 8, 40))
	mustNo(t, b.Recv(p1, 130, p0, world, 7, 20))
	mustNo(t, b.Recv(p1, 140, p0, sub, 7, 50))
	mustNo(t, b.Recv(p1, 150, p0, world, 7, 30))
	// Process 0 sends them in another interleaving of the keys.
	mustNo(t, b.Send(p0, 10, p1, world, 7, 10, Send))
	mustNo(t, b.Send(p0, 11, p1, sub, 7, 50, Isend))
	mustNo(t, b.Send(p0, 12, p1, world, 7, 20, Send))
	mustNo(t, b.Send(p0, 13, p1, world, 8, 40, Send))
	mustNo(t, b.Send(p0, 14, p1, world, 7, 30, Send))
	tr, err := b.Finish(context.Background())
	mustNo(t, err)
	if len(tr.Unmatched) != 0 {
		t.Fatalf("unmatched: %v", tr.Unmatched)
	}
	want := []struct {
		send, recv, bytes int64
		comm, tag         int32
		kind              Kind
	}{{10, 110, 10, world, 7, Send}, {11, 140, 50, sub, 7, Isend}, {12, 130, 20, world, 7, Send}, {13, 120, 40, world, 8, Send}, {14, 150, 30, world, 7, Send}}
	if len(tr.Messages) != len(want) {
		t.Fatalf("%d messages, want %d", len(tr.Messages), len(want))
	}
	for i, w := range want {
		m := tr.Messages[i]
		if m.SendNS != w.send || m.RecvNS != w.recv || m.Bytes != w.bytes || m.Comm != w.comm || m.Tag != w.tag || m.Kind != w.kind || m.Src != p0 || m.Dst != p1 {
			t.Errorf("message %d = %+v, want %+v", i, m, w)
		}
	}
	if tr.DurationNS != 150 {
		t.Errorf("duration %d, want 150 (the last event)", tr.DurationNS)
	}
}

// TestIrecvPostingOrder: two Irecvs of the same key complete in the
// reverse order of posting; the first posted gets the first message.
func TestIrecvPostingOrder(t *testing.T) {
	b := NewBuilder("irecv")
	p0 := b.AddProcess(Process{Name: "P0"})
	p1 := b.AddProcess(Process{Name: "P1"})
	c := b.Comm("world")
	mustNo(t, b.Send(p0, 1, p1, c, 0, 100, Isend))
	mustNo(t, b.Send(p0, 2, p1, c, 0, 200, Isend))
	mustNo(t, b.IrecvPosted(p1, 0xa))
	mustNo(t, b.IrecvPosted(p1, 0xb))
	mustNo(t, b.IrecvCompleted(p1, 50, 0xb, p0, c, 0, 200))
	mustNo(t, b.IrecvCompleted(p1, 60, 0xa, p0, c, 0, 100))
	tr, err := b.Finish(context.Background())
	mustNo(t, err)
	if len(tr.Messages) != 2 || tr.Messages[0].RecvNS != 60 || tr.Messages[1].RecvNS != 50 {
		t.Fatalf("messages %+v: the send at 1 ns must meet the receive posted first (completed at 60 ns)", tr.Messages)
	}
}

func TestUnmatchedListed(t *testing.T) {
	b := NewBuilder("cut")
	p0 := b.AddProcess(Process{Name: "P0"})
	p1 := b.AddProcess(Process{Name: "P1"})
	c := b.Comm("world")
	mustNo(t, b.Send(p0, 1_000_000_000, p1, c, 3, 8, Send))
	mustNo(t, b.Send(p0, 2_000_000_000, p1, c, 3, 8, Send))
	mustNo(t, b.Recv(p1, 1_500_000_000, p0, c, 3, 8))
	mustNo(t, b.Recv(p0, 3_000_000_000, p1, c, 4, 16))
	tr, err := b.Finish(context.Background())
	mustNo(t, err)
	if len(tr.Messages) != 1 || tr.Messages[0].SendNS != 1e9 {
		t.Fatalf("messages %+v", tr.Messages)
	}
	if len(tr.Unmatched) != 2 {
		t.Fatalf("unmatched %v, want 2", tr.Unmatched)
	}
	got := []string{tr.Unmatched[0].String(), tr.Unmatched[1].String()}
	want := []string{
		"send 0→1 at 2.000000000 s, 8 B, tag 3, comm 0 with no receive",
		"receive 1→0 at 3.000000000 s, 16 B, tag 4, comm 0 with no send",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("unmatched %d = %q, want %q", i, got[i], want[i])
		}
	}
	if s := tr.String(); !strings.Contains(s, "2 unmatched") {
		t.Errorf("String %q does not count the unmatched events", s)
	}
}

func TestRegionsNestAndClose(t *testing.T) {
	b := NewBuilder("regions")
	p := b.AddProcess(Process{Name: "P0"})
	main, send := b.Region("main"), b.Region("MPI_Send")
	mustNo(t, b.Enter(p, 0, main))
	mustNo(t, b.Enter(p, 10, send))
	mustNo(t, b.Leave(p, 20, send))
	mustNo(t, b.Enter(p, 30, send))
	if err := b.Leave(p, 35, main); err == nil || !strings.Contains(err.Error(), `leaves region "main", but the innermost region is "MPI_Send"`) {
		t.Fatalf("leaving the outer region first: %v", err)
	}
	mustNo(t, b.Leave(p, 40, send))
	b.SetDuration(100)
	tr, err := b.Finish(context.Background())
	mustNo(t, err)
	want := []Region{{0, 0, 100, main, 0}, {0, 10, 20, send, 1}, {0, 30, 40, send, 1}}
	if len(tr.Regions) != len(want) {
		t.Fatalf("regions %+v", tr.Regions)
	}
	for i := range want {
		if tr.Regions[i] != want[i] {
			t.Errorf("region %d = %+v, want %+v", i, tr.Regions[i], want[i])
		}
	}
	mustNo(t, tr.Validate())
}

func TestBuilderRefusesBadIndices(t *testing.T) {
	b := NewBuilder("bad")
	p := b.AddProcess(Process{Name: "P0"})
	c := b.Comm("world")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{b.Send(p, 0, 5, c, 0, 1, Send), "send on process 0: peer process 5 out of range (1 processes)"},
		{b.Recv(3, 0, p, c, 0, 1), "receive: process 3 out of range (1 processes)"},
		{b.Send(p, 0, p, 9, 0, 1, Send), "send on process 0: communicator 9 out of range (1 communicators)"},
		{b.Enter(p, 0, 2), "enter on process 0: region 2 out of range (0 regions)"},
		{b.Leave(p, 0, 0), "leave on process 0 at 0.000000000 s: region #0 was not entered"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
}

// TestBuilderRefusesLeaveBeforeEnter: a leave earlier than its enter
// (events out of time order, as a fuzzed OTF2 file gave) is an error,
// not a region of negative length.
func TestBuilderRefusesLeaveBeforeEnter(t *testing.T) {
	b := NewBuilder("order")
	p := b.AddProcess(Process{Name: "P0"})
	r := b.Region("MPI_Send")
	mustNo(t, b.Enter(p, 2_000_000_000, r))
	err := b.Leave(p, 1_500_000_000, r)
	want := `leave on process 0 at 1.500000000 s: leaves region "MPI_Send" before entering it at 2.000000000 s (the events are not in time order)`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestFinishCancelled(t *testing.T) {
	b := NewBuilder("x")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Finish(ctx); err != context.Canceled {
		t.Fatalf("Finish on a cancelled context: %v", err)
	}
}
