package trace

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

func TestHandMadePairs(t *testing.T) {
	h := HandMade()
	if err := h.Validate(); err != nil {
		t.Fatal(err)
	}
	got := h.Pairs()
	// A: 100 × 400 ms in transfer, B: 50 × 300 ms, D: 1 × 50 ms.
	want := []Pair{
		{Src: 0, Dst: 3, Messages: 100, Bytes: 100_000, TransferNS: 100 * 400_000_000},
		{Src: 1, Dst: 2, Messages: 50, Bytes: 50_000, TransferNS: 50 * 300_000_000},
		{Src: 2, Dst: 1, Messages: 1, Bytes: 1_000, TransferNS: 50_000_000},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pairs %+v, want %+v", got, want)
	}
	if bw := got[0].Bandwidth(); math.Abs(bw-2500) > 1e-9 {
		t.Errorf("A's bandwidth %v B/s, want 1000 B / 0.4 s = 2500", bw)
	}
	m := h.Matrix(Bytes)
	if m[0*4+3] != 100_000 || m[1*4+2] != 50_000 || m[2*4+1] != 1_000 || m[3*4+0] != 0 {
		t.Errorf("bytes matrix %v", m)
	}
	if n, b := h.Totals(); n != 151 || b != 151_000 {
		t.Errorf("totals %d messages, %d B; want 151, 151000", n, b)
	}
}

