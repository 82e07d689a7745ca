package trace

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Generated traces: the hand-made trace of the tests and seeded stand-ins
// for the example applications of paper 003 (WRF, FD4, Tachyon, LULESH),
// whose real traces are not public (FD4's is: sdk/trace/otf reads it).

// HandMade is the hand-made trace H: 4 processes, 1,000-byte messages
// with tag 1 on MPI_COMM_WORLD.
//
//	A: 100 messages P0→P3, sent at 1.000 + 0.001·i s, received at 1.400 + 0.001·i s
//	B:  50 messages P1→P2, sent at 5.000 + 0.002·i s, received at 5.300 + 0.002·i s
//	D:   1 message  P2→P1, sent at 9.000 s, received at 9.050 s
//
// Its bundles can be checked by hand: with a level-1 bandwidth of 0.02 s
// every group of events on a process is one cluster, centred at the
// group's mean.
func HandMade() *Trace {
	t := &Trace{Name: "H", Comms: []string{"MPI_COMM_WORLD"}, RegionNames: []string{}, DurationNS: 10e9}
	for p := 0; p < 4; p++ {
		t.Processes = append(t.Processes, Process{Name: fmt.Sprintf("P%d", p), Rank: int32(p)})
	}
	const ms = 1_000_000
	for i := int64(0); i < 100; i++ {
		t.Messages = append(t.Messages, Message{Src: 0, Dst: 3, SendNS: 1000*ms + i*ms, RecvNS: 1400*ms + i*ms, Bytes: 1000, Tag: 1})
	}
	for i := int64(0); i < 50; i++ {
		t.Messages = append(t.Messages, Message{Src: 1, Dst: 2, SendNS: 5000*ms + 2*i*ms, RecvNS: 5300*ms + 2*i*ms, Bytes: 1000, Tag: 1})
	}
	t.Messages = append(t.Messages, Message{Src: 2, Dst: 1, SendNS: 9000 * ms, RecvNS: 9050 * ms, Bytes: 1000, Tag: 1})
	return t
}

// generator holds what the generated traces share.
type generator struct {
	t   *Trace
	rng *rand.Rand
}

func newGenerator(name string, procs int, seed uint64) *generator {
	t := &Trace{Name: name, Comms: []string{"MPI_COMM_WORLD"}, RegionNames: []string{"compute", "MPI_Waitall"}}
	for p := 0; p < procs; p++ {
		t.Processes = append(t.Processes, Process{Name: fmt.Sprintf("Process %d", p), Rank: int32(p), Host: fmt.Sprintf("node%02d", p/16)})
	}
	return &generator{t: t, rng: rand.New(rand.NewPCG(seed, 0x7e11))}
}

// message adds a message whose transfer takes a latency plus bytes at
// about 1 GB/s, with some noise.
func (g *generator) message(src, dst int, send int64, bytes int64, tag int32, kind Kind) {
	transfer := 2_000 + bytes + g.rng.Int64N(1_000+bytes/4)
	g.t.Messages = append(g.t.Messages, Message{Src: int32(src), Dst: int32(dst), SendNS: send, RecvNS: send + transfer, Bytes: bytes, Tag: tag, Kind: kind})
}

// finish orders the messages by sender, then send time, and the regions
// by process, then enter time, and sets the duration.
func (g *generator) finish() *Trace {
	t := g.t
	slices.SortStableFunc(t.Messages, func(a, b Message) int {
		if a.Src != b.Src {
			return int(a.Src - b.Src)
		}
		return cmpInt64(a.SendNS, b.SendNS)
	})
	slices.SortStableFunc(t.Regions, func(a, b Region) int {
		if a.Process != b.Process {
			return int(a.Process - b.Process)
		}
		return cmpInt64(a.EnterNS, b.EnterNS)
	})
	for _, m := range t.Messages {
		t.DurationNS = max(t.DurationNS, m.RecvNS, m.SendNS)
	}
	for _, r := range t.Regions {
		t.DurationNS = max(t.DurationNS, r.LeaveNS)
	}
	return t
}

