package views

import (
	"fmt"
	"math"
	"testing"
)

// oklab converts "#rrggbb" to OKLab (Björn Ottosson's perceptual space,
// where a distance of about 0.02 is just noticeable).
func oklab(hex string) [3]float64 {
	var r, g, b int
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	lin := func(c int) float64 {
		v := float64(c) / 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	R, G, B := lin(r), lin(g), lin(b)
	l := math.Cbrt(0.4122214708*R + 0.5363325363*G + 0.0514459929*B)
	m := math.Cbrt(0.2119034982*R + 0.6806995451*G + 0.1073969566*B)
	s := math.Cbrt(0.0883024619*R + 0.2817188376*G + 0.6299787005*B)
	return [3]float64{0.2104542553*l + 0.7936177850*m - 0.0040720468*s,
		1.9779984951*l - 2.4285922050*m + 0.4505937099*s,
		0.0259040371*l + 0.7827717662*m - 0.8086757660*s}
}

// distance is the perceptual distance of two "#rrggbb" colours (OKLab).
func distance(a, b string) float64 {
	x, y := oklab(a), oklab(b)
	return math.Sqrt((x[0]-y[0])*(x[0]-y[0]) + (x[1]-y[1])*(x[1]-y[1]) + (x[2]-y[2])*(x[2]-y[2]))
}

func TestNestedPaletteTellsBranchesApart(t *testing.T) {
	for _, c := range []struct{ racks, hostsPerRack, workersPerHost int }{
		{1, 4, 2}, {1, 2, 2}, {2, 2, 2}, {2, 4, 4}, {4, 2, 2}, {1, 8, 1}, {3, 3, 3},
	} {
		var memberOf, leafOf []int
		for r := 0; r < c.racks; r++ {
			for h := 0; h < c.hostsPerRack; h++ {
				memberOf = append(memberOf, r)
				for w := 0; w < c.workersPerHost; w++ {
					leafOf = append(leafOf, len(memberOf)-1)
				}
			}
		}
		racks, hosts, workers := NestedPalette(c.racks, memberOf, leafOf)
		if len(racks) != c.racks || len(hosts) != len(memberOf) || len(workers) != len(leafOf) {
			t.Fatalf("%+v: %d, %d, %d colours", c, len(racks), len(hosts), len(workers))
		}
		// Every unit with the branch it belongs to (rack r: "r"; host h of
		// rack r: "r/h"; worker w of host h: "r/h/w").
		type unit struct{ name, colour, branch string }
		var units []unit
		for r, col := range racks {
			units = append(units, unit{fmt.Sprintf("rack %d", r), col, fmt.Sprint(r)})
		}
		for h, col := range hosts {
			units = append(units, unit{fmt.Sprintf("host %d", h), col, fmt.Sprintf("%d/%d", memberOf[h], h)})
		}
		for w, col := range workers {
			h := leafOf[w]
			units = append(units, unit{fmt.Sprintf("worker %d", w), col, fmt.Sprintf("%d/%d/%d", memberOf[h], h, w)})
		}
		within := func(a, b string) bool { // a is b or an ancestor of b
			return len(a) <= len(b) && b[:len(a)] == a && (len(a) == len(b) || b[len(a)] == '/')
		}
		for i, a := range units {
			for _, b := range units[i+1:] {
				related := within(a.branch, b.branch) || within(b.branch, a.branch)
				// Two just-noticeable differences at least, for any two
				// units; workers of one host differ in lightness only.
				if d := distance(a.colour, b.colour); d < 0.04 {
					t.Errorf("%+v: %s %s and %s %s look the same (distance %.3f, related %v)", c, a.name, a.colour, b.name, b.colour, d, related)
				}
			}
		}
	}
}

func TestNestedPaletteIsStable(t *testing.T) {
	r1, h1, w1 := NestedPalette(1, []int{0, 0}, []int{0, 0, 1, 1})
	r2, h2, w2 := NestedPalette(1, []int{0, 0}, []int{0, 0, 1, 1})
	if fmt.Sprint(r1, h1, w1) != fmt.Sprint(r2, h2, w2) {
		t.Fatal("not deterministic")
	}
	if r, h, w := NestedPalette(0, nil, nil); r != nil || h != nil || w != nil {
		t.Fatal("colours for an empty hierarchy")
	}
}
