package views

import (
	"strings"
	"testing"
)

// TestMatrixBoardMissingItems: smallBoard with item 3 (the up cell of 440
// over the whole window, 444 in all) missing: grey and hatched, named in
// the legend, left out of the colour scale, the hot share and the
// summary; a missing item with a value is an error; the difference of two
// boards is missing where either is.
func TestMatrixBoardMissingItems(t *testing.T) {
	d := smallBoard()
	d.Items[3].Missing = true
	d.MissingName = "missing cable"
	if _, err := newMatrixModel(d); err == nil || !strings.Contains(err.Error(), `item "i3" is missing (no cable) but has value 4 in bin 0`) {
		t.Fatalf("a missing item with values: %v", err)
	}
	d.Values[3] = []float32{0, 0, 0}
	d.HotShare = 0.34 // one of the three cells that exist
	m, err := newMatrixModel(d)
	if err != nil {
		t.Fatal(err)
	}
	// Up cells: item 0 (111) and the missing item 3: the up scale ends at 111.
	if up := m.scales["up"]; up.Max != 111 {
		t.Fatalf("up scale ends at %v, want 111 (the missing cell left out)", up.Max)
	}
	if m.d.Threshold != 333 {
		t.Fatalf("threshold %v, want 333: the top third of the three cells that exist", m.d.Threshold)
	}
	svg := matrixBoardSVG(m)
	for _, want := range []string{`fill="` + matrixMissingFill + `"`, `fill="url(#hatch)"`, "missing cable: 1 cell, not drawn to scale", "outlined: ≥ 333 (1 cells, 33.3 %)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture has no %q", want)
		}
	}
	if n := strings.Count(svg, `fill="url(#hatch)"`); n != 2 { // the cell and its key
		t.Errorf("%d hatched rectangles, want 2", n)
	}
	s, err := MatrixBoard(d).Summary()
	if err != nil {
		t.Fatal(err)
	}
	if s.Max != 333 || s.MaxItem != "i2" || len(s.Missing) != 1 || s.Missing[0] != "i3" || len(s.Hot) != 1 {
		t.Fatalf("summary %+v", s)
	}
	sp := m.spec()
	if len(sp.Items.Missing) != 1 || sp.Items.Missing[0] != 3 || sp.MissingKey == nil || sp.MissingName != "missing cable" {
		t.Fatalf("spec: missing %v, key %v, name %q", sp.Items.Missing, sp.MissingKey, sp.MissingName)
	}
	if text := MatrixBoard(d).figure().text; !strings.Contains(text, "4 cells (missing cable: 1)") || !strings.Contains(text, "missing cable: 1 cell") {
		t.Fatalf("text form:\n%s", text)
	}

	// Compare: B has item 3 present; the difference has it missing.
	b := smallBoard()
	b.Values[3] = []float32{0, 0, 0}
	row, err := CompareMatrixBoards(d, b)
	if err != nil {
		t.Fatal(err)
	}
	diff := row.Items[2].(*MatrixBoardView).Data
	if !diff.Items[3].Missing || d.Items[3].Missing != true || b.Items[3].Missing {
		t.Fatalf("difference: item 3 missing %v", diff.Items[3].Missing)
	}
}