// WRFLike is a stand-in for the paper's WRF run: 16 processes on a 4×4
// grid (not periodic) exchange halos with their 2 to 4 neighbours, 48
// ordered pairs, in 3,510 steps over about 4 minutes: 168,480 messages.
// Each step has a compute region and an MPI_Waitall region per process.
func WRFLike(seed uint64) *Trace {
	const side, steps = 4, 3510
	const period = 240_000_000_000 / steps // ns per step
	g := newGenerator("WRF-like", side*side, seed)
	for s := 0; s < steps; s++ {
		t0 := int64(s) * period
		for p := 0; p < side*side; p++ {
			x, y := p%side, p/side
			compute := period*6/10 + g.rng.Int64N(period/4)
			g.t.Regions = append(g.t.Regions,
				Region{Process: int32(p), EnterNS: t0, LeaveNS: t0 + compute, Region: 0},
				Region{Process: int32(p), EnterNS: t0 + compute, LeaveNS: t0 + period*95/100, Region: 1})
			for d, nb := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+nb[0], y+nb[1]
				if nx < 0 || nx >= side || ny < 0 || ny >= side {
					continue
				}
				bytes := int64(24_576)
				if nb[1] != 0 {
					bytes = 49_152
				}
				g.message(p, ny*side+nx, t0+compute+int64(d)*3_000, bytes, int32(d), Isend)
			}
		}
	}
	return g.finish()
}

// FD4Like is a stand-in with the shape of the paper's FD4 run (whose real
// trace sdk/trace/otf reads): 1,024 processes, about 2.2 million messages
// over 5 minutes between about 60,000 ordered pairs; mostly between
// neighbouring ranks, some far, irregular in time, and ranks 0–511 with
// about twice as many partners as ranks 512–1023.
func FD4Like(seed uint64) *Trace {
	const procs = 1024
	const phases = 100
	const phase = 3_000_000_000 // ns
	g := newGenerator("FD4-like", procs, seed)
	partners := make([]int, 0, 96)
	for p := 0; p < procs; p++ {
		k := 38
		if p < procs/2 {
			k = 80
		}
		partners = partners[:0]
		seen := map[int]bool{p: true}
		near := k * 9 / 10
		for d := 1; len(partners) < near; d++ {
			for _, q := range []int{p + d, p - d} {
				if q >= 0 && q < procs && !seen[q] && len(partners) < near {
					seen[q] = true
					partners = append(partners, q)
				}
			}
		}
		for len(partners) < k {
			q := g.rng.IntN(procs)
			if !seen[q] {
				seen[q] = true
				partners = append(partners, q)
			}
		}
		for _, q := range partners {
			n := 20 + g.rng.IntN(33)
			for i := 0; i < n; i++ {
				ph := int64(g.rng.IntN(phases))
				send := ph*phase + phase/5 + g.rng.Int64N(phase/2)
				g.message(p, q, send, int64(256+g.rng.IntN(16_384)), int32(i%4), Isend)
			}
		}
	}
	return g.finish()
}

// TachyonLike is a stand-in for the paper's Tachyon run: 256 processes
// over 20 minutes, each of ranks 1–255 sends 32 results to rank 0 (8,160
// messages); rank 0 only receives.
func TachyonLike(seed uint64) *Trace {
	const procs, results = 256, 32
	const runtime int64 = 1_200_000_000_000
	g := newGenerator("Tachyon-like", procs, seed)
	for p := 1; p < procs; p++ {
		for k := 0; k < results; k++ {
			slot := runtime / (results + 1)
			send := int64(k+1)*slot + g.rng.Int64N(slot/3)
			g.t.Regions = append(g.t.Regions, Region{Process: int32(p), EnterNS: send - slot/2, LeaveNS: send, Region: 0})
			g.message(p, 0, send, 49_152, 0, Send)
		}
	}
	return g.finish()
}

// LULESHLike is a stand-in for the paper's LULESH run: 8 processes on a
// 2×2×2 block decomposition, every process talking to every other (56
// ordered pairs) in each of 200 steps; a face neighbour gets 30,000 B, an
// edge neighbour 2,400 B, a corner neighbour 96 B.
func LULESHLike(seed uint64) *Trace {
	const procs, steps = 8, 200
	const period = 50_000_000
	g := newGenerator("LULESH-like", procs, seed)
	for s := 0; s < steps; s++ {
		t0 := int64(s) * period
		for p := 0; p < procs; p++ {
			compute := period/2 + g.rng.Int64N(period/4)
			g.t.Regions = append(g.t.Regions,
				Region{Process: int32(p), EnterNS: t0, LeaveNS: t0 + compute, Region: 0},
				Region{Process: int32(p), EnterNS: t0 + compute, LeaveNS: t0 + period*9/10, Region: 1})
			for q := 0; q < procs; q++ {
				if q == p {
					continue
				}
				var bytes int64
				switch differ := popcount3(p ^ q); differ {
				case 1:
					bytes = 30_000
				case 2:
					bytes = 2_400
				default:
					bytes = 96
				}
				g.message(p, q, t0+compute+int64(q)*1_000, bytes, 0, Isend)
			}
		}
	}
	return g.finish()
}

func popcount3(x int) int { return x&1 + x>>1&1 + x>>2&1 }
