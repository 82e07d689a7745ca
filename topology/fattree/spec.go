package fattree

import (
	"errors"
	"fmt"
)

// MaxPorts is the largest number of ports a switch of a Spec may have:
// InfiniBand numbers switch ports with one byte and reserves 255.
const MaxPorts = 254

// MaxNodes is the largest number of compute nodes a Spec may describe,
// which keeps a Fabric's memory (a few hundred bytes per node and link)
// within what a notebook can hold.
const MaxNodes = 1 << 21

// Spec is the shape of a fat-tree: how many nodes, switches and parallel
// cables each level has. Every L1 of a pod is cabled to every L2 of the
// same pod with CablesL1L2 cables. In a three-level tree the L2 of a pod
// are split into Bundles equal groups of L2PerPod/Bundles consecutive
// switches: L2 m of every pod belongs to bundle m / (L2PerPod/Bundles) and
// is cabled to each of the L3PerBundle L3 of that bundle with CablesL2L3
// cables. A two-level tree has Bundles = L3PerBundle = CablesL2L3 = 0 and
// a single pod.
type Spec struct {
	Pods        int // pods (groups of L1 and L2 switches)
	L1PerPod    int // edge switches per pod
	NodesPerL1  int // compute nodes per edge switch
	L2PerPod    int // aggregation switches per pod
	Bundles     int // groups of core switches; 0 in a two-level tree
	L3PerBundle int // core switches per bundle; 0 in a two-level tree
	CablesL1L2  int // parallel cables between an L1 and each L2 of its pod
	CablesL2L3  int // parallel cables between an L2 and each L3 of its bundle; 0 in a two-level tree

	bad string // why the constructor that made s could not (Validate reports it)
}

// KAry is the classic three-level k-ary fat-tree built from k-port
// switches (k even, 2 ≤ k ≤ MaxPorts): k pods of k/2 L1 with k/2 nodes each
// and k/2 L2, and k/2 bundles of k/2 L3, one cable per pair of connected
// switches; L2 m of every pod is the one L2 of bundle m in that pod. That
// makes k³/4 nodes, k²/2 L1, k²/2 L2 and k²/4 L3. An odd or out-of-range k
// gives a Spec that Validate rejects.
func KAry(k int) Spec {
	if k%2 != 0 || k < 2 || k > MaxPorts {
		return Spec{bad: fmt.Sprintf("fattree: KAry(%d): k must be even and between 2 and %d", k, MaxPorts)}
	}
	h := k / 2
	return Spec{
		Pods: k, L1PerPod: h, NodesPerL1: h, L2PerPod: h,
		Bundles: h, L3PerBundle: h, CablesL1L2: 1, CablesL2L3: 1,
	}
}

// Paper1296 is the 1,296-node production cluster of the TreeScope paper,
// built from 36-port switches: 4 pods of 18 L1 (18 nodes each) and 18 L2,
// and 2 bundles of 18 L3; the first 9 L2 of every pod belong to bundle 0,
// the last 9 to bundle 1. 72 L1, 72 L2, 36 L3, 3,888 cables.
func Paper1296() Spec {
	return Spec{
		Pods: 4, L1PerPod: 18, NodesPerL1: 18, L2PerPod: 18,
		Bundles: 2, L3PerBundle: 18, CablesL1L2: 1, CablesL2L3: 1,
	}
}

// Paper3200 is the simulated 3,200-node, 8-pod system of the TreeScope
// paper's second case study, built from 40-port switches as the CODES
// simulator builds it: 8 pods of 20 L1 (20 nodes each) and 20 L2, and 4
// bundles of 20 L3, 5 L2 per pod in each bundle. 160 L1, 160 L2, 80 L3.
func Paper3200() Spec {
	return Spec{
		Pods: 8, L1PerPod: 20, NodesPerL1: 20, L2PerPod: 20,
		Bundles: 4, L3PerBundle: 20, CablesL1L2: 1, CablesL2L3: 1,
	}
}

