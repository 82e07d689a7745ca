package profile

import (
	"strings"
	"testing"
	"time"

	"superstep/topology/cluster"
)

// oneStep is a one-superstep profile of two workers on one host: worker 0
// computes c0 and sends 5 messages to worker 1, worker 1 computes c1.
func oneStep(t *testing.T, c0, c1 time.Duration) *Profile {
	t.Helper()
	c, err := cluster.New(1, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStep(0, 2)
	s.Workers[0] = WorkerStats{Compute: c0, Processed: 10}
	s.Workers[1] = WorkerStats{Compute: c1, Processed: 20}
	s.Messages[0*2+1], s.Bytes[0*2+1] = 5, 40
	return &Profile{Job: "j", Cluster: c, Vertices: []int64{10, 20}, Steps: []Step{s}}
}

func TestMedianOfRuns(t *testing.T) {
	ms := time.Millisecond
	runs := []*Profile{oneStep(t, 5*ms, 2*ms), oneStep(t, 1*ms, 2*ms), oneStep(t, 3*ms, 9*ms)}
	m, err := Median(runs...)
	if err != nil {
		t.Fatal(err)
	}
	w := m.Steps[0].Workers
	// Worker 0: median of 5, 1, 3 is 3; worker 1: of 2, 2, 9 is 2; the
	// slowest is 3, so worker 1 waits 1.
	if w[0].Compute != 3*ms || w[1].Compute != 2*ms || w[0].Wait != 0 || w[1].Wait != 1*ms {
		t.Errorf("median workers %+v", w)
	}
	if m.Runs != 3 || m.TimeLabel(Measured) != "median of 3 runs" || runs[0].Steps[0].Workers[0].Compute != 5*ms {
		t.Errorf("runs %d, label %q; the first run must stay as it was", m.Runs, m.TimeLabel(Measured))
	}
	// An even count keeps the lower middle (a time that was measured).
	if m, _ := Median(oneStep(t, 4*ms, 0), oneStep(t, 2*ms, 0)); m.Steps[0].Workers[0].Compute != 2*ms {
		t.Errorf("median of two: %v", m.Steps[0].Workers[0].Compute)
	}
	other := oneStep(t, ms, ms)
	other.Steps[0].Messages[1] = 6
	if _, err := Median(runs[0], other); err == nil || !strings.Contains(err.Error(), "run 2 sent other messages than run 1 in superstep 0") {
		t.Errorf("different traffic: %v", err)
	}
	if _, err := Median(); err == nil {
		t.Error("no runs: no error")
	}
}

// A profile's modelled total is the cost model's, whatever the clock
// measured; its measured total is the clock's.
func TestTotalsModelledIgnoresTheClock(t *testing.T) {
	ms := time.Millisecond
	fast, slow := oneStep(t, 1*ms, 2*ms), oneStep(t, 300*ms, 2*ms)
	slow.Steps[0].Workers[1].Comm = 4 * time.Microsecond
	fast.Steps[0].Workers[1].Comm = 4 * time.Microsecond
	f, s := fast.Totals(), slow.Totals()
	// Worker 0: 350 ns of modelled compute; worker 1: 200 ns + 4 µs of
	// communication, the slowest.
	if want := 4200 * time.Nanosecond; f.Modelled != want || s.Modelled != want {
		t.Errorf("modelled %v and %v, want %v both", f.Modelled, s.Modelled, want)
	}
	if f.Measured != 2*ms+4*time.Microsecond || s.Measured != 300*ms {
		t.Errorf("measured %v and %v", f.Measured, s.Measured)
	}
	if str := slow.String(); !strings.Contains(str, "modelled time 4.2µs, measured time 300ms") {
		t.Errorf("summary %q", str)
	}
}

func TestModelledTime(t *testing.T) {
	p := oneStep(t, 7*time.Millisecond, time.Millisecond)
	a, err := p.Aggregate(Options{Time: Modelled})
	if err != nil {
		t.Fatal(err)
	}
	// Worker 0: 10 vertices × 10 ns + 5 messages × 50 ns = 350 ns;
	// worker 1: 20 × 10 ns = 200 ns, so worker 1 waits 150 ns.
	approx := func(got, want float64) bool { return got > want*0.999999 && got < want*1.000001 }
	if !approx(a.Compute[0][0], 350e-9) || !approx(a.Compute[1][0], 200e-9) || !approx(a.Wait[1][0], 150e-9) || a.Wait[0][0] != 0 {
		t.Errorf("modelled compute %v, wait %v", a.Compute, a.Wait)
	}
	if a.TimeLabel != "modelled" {
		t.Errorf("label %q", a.TimeLabel)
	}
	b, _ := p.Aggregate(Options{Time: Modelled, Cost: Cost{PerVertex: time.Microsecond}})
	if !approx(b.Compute[1][0], 20e-6) {
		t.Errorf("own cost: %v", b.Compute)
	}
	c, _ := p.Aggregate(Options{})
	if c.Compute[0][0] != 7e-3 || c.TimeLabel != "measured" {
		t.Errorf("measured: %v %q", c.Compute, c.TimeLabel)
	}
}
