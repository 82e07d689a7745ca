package views

// heatSpec is what the runtime's matrix view draws a large matrix from:
// the frame (title, captions, labels and legend around an empty plot area,
// as SVG), the plot's place and cell side, and the non-zero cells row-major
// as arrays in Bin (an arrayPack): row starts (n+1), columns and values
// (whole numbers as integers, else f64), with the ramp as Ramp.Hex. Go
// chose every colour: a cell's ramp entry comes from its value by
// RampSteps (classSteps; colorIndex grows with the value). The runtime
// looks them up, pools the cells into pixels as Go's pool does, and
// formats the hover text with FormatMatrixValue's rule.
type heatSpec struct {
	Frame     string       `json:"frame"`
	W         ang          `json:"w"`
	H         ang          `json:"h"`
	Left      ang          `json:"left"`
	Top       ang          `json:"top"`
	GW        int          `json:"gw"`
	GH        int          `json:"gh"`
	S         ang          `json:"s"`
	N         int          `json:"n"`
	M         int          `json:"m"`
	Bin       string       `json:"bin"`
	RowStart  arrayRef     `json:"rowStart"`
	Col       arrayRef     `json:"col"`
	Val       arrayRef     `json:"val"`
	RampSteps [][2]float64 `json:"rampSteps"`
	Ramp      string       `json:"ramp"`
	Rows      []string     `json:"rows"`
	Cols      []string     `json:"cols"`
	Unit      string       `json:"unit,omitempty"`
	ValueName string       `json:"valueName,omitempty"`
}

func (m *matrixHeat) spec() heatSpec {
	var pack arrayPack
	sp := heatSpec{
		Frame: m.svg(false), W: a4(m.W), H: a4(m.H), Left: a4(m.left), Top: a4(m.top),
		GW: m.gw, GH: m.gh, S: ang(m.s), N: m.n, M: m.m,
		RowStart: pack.ints(m.rowStart), Col: pack.ints(m.col), Val: pack.counts(m.val),
		RampSteps: classSteps(m.val, func(k int) int { return int(m.ci[k]) }),
		Ramp:      m.ramp.Hex(), Rows: m.d.Rows, Cols: m.d.Cols, Unit: m.d.Unit, ValueName: m.d.ValueName,
	}
	sp.Bin = pack.String()
	return sp
}