// Validate reports the first thing wrong with s, naming the field, or nil.
func (s Spec) Validate() error {
	if s.bad != "" {
		return errors.New(s.bad)
	}
	for _, f := range []struct {
		name string
		v    int
		min  int
	}{
		{"Pods", s.Pods, 1}, {"L1PerPod", s.L1PerPod, 1}, {"NodesPerL1", s.NodesPerL1, 1},
		{"L2PerPod", s.L2PerPod, 1}, {"Bundles", s.Bundles, 0}, {"L3PerBundle", s.L3PerBundle, 0},
		{"CablesL1L2", s.CablesL1L2, 1}, {"CablesL2L3", s.CablesL2L3, 0},
	} {
		if f.v < f.min {
			return fmt.Errorf("fattree: Spec.%s = %d, want at least %d", f.name, f.v, f.min)
		}
		if f.v > MaxPorts {
			return fmt.Errorf("fattree: Spec.%s = %d, more than a switch's %d ports can connect", f.name, f.v, MaxPorts)
		}
	}
	if s.Bundles == 0 || s.L3PerBundle == 0 {
		if s.Bundles != 0 || s.L3PerBundle != 0 || s.CablesL2L3 != 0 {
			return fmt.Errorf("fattree: Spec.Bundles = %d, L3PerBundle = %d, CablesL2L3 = %d: a two-level tree has all three 0, a three-level tree none",
				s.Bundles, s.L3PerBundle, s.CablesL2L3)
		}
		if s.Pods != 1 {
			return fmt.Errorf("fattree: Spec.Pods = %d in a two-level tree (Bundles = 0), want 1: without L3 the pods would not be connected", s.Pods)
		}
	} else {
		if s.CablesL2L3 < 1 {
			return fmt.Errorf("fattree: Spec.CablesL2L3 = %d in a three-level tree, want at least 1", s.CablesL2L3)
		}
		if s.L2PerPod%s.Bundles != 0 {
			return fmt.Errorf("fattree: Spec.L2PerPod = %d is not a multiple of Spec.Bundles = %d", s.L2PerPod, s.Bundles)
		}
	}
	for level := 1; level <= s.Levels(); level++ {
		if p := s.Ports(level); p > MaxPorts {
			return fmt.Errorf("fattree: an L%d switch of %s has %d ports, more than %d", level, s, p, MaxPorts)
		}
	}
	if n := s.Pods * s.L1PerPod * s.NodesPerL1; n > MaxNodes {
		return fmt.Errorf("fattree: Spec.Pods·L1PerPod·NodesPerL1 = %d nodes, more than %d", n, MaxNodes)
	}
	return nil
}

// String formats s compactly, e.g. "4 pods × 18 L1 × 18 nodes, 18 L2/pod,
// 2 bundles × 18 L3, cables 1/1".
func (s Spec) String() string {
	str := fmt.Sprintf("%d pods × %d L1 × %d nodes, %d L2/pod", s.Pods, s.L1PerPod, s.NodesPerL1, s.L2PerPod)
	if s.Bundles > 0 {
		str += fmt.Sprintf(", %d bundles × %d L3", s.Bundles, s.L3PerBundle)
	}
	return str + fmt.Sprintf(", cables %d/%d", s.CablesL1L2, s.CablesL2L3)
}

// Levels is the number of switch levels: 3, or 2 without bundles.
func (s Spec) Levels() int {
	if s.Bundles == 0 {
		return 2
	}
	return 3
}

// Nodes is the number of compute nodes.
func (s Spec) Nodes() int { return s.Pods * s.L1PerPod * s.NodesPerL1 }

// Switches is the number of switches at level 1, 2 or 3 (0 for any other
// level).
func (s Spec) Switches(level int) int {
	switch level {
	case 1:
		return s.Pods * s.L1PerPod
	case 2:
		return s.Pods * s.L2PerPod
	case 3:
		return s.Bundles * s.L3PerBundle
	}
	return 0
}

// L2PerBundle is the number of L2 of one pod in one bundle,
// L2PerPod/Bundles (0 in a two-level tree).
func (s Spec) L2PerBundle() int {
	if s.Bundles == 0 {
		return 0
	}
	return s.L2PerPod / s.Bundles
}

// Ports is the number of ports of a switch at level 1, 2 or 3: down ports
// plus up ports.
func (s Spec) Ports(level int) int { return s.DownPorts(level) + s.UpPorts(level) }

// DownPorts is the number of ports of a level-1, 2 or 3 switch that lead
// to the level below.
func (s Spec) DownPorts(level int) int {
	switch level {
	case 1:
		return s.NodesPerL1
	case 2:
		return s.L1PerPod * s.CablesL1L2
	case 3:
		return s.Pods * s.L2PerBundle() * s.CablesL2L3
	}
	return 0
}

// UpPorts is the number of ports of a level-1, 2 or 3 switch that lead to
// the level above (0 for the top level).
func (s Spec) UpPorts(level int) int {
	switch level {
	case 1:
		return s.L2PerPod * s.CablesL1L2
	case 2:
		return s.L3PerBundle * s.CablesL2L3
	}
	return 0
}

// Cables is the number of (bidirectional) cables: one per node, plus the
// L1–L2 and L2–L3 cables.
func (s Spec) Cables() int { return s.Nodes() + s.Cells()/2 }

// Links is the number of directed links, two per cable.
func (s Spec) Links() int { return 2 * s.Cables() }

// Cells is the number of directed links between two switches (L1↔L2 and
// L2↔L3, both directions): the cells of TreeScope's matrix view.
func (s Spec) Cells() int {
	return 2 * (s.Switches(1)*s.UpPorts(1) + s.Switches(2)*s.UpPorts(2))
}
