// Command gennet writes the ibsim net file of one of the committed test
// fabrics (see regenerate.sh) to standard output:
//
//	gennet k4        fattree.KAry(4)
//	gennet k8        fattree.KAry(8)
//	gennet two6      a two-level tree with 6 parallel cables per L1–L2 pair
//	gennet k8deg     KAry(8) without node-77 and three switch cables
//	gennet k4holes   KAry(4) without two switch cables and node-5's cable
//	gennet paper1296 fattree.Paper1296(), the TreeScope paper's 1,296 nodes
//
// Without an argument it writes k4.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"superstep/topology/fattree"
	"superstep/topology/infiniband"
)

// Two6 is the two-level spec: one pod of 4 L1 with 4 nodes each and 2 L2,
// every L1 cabled to every L2 with 6 parallel cables.
var Two6 = fattree.Spec{Pods: 1, L1PerPod: 4, NodesPerL1: 4, L2PerPod: 2, CablesL1L2: 6}

// A degradation is what a degraded fabric leaves out of its regular
// one: a node's record (and every cable to it), and cables by the ibsim
// ids of their ends.
type degradation struct {
	node   string
	cables [][2]string
}

// Degraded lists the degraded fabrics.
var Degraded = map[string]degradation{
	// k8deg: KAry(8) without a node and three switch cables.
	"k8deg": {node: "node-77", cables: [][2]string{
		{"L1-p1-s2", "L2-p1-s3"},
		{"L1-p6-s0", "L2-p6-s1"},
		{"L2-p5-s0", "L3-b0-s2"},
	}},
	// k4holes: KAry(4) without two switch cables and one host cable (the
	// host stays, with no cable: discovery cannot reach it).
	"k4holes": {cables: [][2]string{
		{"L1-p0-s0", "L2-p0-s1"},
		{"L2-p3-s0", "L3-b0-s1"},
		{"node-5", "L1-p1-s0"},
	}},
}

func main() {
	name := "k4"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	var s fattree.Spec
	switch name {
	case "k4", "k4holes":
		s = fattree.KAry(4)
	case "k8", "k8deg":
		s = fattree.KAry(8)
	case "two6":
		s = Two6
	case "paper1296":
		s = fattree.Paper1296()
	default:
		fmt.Fprintf(os.Stderr, "gennet: unknown fabric %q (k4, k8, two6, k8deg, k4holes, paper1296)\n", name)
		os.Exit(2)
	}
	f, err := fattree.Build(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gennet:", err)
		os.Exit(1)
	}
	var b bytes.Buffer
	if err := infiniband.WriteIBSimNet(&b, f); err != nil {
		fmt.Fprintln(os.Stderr, "gennet:", err)
		os.Exit(1)
	}
	out := b.String()
	if d, ok := Degraded[name]; ok {
		out = d.apply(out)
	}
	os.Stdout.WriteString(out)
}

// apply filters a net file: it drops the record of the node and every
// port line that names it, and the port lines of both ends of each cable.
func (d degradation) apply(net string) string {
	var out strings.Builder
	for _, rec := range strings.Split(strings.TrimSuffix(net, "\n\n"), "\n\n") {
		lines := strings.Split(rec, "\n")
		self := lines[0][strings.IndexByte(lines[0], '"'):]
		self = strings.Trim(self, `"`)
		if d.node != "" && self == d.node {
			continue
		}
		out.WriteString(lines[0] + "\n")
		for _, l := range lines[1:] {
			if d.drop(self, l) {
				continue
			}
			out.WriteString(l + "\n")
		}
		out.WriteString("\n")
	}
	return out.String()
}

func (d degradation) drop(self, line string) bool {
	if d.node != "" && strings.Contains(line, `"`+d.node+`"[`) {
		return true
	}
	for _, c := range d.cables {
		if self == c[0] && strings.Contains(line, `"`+c[1]+`"[`) || self == c[1] && strings.Contains(line, `"`+c[0]+`"[`) {
			return true
		}
	}
	return false
}
