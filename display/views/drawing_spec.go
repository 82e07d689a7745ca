package views

import (
	"encoding/base64"
	"encoding/binary"
	"math"
)

// drawingSpec is what the runtime's drawing view draws from: the frame
// (title, legend and caption around an empty plot area, as SVG) and the
// plot's data as base64 little-endian typed arrays: positions in
// hundredths of a px as Uint16 (the plot is at most 640 px wide and 560
// high, and Go rounds positions to hundredths), group ranks as
// Uint8/16/32 (gb bytes), edges as Uint16/32 pairs (eb bytes).
type drawingSpec struct {
	Frame     string   `json:"frame"`
	Top       ang      `json:"top"` // of the plot in the frame
	W         ang      `json:"w"`
	H         ang      `json:"h"`
	R         ang      `json:"r"`
	N         int      `json:"n"`
	X         string   `json:"x"`
	Y         string   `json:"y"`
	PS        float64  `json:"ps,omitempty"`   // coordinate scale (see pxCoords)
	PO        float64  `json:"po,omitempty"`   // coordinate offset
	ZMin      float64  `json:"zmin,omitempty"` // the smallest zoom: every node in view
	G         string   `json:"g,omitempty"`
	GB        int      `json:"gb,omitempty"`
	GID       []int32  `json:"gid,omitempty"`
	GroupName string   `json:"groupName,omitempty"`
	Colors    []string `json:"colors"` // of ranks 0, 1, …; the last for every rank beyond
	E         string   `json:"e,omitempty"`
	EB        int      `json:"eb,omitempty"`
	EC        string   `json:"ec,omitempty"`
	EO        ang      `json:"eo,omitempty"`
	EW        ang      `json:"ew,omitempty"`
	Labels    []string `json:"labels,omitempty"`
}

func (d DrawingData) spec(L *drawingLayout) drawingSpec {
	sp := drawingSpec{Frame: d.svgDoc(L, false), Top: a4(d.top()), W: a4(L.w), H: a4(L.h), R: a4(L.r), N: L.n}
	sp.X, sp.Y, sp.PS, sp.PO = pxCoords(L.x, L.y)
	sp.ZMin = zoomOutTo(L.w, L.h, L.x, L.y)
	sp.Colors = L.colors
	if L.rank != nil {
		switch k := len(L.groupIDs); {
		case k <= 1<<8:
			sp.GB = 1
		case k <= 1<<16:
			sp.GB = 2
		default:
			sp.GB = 4
		}
		sp.G, sp.GID, sp.GroupName = leInts(L.rank, sp.GB), L.groupIDs, L.groupName
	}
	if len(L.edges) > 0 {
		sp.EB = 4
		if L.n <= 1<<16 {
			sp.EB = 2
		}
		sp.E, sp.EC, sp.EO, sp.EW = leInts(L.edges, sp.EB), drawingEdgeColor, a4(L.opacity), a4(drawingEdgeWidth)
	}
	if d.Labels != nil {
		sp.Labels = d.Labels
	}
	return sp
}

// pxCoords encodes px coordinates for the live view: hundredths of a px
// as little-endian Uint16 (base64), or, when some lie outside 0–655.35 px
// (nodes beyond the frame), (v − offset)·scale with the scale that fits
// them all, which the view decodes as u/scale + offset (scale 0: 100).
func pxCoords(x, y []float64) (xs, ys string, scale, offset float64) {
	lo, hi := 0.0, 0.0
	for _, v := range [][]float64{x, y} {
		for _, c := range v {
			if finite(c) {
				lo, hi = math.Min(lo, c), math.Max(hi, c)
			}
		}
	}
	s, o := 100.0, 0.0
	if lo < 0 || hi > 655.35 {
		s, o = math.Floor(65535/(hi-lo)*1000)/1000, lo
		scale, offset = s, o
	}
	enc := func(v []float64) string {
		b := make([]byte, 2*len(v))
		for i, c := range v {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(math.Max(0, math.Min(65535, math.Round((c-o)*s)))))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	return enc(x), enc(y), scale, offset
}

// zoomOutTo is the smallest zoom of a live view of plot size w×h that
// must show every node: 0.5, or less when nodes lie farther beyond the
// frame; 0 (the default) when 0.5 will do.
func zoomOutTo(w, h float64, x, y []float64) float64 {
	k := 0.5
	for i := range x {
		if !finite(x[i]) || !finite(y[i]) {
			continue
		}
		// Zooming out by k about the centre shows [w/2 − w/2k, w/2 + w/2k].
		if dx := math.Abs(x[i] - w/2); dx > 0 {
			k = math.Min(k, 0.9*w/2/dx)
		}
		if dy := math.Abs(y[i] - h/2); dy > 0 {
			k = math.Min(k, 0.9*h/2/dy)
		}
	}
	if k >= 0.5 {
		return 0
	}
	return math.Floor(k*1000) / 1000
}
