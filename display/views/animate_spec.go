package views

import (
	"encoding/base64"
	"encoding/binary"
	"math"
)

// animateSpec is what the runtime's animate view (runtime/src/animate.js)
// plays. Binary arrays are base64 little-endian; "ib" is the byte width of
// a vertex index (2 up to 65,536 vertices, else 4).
//
// Values travel exactly (the hover text shows them as Go formats them): the
// distinct values of the run as Float64 ("vals", in order of first
// appearance), each with its colour ("vcol": an index into "pal", which Go
// computed from the scale). Superstep 0 gives every vertex's value index
// ("v0", "vb" bytes each); each later superstep only the vertices whose
// value changed ("cn" per superstep; "cv" the vertices, "ci" their new
// value indices). States are 2 bits per vertex per superstep ("st", vertex
// s·n+i at bits 2·(k mod 4) of byte k/4). Messages are sparse: per
// superstep ("mn") the vertices that sent or received ("mv") and their
// counts ("ms", "mr", "mb" bytes each). Pulses are the sampled ones, per
// superstep ("pn"), from "pf" to "pt".
type animateSpec struct {
	Frame     string     `json:"frame"` // title, legend and caption around the empty plot
	Top       ang        `json:"top"`   // of the plot in the frame
	W         ang        `json:"w"`
	H         ang        `json:"h"`
	R         ang        `json:"r"`
	N         int        `json:"n"`
	Steps     int        `json:"steps"`
	Start     int        `json:"start,omitempty"` // the superstep the view opens at
	IB        int        `json:"ib"`
	X         string     `json:"x"` // hundredths of a px, Uint16
	Y         string     `json:"y"`
	PS        float64    `json:"ps,omitempty"`   // coordinate scale (see pxCoords)
	PO        float64    `json:"po,omitempty"`   // coordinate offset
	ZMin      float64    `json:"zmin,omitempty"` // the smallest zoom: every node in view
	E         string     `json:"e,omitempty"`
	EO        ang        `json:"eo,omitempty"`
	Style     animStyl   `json:"style"`
	Labels    []string   `json:"labels,omitempty"`
	ValueName string     `json:"valueName"`
	Pal       []string   `json:"pal"`
	Vals      string     `json:"vals"`
	VCol      string     `json:"vcol"`
	VCB       int        `json:"vcb"`
	VB        int        `json:"vb"`
	V0        string     `json:"v0"`
	CN        []int      `json:"cn"`
	CV        string     `json:"cv"`
	CI        string     `json:"ci"`
	St        string     `json:"st"`
	MN        []int      `json:"mn"`
	MV        string     `json:"mv"`
	MS        string     `json:"ms"`
	MR        string     `json:"mr"`
	MB        int        `json:"mb"`
	PN        []int      `json:"pn"`
	PF        string     `json:"pf"`
	PT        string     `json:"pt"`
	StepText  []string   `json:"stepText"`
	GroupName string     `json:"groupName,omitempty"`
	G         string     `json:"g,omitempty"` // group rank per vertex, gb bytes
	GB        int        `json:"gb,omitempty"`
	GID       []int32    `json:"gid,omitempty"`
	GColors   []string   `json:"gcolors,omitempty"` // of ranks 0…8, then the rest
	Trend     *trendSpec `json:"trend,omitempty"`
}

// animStyl is how the runtime draws: the colours and widths Go's static
// picture uses.
type animStyl struct {
	Edge    string `json:"edge"`
	EdgeW   ang    `json:"edgeW"`
	Pulse   string `json:"pulse"`
	Active  string `json:"active"`
	Woken   string `json:"woken"`
	Outline string `json:"outline"`
	OutW    ang    `json:"outW"`
	Ring    ang    `json:"ring"`
	Dot     ang    `json:"dot"`
	PulseW  ang    `json:"pulseW"`
	At      ang    `json:"at"` // where a pulse at rest sits
	WokenOn bool   `json:"wokenRing"`
}

