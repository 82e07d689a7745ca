package embed_test

import (
	"fmt"
	"math"
	"strings"

	"superstep/algo/embed"
)

// Four points at 0, 1, 3 and 6 on a line: classical MDS recovers them,
// centred on their mean 2.5, with the farthest point on the positive
// side, and the stress is 0.
func ExampleClassicalMDS() {
	pos := []int{0, 1, 3, 6}
	d := embed.DistanceMatrix(len(pos), func(i, j int) int { return max(pos[i]-pos[j], pos[j]-pos[i]) }, 0)
	x, err := embed.ClassicalMDS(d, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	var out []string
	for _, p := range x {
		out = append(out, fmt.Sprintf("%.2f", p[0]))
	}
	fmt.Println(strings.Join(out, " "))
	fmt.Printf("stress %.2f\n", embed.Stress(d, x))
	// Output:
	// -2.50 -1.50 0.50 3.50
	// stress 0.00
}

// The neighbours-only matrix of a 4-cycle: only adjacent pairs are
// finite, and SMACOF lays each of the four sides 1 long (a rhombus,
// perhaps folded flat: the diagonals are free).
func ExampleSMACOF() {
	ring := func(i, j int) int { k := (i - j + 4) % 4; return min(k, 4-k) }
	d := embed.DistanceMatrix(4, ring, 1)
	r, err := embed.SMACOF(d, 2, embed.SMACOFOptions{Seed: 1, MaxIter: 1000, Tol: 1e-12})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out []string
	for i := 0; i < 4; i++ {
		a, b := r.X[i], r.X[(i+1)%4]
		out = append(out, fmt.Sprintf("%.3f", math.Hypot(a[0]-b[0], a[1]-b[1])))
	}
	fmt.Println(strings.Join(out, " "))
	fmt.Printf("stress < 0.001: %v\n", r.Stress < 0.001)
	// Output:
	// 1.000 1.000 1.000 1.000
	// stress < 0.001: true
}

// RadViz with four anchors at 12, 3, 6 and 9 o'clock: a row equal in
// columns 0 and 1 lands midway between the first two anchors, and a row
// of zeros at the centre.
func ExampleRadViz() {
	p, err := embed.RadViz([][]float64{{1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}}, embed.RadVizOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out []string
	for _, q := range p {
		out = append(out, fmt.Sprintf("(%.2f, %.2f)", q[0], q[1]))
	}
	fmt.Println(strings.Join(out, " "))
	// Output:
	// (0.00, 1.00) (0.50, 0.50) (0.00, 0.00)
}
