package profile

import (
	"reflect"
	"testing"
	"time"

	"superstep/topology/cluster"
)

// handProfile: 2 racks × 1 host × 2 workers (w0,w1 on r0h0; w2,w3 on
// r1h0), 3 supersteps with numbers easy to add by hand.
func handProfile(t *testing.T) *Profile {
	c, err := cluster.New(2, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := &Profile{Job: "hand", Cluster: c, Vertices: []int64{10, 20, 30, 40}}
	for s := 0; s < 3; s++ {
		st := NewStep(s, 4)
		for w := 0; w < 4; w++ {
			st.Workers[w] = WorkerStats{Compute: time.Duration(w+1) * time.Second, Processed: int64(s)}
		}
		// w0→w1: s+1 messages; w1→w2: 10; w3→w3 (self): 5; w2→w0: 100 in superstep 2 only.
		st.Messages[0*4+1] = int64(s + 1)
		st.Messages[1*4+2] = 10
		st.Messages[3*4+3] = 5
		if s == 2 {
			st.Messages[2*4+0] = 100
		}
		for i := range st.Messages {
			st.Bytes[i] = 8 * st.Messages[i]
		}
		p.Steps = append(p.Steps, st)
	}
	return p
}

func TestTemporalAggregationSumsSupersteps(t *testing.T) {
	p := handProfile(t)
	a, err := p.Aggregate(Options{FrameSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Frames) != 2 || a.Frames[0] != (Frame{0, 1}) || a.Frames[1] != (Frame{2, 2}) || a.Frames[0].Label() != "0–1" {
		t.Fatalf("frames %v", a.Frames)
	}
	// w0→w1 in frame 0 = 1 + 2; in frame 1 = 3.
	if a.Messages[0][0][1] != 3 || a.Messages[1][0][1] != 3 {
		t.Fatalf("w0→w1 %v %v", a.Messages[0][0][1], a.Messages[1][0][1])
	}
	// w1: out = 10 per superstep → 20, 10; in = w0's → 3, 3.
	if !reflect.DeepEqual(a.MessagesOut[1], []float64{20, 10}) || !reflect.DeepEqual(a.MessagesIn[1], []float64{3, 3}) {
		t.Fatalf("w1 out %v in %v", a.MessagesOut[1], a.MessagesIn[1])
	}
	// Self traffic counts as out and in.
	if !reflect.DeepEqual(a.MessagesOut[3], []float64{10, 5}) || !reflect.DeepEqual(a.MessagesIn[3], []float64{10, 5}) {
		t.Fatalf("w3 out %v in %v", a.MessagesOut[3], a.MessagesIn[3])
	}
	// Compute time of w2 (3 s per superstep).
	if !reflect.DeepEqual(a.Time[2], []float64{6, 3}) {
		t.Fatalf("w2 time %v", a.Time[2])
	}
	if a.BytesOut[1][0] != 160 {
		t.Fatalf("bytes %v", a.BytesOut[1])
	}
}

func TestHierarchyAggregationSumsWorkers(t *testing.T) {
	p := handProfile(t)
	h, err := p.Aggregate(Options{Level: HostLevel})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Units) != 2 || h.Units[0].Name != "r0h0" {
		t.Fatalf("units %v", h.Units)
	}
	// Superstep 2: host0→host0 = w0→w1 (3); host0→host1 = w1→w2 (10);
	// host1→host0 = w2→w0 (100); host1→host1 = w3→w3 (5).
	want := [][]float64{{3, 10}, {100, 5}}
	if !reflect.DeepEqual(h.Messages[2], want) {
		t.Fatalf("host matrix %v, want %v", h.Messages[2], want)
	}
	if !reflect.DeepEqual(h.Vertices, []int64{30, 70}) || h.Time[1][0] != 7 {
		t.Fatalf("vertices %v time %v", h.Vertices, h.Time[1])
	}
	r, err := p.Aggregate(Options{Level: RackLevel, FrameSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Whole job, rack level: r0→r0 = 1+2+3, r0→r1 = 30, r1→r0 = 100, r1→r1 = 15.
	if !reflect.DeepEqual(r.Messages[0], [][]float64{{6, 30}, {100, 15}}) {
		t.Fatalf("rack matrix %v", r.Messages[0])
	}
	// The sum over every cell is the job's total at every level.
	if tot := p.Totals(); tot.Messages != 6+30+100+15 || tot.Bytes != 8*tot.Messages || tot.Measured != 12*time.Second {
		t.Fatalf("totals %+v", tot)
	}
}

func TestFilters(t *testing.T) {
	p := handProfile(t)
	a, err := p.Aggregate(Options{MinTraffic: 40})
	if err != nil {
		t.Fatal(err)
	}
	// Totals (out+in): w0 = 6+100 = 106, w1 = 30+6 = 36, w2 = 100+30 = 130, w3 = 30.
	names := []string{}
	for _, u := range a.Units {
		names = append(names, u.Name)
	}
	if !reflect.DeepEqual(names, []string{"w0", "w2"}) {
		t.Fatalf("kept %v", names)
	}
	if a.Messages[2][1][0] != 100 || len(a.Messages[2]) != 2 {
		t.Fatalf("filtered matrix %v", a.Messages[2])
	}
	b, err := p.Aggregate(Options{Units: []string{"w3", "w1"}})
	if err != nil || len(b.Units) != 2 || b.Units[0].Name != "w1" || b.Messages[0][1][1] != 5 {
		t.Fatalf("select: %v %v", err, b)
	}
	if _, err := p.Aggregate(Options{Units: []string{"w9"}}); err == nil {
		t.Fatal("unknown unit accepted")
	}
	if _, err := ParseLevel("host"); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseLevel("pod"); err == nil {
		t.Fatal("pod accepted")
	}
}