func (d AnimateData) spec(L *animateLayout) animateSpec {
	n := L.n
	sp := animateSpec{Frame: d.liveFrame(L), Top: a4(d.top()), W: a4(L.w), H: a4(L.h), R: a4(L.r), N: n, Steps: L.steps, Start: d.Start,
		ValueName: d.valueName(), Trend: L.trend}
	sp.IB = 2
	if n > 1<<16 {
		sp.IB = 4
	}
	le := binary.LittleEndian
	sp.X, sp.Y, sp.PS, sp.PO = pxCoords(L.x, L.y)
	if len(L.edges) > 0 {
		sp.E, sp.EO = leInts(L.edges, sp.IB), a4(L.opacity)
	}
	ps := L.panelStyle(L.r)
	sp.Style = animStyl{Edge: drawingEdgeColor, EdgeW: a4(drawingEdgeWidth), Pulse: animatePulseColor, Active: animateActiveRing,
		Woken: animateWokenRing, Outline: animateOutline, OutW: a4(ps.outline), Ring: a4(ps.ring), Dot: a4(ps.dot),
		PulseW: a4(ps.pulseW), At: a4(animatePulseAt), WokenOn: ps.woken}
	if d.Labels != nil {
		sp.Labels = d.Labels
	}

	// Values: the distinct ones, their colours, then per superstep.
	index := map[uint64]int32{}
	var vals []float64
	palIndex := map[string]int32{}
	var vcol []int32
	idx := make([][]int32, L.steps)
	for s, st := range d.Steps {
		idx[s] = make([]int32, n)
		for i, v := range st.Value {
			key := math.Float64bits(v)
			k, ok := index[key]
			if !ok {
				k = int32(len(vals))
				index[key] = k
				vals = append(vals, v)
				c := L.fill(v)
				p, ok := palIndex[c]
				if !ok {
					p = int32(len(sp.Pal))
					palIndex[c] = p
					sp.Pal = append(sp.Pal, c)
				}
				vcol = append(vcol, p)
			}
			idx[s][i] = k
		}
	}
	if sp.Pal == nil {
		sp.Pal = []string{}
	}
	vb := make([]byte, 8*len(vals))
	for k, v := range vals {
		le.PutUint64(vb[8*k:], math.Float64bits(v))
	}
	sp.Vals = base64.StdEncoding.EncodeToString(vb)
	sp.VCB = byteSize(len(sp.Pal))
	sp.VCol = leInts(vcol, sp.VCB)
	sp.VB = byteSize(len(vals))
	if L.steps > 0 {
		sp.V0 = leInts(idx[0], sp.VB)
	}
	sp.CN = make([]int, L.steps)
	var cv, ci []int32
	for s := 1; s < L.steps; s++ {
		for i := range n {
			if idx[s][i] != idx[s-1][i] {
				cv = append(cv, int32(i))
				ci = append(ci, idx[s][i])
				sp.CN[s]++
			}
		}
	}
	sp.CV, sp.CI = leInts(cv, sp.IB), leInts(ci, sp.VB)

	// States, 2 bits each.
	stb := make([]byte, (n*L.steps+3)/4)
	for s, st := range d.Steps {
		for i, x := range st.State {
			k := s*n + i
			stb[k/4] |= (x & 3) << (2 * (k % 4))
		}
	}
	sp.St = base64.StdEncoding.EncodeToString(stb)

	// Messages per vertex, sparse.
	sp.MN = make([]int, L.steps)
	var mv, ms, mr []int32
	most := int32(0)
	for s := range d.Steps {
		sent, recv := d.counts(s)
		for i := range n {
			if sent[i] != 0 || recv[i] != 0 {
				mv = append(mv, int32(i))
				ms = append(ms, sent[i])
				mr = append(mr, recv[i])
				most = max(most, sent[i], recv[i])
				sp.MN[s]++
			}
		}
	}
	sp.MB = byteSize(int(most) + 1)
	sp.MV, sp.MS, sp.MR = leInts(mv, sp.IB), leInts(ms, sp.MB), leInts(mr, sp.MB)

	// Pulses, as sampled.
	sp.PN = make([]int, L.steps)
	var pf, pt []int32
	for s, st := range d.Steps {
		for _, k := range L.pulses[s] {
			pf = append(pf, st.Pulses[k].From)
			pt = append(pt, st.Pulses[k].To)
		}
		sp.PN[s] = len(L.pulses[s])
	}
	sp.PF, sp.PT = leInts(pf, sp.IB), leInts(pt, sp.IB)

	sp.StepText = make([]string, L.steps)
	for s := range sp.StepText {
		sp.StepText[s] = L.stepText(s)
	}
	if L.groupRank != nil {
		sp.GroupName = d.groupName()
		sp.GB = byteSize(len(L.groupIDs))
		sp.G = leInts(L.groupRank, sp.GB)
		sp.GID = L.groupIDs
		sp.GColors = L.groupClr
	}
	return sp
}
