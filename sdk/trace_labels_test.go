package sdk

import (
	"context"
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"superstep/sdk/profile"
)

// The real Score-P ping-pong names both its processes "Master thread":
// every view labels them by rank first ("rank 0 · quartz10 · Master
// thread"), distinct, and the full name stays in the label's full text,
// the hover text of a label cut to fit. (They once read "Master thread
// (ran…" twice.)
func TestTraceLabelsByRankPingPong(t *testing.T) {
	tr := pingPong(t)
	labels := tr.ProcessLabels()
	if len(labels) != 2 || labels[0] == labels[1] {
		t.Fatalf("labels %q: want two distinct", labels)
	}
	for i, l := range labels {
		p := tr.Processes[i]
		if want := fmt.Sprintf("rank %d · %s · %s", p.Rank, p.Host, p.Name); l != want || p.Name != "Master thread" {
			t.Errorf("process %d (%+v) label %q, want %q", i, p, l, want)
		}
	}
	starts := func(view string, got []string) {
		t.Helper()
		if len(got) != 2 || got[0] == got[1] {
			t.Errorf("%s labels %q: want two distinct", view, got)
			return
		}
		for i, g := range got {
			if !strings.HasPrefix(g, fmt.Sprintf("rank %d", i)) || !strings.Contains(g, "Master thread") {
				t.Errorf("%s label %d %q: want rank %d first and the full name", view, i, g, i)
			}
		}
	}

	// Timeline lanes: the spec's lane names in full, the drawn labels cut
	// after the rank with the whole as their hover text.
	tl, err := Timeline(context.Background(), tr, TimelineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	starts("timeline", tl.Data.Lanes)
	svg := tl.SVG()
	for i, l := range labels {
		lane := fmt.Sprintf(`<text class="ss-lane" data-lane="%d"`, i)
		k := strings.Index(svg, lane)
		if k < 0 {
			t.Fatalf("no lane label %d", i)
		}
		el := svg[k : k+strings.Index(svg[k:], "</text>")]
		shown := el[strings.LastIndex(el, ">")+1:]
		if !strings.HasPrefix(shown, fmt.Sprintf("rank %d", i)) {
			t.Errorf("lane %d reads %q, want its rank first", i, shown)
		}
		if shown != html.EscapeString(l) && !strings.Contains(el, `data-tip="`+html.EscapeString(l)+`"`) {
			t.Errorf("lane %d cut to %q without its full label as hover text: %s", i, shown, el)
		}
	}

	// Matrix rows and columns, and the cells' hover text.
	m, err := CommMatrix(tr, "messages")
	if err != nil {
		t.Fatal(err)
	}
	starts("matrix rows", m.Data.Rows)
	starts("matrix columns", m.Data.Cols)
	if tip := m.Tip(0, 1); !strings.HasPrefix(tip, labels[0]+" → "+labels[1]+":") {
		t.Errorf("matrix tip %q", tip)
	}
	if msvg := m.SVG(); !strings.Contains(msvg, `data-tip="`+html.EscapeString(labels[1])+`"`) || !strings.Contains(msvg, ">rank 1") {
		t.Errorf("matrix labels: want rank 1 first, its full label as hover text")
	}

	// Sender/receiver and the chord of lines.
	sr, err := SenderReceiver(tr)
	if err != nil {
		t.Fatal(err)
	}
	starts("sender/receiver", sr.Data.Units)
	if srsvg := sr.SVG(); !strings.Contains(srsvg, `data-tip="`+html.EscapeString(labels[0])+`"`) || !strings.Contains(srsvg, ">rank 0") {
		t.Errorf("sender/receiver labels: want rank 0 first, its full label as hover text")
	}
	ch, err := CommChord(tr)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range ch.Data.Units {
		names = append(names, u.Name)
	}
	starts("chord", names)

	// The job views of the trace: trend rows are its workers.
	job, err := TraceJob(tr, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	d, err := job.TrendData(profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, u := range d.Units {
		names = append(names, u.Name)
	}
	starts("trend", names)
}
