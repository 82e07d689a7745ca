package views

import (
	"strings"
	"testing"
)

// A dashboard fits the width of a row (Lab's output area at a normal
// window width): it was 1,052 px wide and wrapped its frame view below.
func TestDashboardFitsTheOutputArea(t *testing.T) {
	d := DashboardData{Title: "job", Stats: []Stat{{Label: "messages", Value: "2,400", Sums: "messages"}},
		Levels: []DashboardLevel{{Name: "worker", Trend: sampleTrend(), Chord: sampleChord(2)}}, Tree: sampleTree()}
	sp := Dashboard(d).spec()
	if w := float64(sp.Layout.Width); w > DefaultRowWidth {
		t.Errorf("dashboard %.0f px wide, want ≤ %d", w, DefaultRowWidth)
	}
	if got := sp.Stats[0].Sums; got != 1 {
		t.Errorf("messages sums panel %d, want 1 (the trend's messages)", got)
	}
}

// A statistic that sums a panel the trend does not have is an error, not
// a total that silently never follows the filter.
func TestDashboardStatOfAMissingPanel(t *testing.T) {
	d := DashboardData{Title: "job", Stats: []Stat{{Label: "bytes", Value: "1 kB", Sums: "bytes"}},
		Levels: []DashboardLevel{{Name: "worker", Trend: sampleTrend(), Chord: sampleChord(2)}}, Tree: sampleTree()}
	f := Dashboard(d).figure()
	if f.err == nil || !strings.Contains(f.err.Error(), `"bytes"`) {
		t.Errorf("error %v, want one naming the panel \"bytes\"", f.err)
	}
}
