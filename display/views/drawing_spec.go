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
	le := binary.LittleEndian
	hundredths := func(v []float64) string {
		b := make([]byte, 2*len(v))
		for i, x := range v {
			le.PutUint16(b[2*i:], uint16(math.Max(0, math.Min(65535, math.Round(x*100)))))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	sp.X, sp.Y = hundredths(L.x), hundredths(L.y)
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
