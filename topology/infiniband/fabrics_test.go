package infiniband

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"superstep/topology/fattree"
)

// two6 is gennet's two-level spec (testdata/gennet): one pod of 4 L1
// with 4 nodes and 2 L2, 6 parallel cables per L1–L2 pair.
var two6 = fattree.Spec{Pods: 1, L1PerPod: 4, NodesPerL1: 4, L2PerPod: 2, CablesL1L2: 6}

// TestCommittedFabrics: the fabrics that regenerate.sh simulated infer,
// from both ibnetdiscover formats, to exactly the models gennet wrote
// (levels, pods, bundles, index order, ports and link ids of Build), every
// device named as WriteIBSimNet named Build's, with a GUID and a LID.
func TestCommittedFabrics(t *testing.T) {
	for _, c := range []struct {
		name string
		spec fattree.Spec
	}{{"k4", fattree.KAry(4)}, {"k8", fattree.KAry(8)}, {"two6", two6}} {
		want, err := fattree.Build(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range []string{c.name + ".ibnetdiscover", c.name + "-ports.ibnetdiscover"} {
			got, _, iw := inferFile(t, file)
			if len(iw) != 0 {
				t.Fatalf("%s: Infer warnings %v", file, iw)
			}
			if got.Spec != want.Spec {
				t.Fatalf("%s: spec %v, want %v", file, got.Spec, want.Spec)
			}
			if a, b := anonymous(got), anonymous(want); !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: fabric differs from Build", file)
			}
			for i, n := range got.Nodes {
				if n.Name != netID(want.Nodes[i].Name) || n.GUID == 0 || n.LID == 0 || got.NodeHCAPort(i) != 1 {
					t.Fatalf("%s: node %d is %q GUID %#x LID %d", file, i, n.Name, n.GUID, n.LID)
				}
			}
			for i, s := range got.Switches {
				if s.Name != netID(want.Switches[i].Name) || s.GUID == 0 || s.LID == 0 {
					t.Fatalf("%s: switch %d is %q GUID %#x LID %d", file, i, s.Name, s.GUID, s.LID)
				}
				for p := 1; p <= len(s.Ports); p++ {
					if got.PhysicalPort(i, p) != p {
						t.Fatalf("%s: switch %s port %d is physical port %d", file, s.Name, p, got.PhysicalPort(i, p))
					}
				}
			}
		}
	}
}

// TestDegradedFabric: the k = 8 tree without node-77 and three switch
// cables (gennet k8deg) infers to KAry(8) with exactly those missing.
func TestDegradedFabric(t *testing.T) {
	want, err := fattree.Build(fattree.KAry(8))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"k8deg.ibnetdiscover", "k8deg-ports.ibnetdiscover"} {
		got, g, iw := inferFile(t, file)
		if len(g.Devices) != 207 || len(g.Cables) != 380 {
			t.Fatalf("%s: %d devices, %d cables", file, len(g.Devices), len(g.Cables))
		}
		// the same model; only the physical port numbers (unexported) differ
		if a, b := anonymous(got), anonymous(want); a.Spec != b.Spec || !reflect.DeepEqual(a.Nodes, b.Nodes) || !reflect.DeepEqual(a.Switches, b.Switches) || !reflect.DeepEqual(a.Links, b.Links) {
			t.Fatalf("%s: fabric differs from Build(KAry(8))", file)
		}
		var msgs []string
		for _, w := range iw {
			msgs = append(msgs, w.Msg)
		}
		wantMsgs := []string{
			`missing node: no host on port 2 of switch "L1-p4-s3" (GUID 0x0000000000200013) (L1 p4 s3)`,
			`missing cable between switch "L1-p1-s2" (GUID 0x0000000000200006) and switch "L2-p1-s3" (GUID 0x0000000000200027) (L1-p1-s2 and L2-p1-s3)`,
			`missing cable between switch "L1-p6-s0" (GUID 0x0000000000200018) and switch "L2-p6-s1" (GUID 0x0000000000200039) (L1-p6-s0 and L2-p6-s1)`,
			`missing cable between switch "L2-p5-s0" (GUID 0x0000000000200034) and switch "L3-b0-s2" (GUID 0x0000000000200042) (L2-p5-s0 and L3-b0-s2)`,
		}
		if !reflect.DeepEqual(msgs, wantMsgs) {
			t.Errorf("%s: warnings\n%s\nwant\n%s", file, strings.Join(msgs, "\n"), strings.Join(wantMsgs, "\n"))
		}
		// node 77 (pod 4, L1 3, slot 1) is the missing one
		for i, n := range got.Nodes {
			if (n.GUID == 0) != (i == 77) {
				t.Errorf("%s: node %d %q has GUID %#x", file, i, n.Name, n.GUID)
			}
		}
		// the three cables have no physical ports at either end
		for _, pair := range [][2]string{{"L1-p1-s2", "L2-p1-s3"}, {"L1-p6-s0", "L2-p6-s1"}, {"L2-p5-s0", "L3-b0-s2"}} {
			a, b := switchNamed(t, got, pair[0]), switchNamed(t, got, pair[1])
			for p, port := range got.Switches[a].Ports {
				if got.Links[port.Out].To == b && got.PhysicalPort(a, p+1) != 0 {
					t.Errorf("%s: %s port %d to %s is cabled", file, pair[0], p+1, pair[1])
				}
			}
		}
	}
}

// TestRegenerate reruns testdata/regenerate.sh into a temporary directory
// and compares its outputs with the committed checksums. It needs
// SUPERSTEP_IBSIM=1 and ibsim, opensm, ibnetdiscover, dump_fts, ibroute
// and perfquery on PATH (Debian's ibsim-utils, opensm, infiniband-diags).
func TestRegenerate(t *testing.T) {
	if os.Getenv("SUPERSTEP_IBSIM") != "1" {
		t.Skip("set SUPERSTEP_IBSIM=1 to rerun testdata/regenerate.sh with ibsim and OpenSM")
	}
	for _, tool := range []string{"ibsim", "opensm", "ibnetdiscover", "dump_fts", "ibroute", "perfquery", "sha256sum", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH (install ibsim-utils, opensm, infiniband-diags)", tool)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("sh", filepath.Join("testdata", "regenerate.sh"), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("regenerate.sh: %v\n%s", err, b)
	}
	sums, err := os.Open(filepath.Join("testdata", "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer sums.Close()
	sc := bufio.NewScanner(sums)
	n := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 2 {
			t.Fatalf("SHA256SUMS: bad line %q", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join(out, fs[1]))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != fs[0] {
			t.Errorf("%s differs from the committed one", fs[1])
		}
		committed, err := os.ReadFile(filepath.Join("testdata", fs[1]))
		if err != nil || sha256.Sum256(committed) != sum {
			t.Errorf("the committed %s does not match SHA256SUMS", fs[1])
		}
		n++
	}
	if n < 20 {
		t.Errorf("SHA256SUMS lists %d files", n)
	}
}