func TestWindowAndSelect(t *testing.T) {
	h := HandMade()
	// [1.45 s, 5.2 s]: A's messages received at or after 1.45 s (i ≥ 50)
	// and B's sent up to 5.2 s (i ≤ 100 → all 50, 5.000..5.098).
	w, err := h.Window(1_450_000_000, 5_200_000_000)
	if err != nil {
		t.Fatal(err)
	}
	var a, b, d int
	for _, m := range w.Messages {
		switch m.Src {
		case 0:
			a++
		case 1:
			b++
		case 2:
			d++
		}
	}
	if a != 50 || b != 50 || d != 0 {
		t.Errorf("window keeps A %d, B %d, D %d; want 50, 50, 0", a, b, d)
	}
	if _, err := h.Window(2, 1); err == nil {
		t.Error("a window ending before it starts must be refused")
	}
	s, err := h.Select([]int32{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Processes) != 2 || s.Processes[0].Name != "P2" || len(s.Messages) != 51 {
		t.Fatalf("select [2 1]: %d processes (%v), %d messages", len(s.Processes), s.Processes, len(s.Messages))
	}
	// B is now 1→0 and D 0→1; ordered by the new sender.
	if s.Messages[0].Src != 0 || s.Messages[0].Dst != 1 || s.Messages[0].SendNS != 9e9 || s.Messages[1].Src != 1 || s.Messages[1].Dst != 0 {
		t.Errorf("renumbered messages start %+v %+v", s.Messages[0], s.Messages[1])
	}
	if _, err := h.Select([]int32{1, 1}); err == nil {
		t.Error("selecting a process twice must be refused")
	}
	if _, err := h.Select([]int32{4}); err == nil {
		t.Error("selecting process 4 of 4 must be refused")
	}
}

func TestGeneratedShapes(t *testing.T) {
	wrf := WRFLike(1)
	if n := len(wrf.Messages); n != 168_480 {
		t.Errorf("WRF-like: %d messages, want 168,480", n)
	}
	pairs := wrf.Pairs()
	if len(pairs) != 48 {
		t.Errorf("WRF-like: %d pairs, want 48", len(pairs))
	}
	partners := make([]int, 16)
	for _, p := range pairs {
		partners[p.Src]++
		if p.Messages != 3510 {
			t.Errorf("WRF-like pair %d→%d: %d messages, want 3510", p.Src, p.Dst, p.Messages)
		}
	}
	for p, k := range partners {
		if k < 2 || k > 4 {
			t.Errorf("WRF-like process %d has %d partners, want 2–4", p, k)
		}
	}
	if err := wrf.Validate(); err != nil {
		t.Error(err)
	}

	tach := TachyonLike(1)
	if n := len(tach.Messages); n != 255*32 {
		t.Errorf("Tachyon-like: %d messages, want 8,160", n)
	}
	for _, m := range tach.Messages {
		if m.Dst != 0 || m.Src == 0 {
			t.Fatalf("Tachyon-like message %d→%d: all go to rank 0", m.Src, m.Dst)
		}
	}
	lul := LULESHLike(1)
	if n, p := len(lul.Messages), len(lul.Pairs()); n != 200*56 || p != 56 {
		t.Errorf("LULESH-like: %d messages, %d pairs; want 11,200 and 56", n, p)
	}
	for _, p := range lul.Pairs() {
		if want := map[int]int64{1: 30_000, 2: 2_400, 3: 96}[popcount3(int(p.Src^p.Dst))] * 200; p.Bytes != want {
			t.Errorf("LULESH-like %d→%d: %d B, want %d", p.Src, p.Dst, p.Bytes, want)
		}
	}
	if !reflect.DeepEqual(WRFLike(1).Messages[:100], wrf.Messages[:100]) {
		t.Error("WRF-like is not deterministic for its seed")
	}
	if reflect.DeepEqual(WRFLike(2).Messages[:100], wrf.Messages[:100]) {
		t.Error("WRF-like ignores its seed")
	}
}

func TestFD4LikeShape(t *testing.T) {
	if testing.Short() {
		t.Skip("2.2 M messages")
	}
	f := FD4Like(1)
	n := len(f.Messages)
	if n < 2_100_000 || n > 2_300_000 {
		t.Errorf("FD4-like: %d messages, want about 2.2 M", n)
	}
	pairs := f.Pairs()
	if len(pairs) < 58_000 || len(pairs) > 62_000 {
		t.Errorf("FD4-like: %d pairs, want about 60,000", len(pairs))
	}
	partners := make([]int, 1024)
	for _, p := range pairs {
		partners[p.Src]++
	}
	if partners[0] != 80 || partners[1023] != 38 {
		t.Errorf("FD4-like partners: rank 0 %d, rank 1023 %d; want 80 and 38", partners[0], partners[1023])
	}
}

func TestParquetRoundTrip(t *testing.T) {
	for _, tr := range []*Trace{HandMade(), LULESHLike(3)} {
		tr.TicksPerSecond, tr.OffsetTicks = 2_095_197_216, 123456789
		tr.Unmatched = []Unmatched{{Side: RecvSide, Process: 1, Peer: 0, TimeNS: 5, Bytes: 8, Tag: 2}}
		dir := filepath.Join(t.TempDir(), "t")
		if err := tr.SaveParquet(dir); err != nil {
			t.Fatal(err)
		}
		back, err := LoadParquet(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Processes, tr.Processes) || !reflect.DeepEqual(back.Messages, tr.Messages) ||
			back.TicksPerSecond != tr.TicksPerSecond || back.OffsetTicks != tr.OffsetTicks || back.DurationNS != tr.DurationNS ||
			!reflect.DeepEqual(back.Unmatched, tr.Unmatched) || back.Name != tr.Name {
			t.Errorf("%s: round trip changed the trace", tr.Name)
		}
		if len(back.Regions) != len(tr.Regions) {
			t.Fatalf("%s: %d regions back, want %d", tr.Name, len(back.Regions), len(tr.Regions))
		}
		for i, r := range tr.Regions {
			b := back.Regions[i]
			if b.Process != r.Process || b.EnterNS != r.EnterNS || b.LeaveNS != r.LeaveNS || back.RegionNames[b.Region] != tr.RegionNames[r.Region] {
				t.Fatalf("%s: region %d = %+v, want %+v", tr.Name, i, b, r)
			}
		}
	}
}
