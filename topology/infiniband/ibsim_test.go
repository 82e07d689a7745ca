package infiniband

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"superstep/topology/fattree"
)

// TestWriteIBSimNet compares with the net file regenerate.sh gave ibsim.
func TestWriteIBSimNet(t *testing.T) {
	f, err := fattree.Build(fattree.KAry(4))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteIBSimNet(&b, f); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "k4.net"))
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("WriteIBSimNet differs from testdata/k4.net:\n%s", b.String())
	}
	if !strings.HasPrefix(b.String(), "Hca\t1 \"node-0\"\n[1]\t\"L1-p0-s0\"[1]\n\n") {
		t.Fatalf("first record:\n%.60s", b.String())
	}
}

func TestWriteIBSimNetDuplicateNames(t *testing.T) {
	f, err := fattree.Build(fattree.KAry(2))
	if err != nil {
		t.Fatal(err)
	}
	f.Nodes[1].Name = "node?0" // becomes node-0 like node 0
	if err := WriteIBSimNet(&bytes.Buffer{}, f); err == nil || !strings.Contains(err.Error(), `two devices are named "node-0"`) {
		t.Fatalf("error %v", err)
	}
}
