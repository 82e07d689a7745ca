package infiniband

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
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
			`missing host cable: no host on port 2 of switch "L1-p4-s3" (GUID 0x0000000000200013) (L1 p4 s3): node 77 and its cable are missing`,
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
// and compares its outputs with the committed checksums (perfquery files
// up to ibsim's run-to-run PortRcvPkts, see perfqueryDifference). It needs
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
		committed, err := os.ReadFile(filepath.Join("testdata", fs[1]))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(committed); hex.EncodeToString(sum[:]) != fs[0] {
			t.Errorf("the committed %s does not match SHA256SUMS", fs[1])
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != fs[0] {
			if !strings.Contains(fs[1], "perfquery") {
				t.Errorf("%s differs from the committed one", fs[1])
			} else if why := perfqueryDifference(committed, b); why != "" {
				t.Errorf("%s differs from the committed one: %s", fs[1], why)
			}
		}
		n++
	}
	if n < 20 {
		t.Errorf("SHA256SUMS lists %d files", n)
	}
}

// perfqueryDifference compares two perfquery outputs as far as ibsim
// makes them reproducible, and says how they differ ("" when they agree).
// ibsim credits received packets (PortRcvPkts) to ports in an order that
// varies from run to run: on the k4 fabric one run gave Lid 13 ports 3 and
// 4 646 and 505 packets, another 1,069 and 82, and moved 843 packets from
// Lid 25 to Lid 27, while every PortRcvData and the fabric's total of
// received packets (15,700) stayed the same. So PortRcvPkts lines may
// differ as long as their total is the same; every other line must be
// identical.
func perfqueryDifference(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	if len(wl) != len(gl) {
		return fmt.Sprintf("%d lines, want %d", len(gl), len(wl))
	}
	var wantSum, gotSum int64
	for i := range wl {
		w, wok := strings.CutPrefix(wl[i], "PortRcvPkts:")
		g, gok := strings.CutPrefix(gl[i], "PortRcvPkts:")
		if !wok && !gok && wl[i] == gl[i] {
			continue
		}
		wv, err1 := strconv.ParseInt(strings.TrimLeft(w, "."), 0, 64)
		gv, err2 := strconv.ParseInt(strings.TrimLeft(g, "."), 0, 64)
		if !wok || !gok || err1 != nil || err2 != nil {
			return fmt.Sprintf("line %d: %q, want %q", i+1, gl[i], wl[i])
		}
		wantSum += wv
		gotSum += gv
	}
	if gotSum != wantSum {
		return fmt.Sprintf("the ports receive %d packets in all, want %d", gotSum, wantSum)
	}
	return ""
}

func TestPerfqueryDifference(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "k4.perfquery-x"))
	if err != nil {
		t.Fatal(err)
	}
	if why := perfqueryDifference(base, base); why != "" {
		t.Fatalf("identical files differ: %s", why)
	}
	// Lid 13 ports 3 and 4 as ibsim credited them on two runs.
	moved := strings.Replace(string(base), "PortRcvPkts:.....................1069", "PortRcvPkts:.....................646", 1)
	moved = strings.Replace(moved, "PortRcvPkts:.....................82\n", "PortRcvPkts:.....................505\n", 1)
	if moved == string(base) {
		t.Fatal("the committed sample no longer has Lid 13's counters")
	}
	if why := perfqueryDifference(base, []byte(moved)); why != "" {
		t.Errorf("packets moved between ports: %s", why)
	}
	lost := strings.Replace(string(base), "PortRcvPkts:.....................1069", "PortRcvPkts:.....................1068", 1)
	if why := perfqueryDifference(base, []byte(lost)); !strings.Contains(why, "receive 15699 packets in all, want 15700") {
		t.Errorf("a lost packet: %q", why)
	}
	data := strings.Replace(string(base), "PortXmitData:....................16416", "PortXmitData:....................16417", 1)
	if why := perfqueryDifference(base, []byte(data)); !strings.Contains(why, "PortXmitData") {
		t.Errorf("changed data: %q", why)
	}
}
