package views

import (
	"encoding/base64"
	"encoding/binary"
	"math"
)

// heatSpec is what the runtime's matrix view draws a large matrix from:
// the frame (title, captions, labels and legend around an empty plot area,
// as SVG), the plot's place and cell side, and the non-zero cells row-major
// as base64 little-endian typed arrays: row starts (Uint32, n+1), columns
// (Uint16 or Uint32: cb bytes), values (Uint32 when all are whole numbers
// below 2³², else Float64: vb bytes) and ramp entries (Uint8), with the
// ramp as Ramp.Hex. Go chose every colour; the runtime looks them up, pools
// the cells into pixels as Go's pool does, and formats the hover text with
// FormatMatrixValue's rule.
type heatSpec struct {
	Frame     string   `json:"frame"`
	W         ang      `json:"w"`
	H         ang      `json:"h"`
	Left      ang      `json:"left"`
	Top       ang      `json:"top"`
	GW        int      `json:"gw"`
	GH        int      `json:"gh"`
	S         ang      `json:"s"`
	N         int      `json:"n"`
	M         int      `json:"m"`
	RowStart  string   `json:"rowStart"`
	Col       string   `json:"col"`
	CB        int      `json:"cb"`
	Val       string   `json:"val"`
	VB        int      `json:"vb"`
	CI        string   `json:"ci"`
	Ramp      string   `json:"ramp"`
	Rows      []string `json:"rows"`
	Cols      []string `json:"cols"`
	Unit      string   `json:"unit,omitempty"`
	ValueName string   `json:"valueName,omitempty"`
}

func (m *matrixHeat) spec() heatSpec {
	sp := heatSpec{
		Frame: m.svg(false), W: a4(m.W), H: a4(m.H), Left: a4(m.left), Top: a4(m.top),
		GW: m.gw, GH: m.gh, S: ang(m.s), N: m.n, M: m.m,
		RowStart: leInts(m.rowStart, 4), CI: base64.StdEncoding.EncodeToString(m.ci),
		Ramp: m.ramp.Hex(), Rows: m.d.Rows, Cols: m.d.Cols, Unit: m.d.Unit, ValueName: m.d.ValueName,
	}
	sp.CB = 4
	if m.m <= 1<<16 {
		sp.CB = 2
	}
	sp.Col = leInts(m.col, sp.CB)
	whole := true
	for _, v := range m.val {
		if v != math.Trunc(v) || v >= 1<<32 {
			whole = false
			break
		}
	}
	le := binary.LittleEndian
	if whole {
		sp.VB = 4
		b := make([]byte, 4*len(m.val))
		for k, v := range m.val {
			le.PutUint32(b[4*k:], uint32(v))
		}
		sp.Val = base64.StdEncoding.EncodeToString(b)
	} else {
		sp.VB = 8
		b := make([]byte, 8*len(m.val))
		for k, v := range m.val {
			le.PutUint64(b[8*k:], math.Float64bits(v))
		}
		sp.Val = base64.StdEncoding.EncodeToString(b)
	}
	return sp
}
