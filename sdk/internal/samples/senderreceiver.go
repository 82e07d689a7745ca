package main

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"superstep/algo/bundle"
	"superstep/display"
	"superstep/display/views"
)

// The bundled-curve samples (views.SenderReceiver, views.ChordLines)
// for display/browsertest/senderreceiver.test.mjs, in
// senderreceiver-samples.ipynb: small SVG pictures, a canvas picture with
// a lone curve to hover, and both views at the FD4 trace's scale (1,024
// units, 60,515 pairs).

// srTraffic is seeded made-up traffic: units ranks, up to pairs distinct
// ordered pairs, mostly between neighbours (±4), some far.
func srTraffic(units, pairs int, seed uint64) (src, dst []int32, weight, bytes []float64) {
	s := seed
	rnd := func() float64 {
		s = s*6364136223846793005 + 1442695040888963407
		return float64(s>>11) / float64(1<<53)
	}
	seen := map[[2]int32]bool{}
	for tries := 0; len(src) < pairs && tries < 50*pairs; tries++ {
		a := int32(rnd() * float64(units))
		var b int32
		if rnd() < 0.8 {
			b = (a + int32(units) + int32(rnd()*9) - 4) % int32(units)
		} else {
			b = int32(rnd() * float64(units))
		}
		if a == b || seen[[2]int32{a, b}] {
			continue
		}
		seen[[2]int32{a, b}] = true
		m := math.Floor(1 + 1000*math.Pow(rnd(), 6))
		src, dst = append(src, a), append(dst, b)
		weight, bytes = append(weight, m), append(bytes, m*64)
	}
	return
}

// srTip is the hover text of a pair, formatted here from the data.
func srTip(m, b float64, p, q string, arrowFirst bool) string {
	s := display.FormatNumber(m) + " messages"
	if m == 1 {
		s = "1 message"
	}
	s += ", " + display.FormatNumber(b) + " bytes"
	if arrowFirst {
		return p + "→" + q + ": " + s
	}
	return s + ", " + p + "→" + q
}

// srPairs sums the entries per ordered pair (self pairs dropped when
// noSelf), sorted by sender, then receiver: the curves as drawn.
func srPairs(src, dst []int32, w, b []float64, noSelf bool) (keys [][2]int32, msgs, byt []float64) {
	sum := map[[2]int32][2]float64{}
	for i := range src {
		if noSelf && src[i] == dst[i] {
			continue
		}
		k := [2]int32{src[i], dst[i]}
		v := sum[k]
		sum[k] = [2]float64{v[0] + w[i], v[1] + b[i]}
	}
	for k := range sum {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int32) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	for _, k := range keys {
		msgs, byt = append(msgs, sum[k][0]), append(byt, sum[k][1])
	}
	return
}

// srPick picks a point of a curve to hover: on the first curve, from the
// last, with a point (a piece's middle, or near its ends) that has no
// other curve within 7 px; the point in picture px.
func srPick(left, top float64, polys [][]bundle.Point) (int, float64, float64) {
	samples := make([][]bundle.Point, len(polys))
	cands := make([][]bundle.Point, len(polys))
	for i, p := range polys {
		qs, err := bundle.QuadChain(p)
		if err != nil {
			continue
		}
		for k, q := range qs {
			cands[i] = append(cands[i], q.At(0.5))
			if k == 0 {
				cands[i] = append(cands[i], q.At(0.3))
			}
			if k == len(qs)-1 {
				cands[i] = append(cands[i], q.At(0.7))
			}
			for s := 0; s <= 40; s++ {
				samples[i] = append(samples[i], q.At(float64(s)/40))
			}
		}
	}
	for i := len(polys) - 1; i >= 0; i-- {
		for _, c := range cands[i] {
			alone := c.X > 8 && c.Y > 8
			for j := range polys {
				if j == i || !alone {
					continue
				}
				for _, pt := range samples[j] {
					if math.Hypot(pt.X-c.X, pt.Y-c.Y) < 7 {
						alone = false
						break
					}
				}
			}
			if alone {
				return i, left + c.X, top + c.Y
			}
		}
	}
	return -1, 0, 0
}

func srNames(n int) []string {
	u := make([]string, n)
	for i := range u {
		u[i] = "p" + strconv.Itoa(i)
	}
	return u
}

func srUnits(n int) []views.Unit {
	u := make([]views.Unit, n)
	for i := range u {
		u[i] = views.Unit{ID: "p" + strconv.Itoa(i), Name: "p" + strconv.Itoa(i)}
	}
	return u
}

type curvesView interface {
	display.Renderer
	Curves() (left, top float64, polys [][]bundle.Point)
}

func srCell(source string, v curvesView, mode string, units []string, src, dst []int32, w, b []float64, chord bool) cell {
	left, top, polys := v.Curves()
	expect := map[string]any{"kind": map[bool]string{false: "senderreceiver", true: "chordlines"}[chord], "mode": mode, "curves": len(polys)}
	if (mode == "svg") != (len(polys) <= views.CurveSVGMax) {
		panic(fmt.Sprintf("samples: %d curves in mode %s", len(polys), mode))
	}
	if mode != "fd4" {
		keys, msgs, byt := srPairs(src, dst, w, b, chord)
		if len(keys) != len(polys) {
			panic(fmt.Sprintf("samples: %d pairs but %d curves", len(keys), len(polys)))
		}
		i, x, y := srPick(left, top, polys)
		if i < 0 {
			panic("samples: no lone curve to hover")
		}
		expect["hover"] = map[string]any{"x": x, "y": y, "tip": srTip(msgs[i], byt[i], units[keys[i][0]], units[keys[i][1]], chord)}
	}
	if mode != "svg" {
		// No SVG in the metadata: tens of thousands of paths.
		return cell{source, noSVG{v}, expect}
	}
	return cell{source, v, expect}
}

