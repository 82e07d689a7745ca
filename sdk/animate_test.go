package sdk_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/display"
	"superstep/display/views"
	"superstep/sdk"
	"superstep/sdk/bsp"
)

// gridPositions places a rows×cols lattice's vertex r·cols+c at (c, r).
func gridPositions(rows, cols int) []float64 {
	pos := make([]float64, 0, 2*rows*cols)
	for v := range rows * cols {
		pos = append(pos, float64(v%cols), float64(v/cols))
	}
	return pos
}

// SSSP from a corner of a 4×4 lattice, recorded and turned into the
// animation's data: superstep i has the vertices at hop distance i active
// and one pulse from each of them along each of its edges; the trend has a
// frame per superstep; vertices are outlined by worker.
func TestAnimateDataSSSPLattice(t *testing.T) {
	g := datasets.Must(datasets.Lattice(4, 4))
	job, err := sdk.Run(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{RecordVertices: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err := sdk.AnimateData(context.Background(), job, gridPositions(4, 4), sdk.AnimateOptions{ValueName: "distance", Outline: "worker"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Steps) != job.Supersteps() || job.Supersteps() != 8 {
		t.Fatalf("%d steps for %d supersteps, want 8 (0..6 and a quiet one)", len(d.Steps), job.Supersteps())
	}
	if d.Trend == nil || len(d.Trend.Frames) != 8 {
		t.Errorf("trend: %v", d.Trend)
	}
	if len(d.Edges) != 24 || len(d.Group) != 16 || d.GroupName != "worker" {
		t.Errorf("%d edges (want 24), %d groups named %q", len(d.Edges), len(d.Group), d.GroupName)
	}
	for i, s := range d.Steps {
		for v := range 16 {
			dist := v/4 + v%4
			if (s.State[v] == views.StateActive) != (dist == i) {
				t.Errorf("superstep %d: vertex %d (distance %d) has state %d", i, v, dist, s.State[v])
			}
			want := math.Inf(1)
			if dist <= i {
				want = float64(dist)
			}
			if s.Value[v] != want {
				t.Errorf("superstep %d: vertex %d has %v, want %v", i, v, s.Value[v], want)
			}
		}
		for _, p := range s.Pulses {
			if from := int(p.From); from/4+from%4 != i || p.Count != 1 {
				t.Errorf("superstep %d: a pulse %d→%d ×%d", i, p.From, p.To, p.Count)
			}
		}
	}
	if b := sdk.Animate(context.Background(), job, gridPositions(4, 4), sdk.AnimateOptions{}).MIMEBundle(); !strings.Contains(html(b), "data:image/png;base64,") {
		t.Errorf("the animation has no static picture: %.200s", html(b))
	}
}

func TestAnimateErrors(t *testing.T) {
	g := datasets.Must(datasets.Lattice(3, 3))
	plain, err := sdk.Run(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := sdk.Run(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{RecordVertices: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		job  *sdk.Job
		pos  []float64
		opt  sdk.AnimateOptions
		want string
	}{
		{plain, nil, sdk.AnimateOptions{}, "has no vertex record: run it with sdk.Options{RecordVertices: true}"},
		{rec, []float64{1, 2}, sdk.AnimateOptions{}, "2 coordinates for 9 vertices"},
		{rec, append(gridPositions(3, 3)[:17], math.NaN()), sdk.AnimateOptions{}, "vertex 8 has coordinate NaN"},
		{rec, gridPositions(3, 3), sdk.AnimateOptions{Outline: "pod"}, `unknown outline "pod"`},
	} {
		if _, err := sdk.AnimateData(context.Background(), c.job, c.pos, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	if _, err := plain.Superstep(0); err == nil || !strings.Contains(err.Error(), "no vertex record") {
		t.Errorf("Superstep on a job without a record: %v", err)
	}
	if _, err := rec.Superstep(99); err == nil || !strings.Contains(err.Error(), "superstep 99 is outside the record's 0..") {
		t.Errorf("Superstep(99): %v", err)
	}
}

// Job.Superstep is the record's table: on a 3×3 lattice from the corner,
// superstep 2 has the three vertices at distance 2 active with value 2.
func TestJobSuperstepTable(t *testing.T) {
	g := datasets.Must(datasets.Lattice(3, 3))
	job, err := sdk.Run(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{RecordVertices: true})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := job.Superstep(2)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Release()
	if tb.NumRows() != 9 || tb.NumCols() != 8 {
		t.Fatalf("%d rows, %d columns", tb.NumRows(), tb.NumCols())
	}
	val := tb.Column(4).Data().Chunk(0).(*array.Float64)
	state := tb.Column(5).Data().Chunk(0).(*array.String)
	for v := range 9 {
		active := v/3+v%3 == 2
		if (state.Value(v) == "active") != active || active && val.Value(v) != 2 {
			t.Errorf("vertex %d: %s, %v", v, state.Value(v), val.Value(v))
		}
	}
}

// A stepped job matches the run: after each Step the State table holds
// the record's values, and the frame shows that superstep alone in its
// static picture; after the end Step says the job finished.
func TestStepperFrames(t *testing.T) {
	g := datasets.Must(datasets.Lattice(3, 3))
	s, err := sdk.Start(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Positions = gridPositions(3, 3)
	if b := s.Frame().MIMEBundle(); !strings.Contains(b.Text(), "0 supersteps run; Step() runs superstep 0") {
		t.Errorf("before the first step: %q", b.Text())
	}
	st := s.State()
	if st.NumRows() != 9 || st.Column(0).Data().Chunk(0).(*array.Int32).Value(0) != -1 {
		t.Errorf("the state before the first step: %d rows", st.NumRows())
	}
	for i := 0; !s.Done(); i++ {
		f := s.Step()
		if f.Err() != nil {
			t.Fatal(f.Err())
		}
		if b := f.MIMEBundle(); !strings.Contains(html(b), "data:image/png;base64,") {
			t.Fatalf("superstep %d's frame has no picture: %.300s", i, b.Text())
		}
		tb := s.State()
		vals := tb.Column(4).Data().Chunk(0).(*array.Float64)
		for v := range 9 {
			want := math.Inf(1)
			if d := v/3 + v%3; d <= i {
				want = float64(d)
			}
			if vals.Value(v) != want {
				t.Errorf("after superstep %d: vertex %d has %v, want %v", i, v, vals.Value(v), want)
			}
		}
		tb.Release()
	}
	if s.Superstep() != 6 || !s.Job().Result.Halted {
		t.Errorf("%d supersteps, halted %v", s.Superstep(), s.Job().Result.Halted)
	}
	if f := s.Step(); f.Err() == nil || !strings.Contains(f.MIMEBundle().Text(), "every vertex halted in superstep 5") {
		t.Errorf("a step after the end: %v", f.Err())
	}
	if _, err := sdk.Start(context.Background(), g, vertex.SSSP{}, sdk.Options{Repeat: 3}); err == nil || !strings.Contains(err.Error(), "Repeat") {
		t.Errorf("Start with Repeat: %v", err)
	}
	_ = bsp.ErrFinished
}

func html(b display.Bundle) string {
	s, _ := b.Data["text/html"].(string)
	return s
}

// A stepped frame opens the live view at the superstep just run; a start
// outside the run is refused by name.
func TestAnimateStart(t *testing.T) {
	g := datasets.Must(datasets.Lattice(3, 3))
	job, err := sdk.Run(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{RecordVertices: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err := sdk.AnimateData(context.Background(), job, gridPositions(3, 3), sdk.AnimateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Start = 4
	if b := views.Animate(d).MIMEBundle(); !strings.Contains(html(b), "data:image/png") {
		t.Errorf("start 4: %s", b.Text())
	}
	d.Start = job.Supersteps()
	if b := views.Animate(d).MIMEBundle(); !strings.Contains(b.Text(), "Start is superstep 6, outside 0..5") {
		t.Errorf("start past the end: %s", b.Text())
	}
}
