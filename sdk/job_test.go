package sdk_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/display"
	"superstep/sdk"
	"superstep/sdk/bsp"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

type recorder struct {
	shown   []display.Bundle
	updates int
}

func (r *recorder) Display(b display.Bundle, id string) error {
	r.shown = append(r.shown, b)
	return nil
}
func (r *recorder) Update(b display.Bundle, id string) error { r.updates++; return nil }
func (r *recorder) Clear(bool) error                         { return nil }
func (r *recorder) Page(display.Bundle) error                { return nil }

func TestRunProfilesAndShows(t *testing.T) {
	g := datasets.Must(datasets.Open("cti"))
	cl, _ := cluster.New(2, 2, 2) // 8 workers, 4 hosts, 2 racks
	rec := &recorder{}
	capture := filepath.Join(t.TempDir(), "sssp.capture")
	job, err := sdk.Run(context.Background(), g, vertex.SSSP{Source: 0}, sdk.Options{Config: bsp.Config{Cluster: cl}, Out: display.On(rec), Capture: capture})
	if err != nil {
		t.Fatal(err)
	}
	if !job.Result.Halted || job.Supersteps() < 10 {
		t.Fatalf("%d supersteps", job.Supersteps())
	}
	// The live view showed a progress bar and the trend, and updated them.
	if len(rec.shown) != 2 || rec.updates == 0 {
		t.Fatalf("live view: %d shown, %d updates", len(rec.shown), rec.updates)
	}
	// The capture stream holds the same profile.
	back, err := profile.LoadCapture(capture)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Steps, job.Profile.Steps) {
		t.Fatal("the capture differs from the profile")
	}
	// Every view carries its static picture.
	for name, r := range map[string]display.Renderer{
		"trend":     job.Trend(profile.Options{Level: profile.HostLevel}),
		"frames":    job.Frames(profile.Options{FrameSize: 5}),
		"cluster":   job.ClusterView(),
		"dashboard": job.Dashboard(profile.Options{}),
	} {
		html, _ := r.MIMEBundle().Data["text/html"].(string)
		if !strings.Contains(html, "data:image/png;base64,") {
			t.Errorf("%s has no static picture", name)
		}
	}
	if !strings.Contains(job.String(), "supersteps") {
		t.Fatal(job.String())
	}
}

func TestChordOrderKeepsHostsAndRacksTogether(t *testing.T) {
	g := datasets.Must(datasets.Open("4elt"))
	cl, _ := cluster.New(2, 2, 3) // 12 workers
	job, err := sdk.Run(context.Background(), g, vertex.PageRank{Iterations: 3}, sdk.Options{Config: bsp.Config{Cluster: cl}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := job.ChordData(profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Units) != 12 || len(d.Rings) != 2 || len(d.Rings[0].Groups) != 4 || len(d.Rings[1].Groups) != 2 {
		t.Fatalf("%d units, rings %+v", len(d.Units), d.Rings)
	}
	// Each host's ring group spans exactly its 3 workers, in one run.
	for _, grp := range d.Rings[0].Groups {
		if grp.Last-grp.First != 2 {
			t.Fatalf("host %s spans %d..%d", grp.Name, grp.First, grp.Last)
		}
		for k := grp.First; k <= grp.Last; k++ {
			if d.Units[k].Parents[0] != grp.ID {
				t.Fatalf("unit %s inside host group %s", d.Units[k].Name, grp.ID)
			}
		}
	}
	// The frame's traffic equals the profile's.
	var chord, prof float64
	for _, row := range d.Frames[1].Weight {
		for _, x := range row {
			chord += x
		}
	}
	for _, m := range job.Profile.Steps[1].Messages {
		prof += float64(m)
	}
	if chord != prof || prof != float64(g.NumArcs()) {
		t.Fatalf("chord total %v, profile %v, arcs %d", chord, prof, g.NumArcs())
	}
}

func TestSpinnerCutsLessThanHash(t *testing.T) {
	g := datasets.Must(datasets.Open("cti"))
	hash, err := sdk.Run(context.Background(), g, vertex.PageRank{Iterations: 2}, sdk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := sdk.Run(context.Background(), g, vertex.PageRank{Iterations: 2}, sdk.Options{Partitioner: "spinner", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if lp.PartitionStats.CutFraction > hash.PartitionStats.CutFraction/2 || lp.PartitionStats.Balance > 1.1 {
		t.Fatalf("spinner cut %.3f (balance %.2f), hash cut %.3f", lp.PartitionStats.CutFraction, lp.PartitionStats.Balance, hash.PartitionStats.CutFraction)
	}
	// Fewer messages cross between workers: thicker self-arcs.
	self := func(j *sdk.Job) float64 {
		a, _ := j.Profile.Aggregate(profile.Options{FrameSize: 100})
		s, tot := 0.0, 0.0
		for i := range a.Units {
			for k := range a.Units {
				tot += a.Messages[0][i][k]
				if i == k {
					s += a.Messages[0][i][k]
				}
			}
		}
		return s / tot
	}
	if self(lp) < 2*self(hash) {
		t.Fatalf("self traffic share: spinner %.2f, hash %.2f", self(lp), self(hash))
	}
	if _, err := sdk.Run(context.Background(), g, vertex.PageRank{}, sdk.Options{Partitioner: "metis"}); err == nil {
		t.Fatal("unknown partitioner accepted")
	}
}