// noSVG hides a view's SVG from the sample's metadata.
type noSVG struct{ display.Renderer }

// lone keeps the pairs that do not involve unit u and adds the pair
// u → v of m messages (64 bytes each): a curve of its own to hover.
func lone(src, dst []int32, w, b []float64, u, v int32, m float64) ([]int32, []int32, []float64, []float64) {
	var s2, d2 []int32
	var w2, b2 []float64
	for i := range src {
		if src[i] != u && dst[i] != u {
			s2, d2, w2, b2 = append(s2, src[i]), append(d2, dst[i]), append(w2, w[i]), append(b2, b[i])
		}
	}
	return append(s2, u), append(d2, v), append(w2, m), append(b2, 64*m)
}

func senderReceiverCells() []cell {
	var cells []cell
	// Small: SVG paths. Unit 0 (or 1) sends one message stream only.
	s1, d1, w1, b1 := srTraffic(16, 60, 21)
	s1, d1, w1, b1 = lone(s1, d1, w1, b1, 0, -1, 0)
	s1, d1, w1, b1 = lone(s1[:len(s1)-1], d1[:len(d1)-1], w1[:len(w1)-1], b1[:len(b1)-1], 1, 8, 12)
	u16 := srNames(16)
	cells = append(cells, srCell(`views.SenderReceiver(small) // 16 ranks, 47 pairs, 8×8 grid`,
		views.SenderReceiver(views.SenderReceiverData{Title: "16 ranks", Units: u16, Src: s1, Dst: d1, Weight: w1, Bytes: b1}),
		"svg", u16, s1, d1, w1, b1, false))
	s2, d2, w2, b2 := srTraffic(12, 40, 22)
	s2, d2, w2, b2 = lone(s2, d2, w2, b2, 0, 6, 5)
	u12 := srNames(12)
	rings := []views.Ring{{Name: "host", Groups: []views.RingGroup{{ID: "h0", First: 0, Last: 3}, {ID: "h1", First: 4, Last: 7}, {ID: "h2", First: 8, Last: 11}}}}
	cells = append(cells, srCell(`views.ChordLines(small) // 12 ranks on 3 hosts, 37 pairs`,
		views.ChordLines(views.ChordLinesData{Title: "12 ranks on 3 hosts", Units: srUnits(12), Rings: rings, Src: s2, Dst: d2, Weight: w2, Bytes: b2}),
		"svg", u12, s2, d2, w2, b2, true))
	// Canvas with a lone curve: 2,300 (2,200) pairs among the first 56 of
	// 64 ranks, and one pair between the last ranks.
	s3, d3, w3, b3 := srTraffic(56, 2300, 23)
	s3, d3, w3, b3 = lone(s3, d3, w3, b3, 60, 62, 7)
	u64 := srNames(64)
	cells = append(cells, srCell(`views.SenderReceiver(medium) // 64 ranks, 2,301 pairs: a canvas`,
		views.SenderReceiver(views.SenderReceiverData{Units: u64, Src: s3, Dst: d3, Weight: w3, Bytes: b3}),
		"canvas", u64, s3, d3, w3, b3, false))
	s4, d4, w4, b4 := srTraffic(56, 2200, 24)
	s4, d4, w4, b4 = lone(s4, d4, w4, b4, 60, 62, 3)
	cells = append(cells, srCell(`views.ChordLines(medium) // 64 ranks, 2,201 pairs: a canvas, alpha blending`,
		views.ChordLines(views.ChordLinesData{Units: srUnits(64), Src: s4, Dst: d4, Weight: w4, Bytes: b4, Blend: "alpha"}),
		"canvas", u64, s4, d4, w4, b4, true))
	// FD4 scale.
	s5, d5, w5, b5 := srTraffic(1024, 60515, 25)
	u1024 := srNames(1024)
	cells = append(cells,
		srCell(`views.SenderReceiver(fd4) // 1,024 ranks, 60,515 pairs`,
			views.SenderReceiver(views.SenderReceiverData{Title: "FD4 scale", Units: u1024, Src: s5, Dst: d5, Weight: w5, Bytes: b5}),
			"fd4", u1024, nil, nil, nil, nil, false),
		srCell(`views.ChordLines(fd4) // 1,024 ranks, 60,515 pairs`,
			views.ChordLines(views.ChordLinesData{Title: "FD4 scale", Units: srUnits(1024), Src: s5, Dst: d5, Weight: w5, Bytes: b5}),
			"fd4", u1024, nil, nil, nil, nil, true),
		cell{`views.SenderReceiver(views.SenderReceiverData{})`, views.SenderReceiver(views.SenderReceiverData{}), map[string]any{"kind": "empty"}},
		cell{`views.ChordLines(views.ChordLinesData{})`, views.ChordLines(views.ChordLinesData{}), map[string]any{"kind": "empty"}},
	)
	return cells
}

// writeSenderReceiverSamples writes dir/senderreceiver-samples.ipynb, or
// exits.
func writeSenderReceiverSamples(dir string) {
	if err := write(dir, "senderreceiver-samples.ipynb", senderReceiverCells()); err != nil {
		fmt.Fprintln(os.Stderr, "samples:", err)
		os.Exit(1)
	}
}
