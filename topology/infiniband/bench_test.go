package infiniband

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"superstep/topology/fattree"
)

// TestWriteIBNetDiscover: the committed k = 8 and degraded fabrics, and a
// built Paper1296, written and read back, infer to the same fabric.
func TestWriteIBNetDiscover(t *testing.T) {
	k8, _, _ := inferFile(t, "k8.ibnetdiscover")
	deg, _, _ := inferFile(t, "k8deg.ibnetdiscover")
	p, err := fattree.Build(fattree.Paper1296())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*fattree.Fabric{k8, deg, p} {
		var b bytes.Buffer
		if err := WriteIBNetDiscover(&b, f); err != nil {
			t.Fatal(err)
		}
		g, warns, err := ReadIBNetDiscover(&b, "w")
		if err != nil || len(warns) != 0 {
			t.Fatal(err, warns)
		}
		got, _, err := fattree.Infer(g)
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec != f.Spec || !reflect.DeepEqual(got.Nodes, f.Nodes) || !reflect.DeepEqual(got.Switches, f.Switches) || !reflect.DeepEqual(got.Links, f.Links) {
			t.Fatalf("%v: read back differs", f.Spec)
		}
	}
}

func paper1296(b *testing.B) *fattree.Fabric {
	f, err := fattree.Build(fattree.Paper1296())
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkReadIBNetDiscover1296 reads the ibnetdiscover output of
// Paper1296 (written by WriteIBNetDiscover). Target: ≤ 25 ms.
func BenchmarkReadIBNetDiscover1296(b *testing.B) {
	f := paper1296(b)
	var buf bytes.Buffer
	if err := WriteIBNetDiscover(&buf, f); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := ReadIBNetDiscover(bytes.NewReader(data), "p1296"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadLFT1296 reads the dump_fts tables of D-mod-k on
// Paper1296 (written by WriteLFT, about 19 MB). Target: ≤ 150 ms.
func BenchmarkReadLFT1296(b *testing.B) {
	f := paper1296(b)
	tab, err := fattree.TableOf(context.Background(), f, fattree.DModK(f))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteLFT(&buf, f, tab); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := ReadLFT(bytes.NewReader(data), "p1296", f); err != nil {
			b.Fatal(err)
		}
	}
}
