// Command gennet writes the ibsim net file of one of the committed test
// fabrics (see regenerate.sh) to standard output:
//
//	gennet k4        fattree.KAry(4)
//	gennet k8        fattree.KAry(8)
//	gennet two6      a two-level tree with 6 parallel cables per L1–L2 pair
//	gennet k8deg     KAry(8) without node-77 and three switch cables
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

// Degraded lists what k8deg leaves out of KAry(8): a node and switch
// cables, by the ibsim ids of their ends.
var (
	DegradedNode   = "node-77"
	DegradedCables = [][2]string{
		{"L1-p1-s2", "L2-p1-s3"},
		{"L1-p6-s0", "L2-p6-s1"},
		{"L2-p5-s0", "L3-b0-s2"},
	}
)

func main() {
	name := "k4"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	var s fattree.Spec
	switch name {
	case "k4":
		s = fattree.KAry(4)
	case "k8", "k8deg":
		s = fattree.KAry(8)
	case "two6":
		s = Two6
	case "paper1296":
		s = fattree.Paper1296()
	default:
		fmt.Fprintf(os.Stderr, "gennet: unknown fabric %q (k4, k8, two6, k8deg, paper1296)\n", name)
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
	if name == "k8deg" {
		out = degrade(out)
	}
	os.Stdout.WriteString(out)
}

// degrade filters a net file: it drops the record of DegradedNode and
// every port line that names it, and the port lines of both ends of each
// of DegradedCables.
func degrade(net string) string {
	var out strings.Builder
	for _, rec := range strings.Split(strings.TrimSuffix(net, "\n\n"), "\n\n") {
		lines := strings.Split(rec, "\n")
		self := lines[0][strings.IndexByte(lines[0], '"'):]
		self = strings.Trim(self, `"`)
		if self == DegradedNode {
			continue
		}
		out.WriteString(lines[0] + "\n")
		for _, l := range lines[1:] {
			if drop(self, l) {
				continue
			}
			out.WriteString(l + "\n")
		}
		out.WriteString("\n")
	}
	return out.String()
}

func drop(self, line string) bool {
	if strings.Contains(line, `"`+DegradedNode+`"[`) {
		return true
	}
	for _, c := range DegradedCables {
		if self == c[0] && strings.Contains(line, `"`+c[1]+`"[`) || self == c[1] && strings.Contains(line, `"`+c[0]+`"[`) {
			return true
		}
	}
	return false
}
