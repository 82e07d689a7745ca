package boxfish

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"superstep/topology/torus"
)

// bfSeed returns the first n bytes of a real file, cut at a line end, or
// nil when the data is not there.
func bfSeed(name string, n int) []byte {
	b, err := os.ReadFile(bfDataDir + name)
	if err != nil {
		return nil
	}
	if len(b) > n {
		b = b[:n]
		b = b[:bytes.LastIndexByte(b, '\n')+1]
	}
	return b
}

// bfCheckErr fails unless err is a *ParseError naming the file.
func bfCheckErr(t *testing.T, name string, err error) {
	t.Helper()
	var fe *ParseError
	if !errors.As(err, &fe) || fe.File != name || fe.Line < 0 || fe.Col < 0 || !strings.HasPrefix(err.Error(), name+":") || !strings.Contains(fe.Msg, "expected") && fe.Expected == "" {
		t.Fatalf("error %T %v", err, err)
	}
}

func FuzzMeta(f *testing.F) {
	if b := bfSeed("bgpc_meta.yaml", 1<<20); b != nil {
		f.Add(b)
	}
	f.Add([]byte(bfTiny["tiny_meta.yaml"]))
	f.Add([]byte("---\nkey: K\nhardware: {\n network: torus,\n nodes: 1728,\n coords: [a, b, c, d, e],\n dim: {a: 6, b: 5, c: 4, d: 3, e: 2},\n mesh: [a],\n extent2_channels: 1,\n}\n...\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := ReadMeta("m.yaml", bytes.NewReader(in))
		if err != nil {
			bfCheckErr(t, "m.yaml", err)
			return
		}
		if len(m.Coords) == 0 || len(m.Coords) != len(m.Dim) || len(m.SourceCols) != len(m.Coords) || len(m.DestCols) != len(m.Coords) {
			t.Fatalf("meta %+v", m)
		}
		for _, k := range m.Dim {
			if k < 1 {
				t.Fatalf("extent %d", k)
			}
		}
	})
}

func FuzzTable(f *testing.F) {
	for _, s := range []struct {
		name string
		n    int
	}{{"bgpc_links.yaml", 1500}, {"bgpc_nodes.yaml", 1500}, {"bgpc_map.yaml", 400}} {
		if b := bfSeed(s.name, s.n); b != nil {
			f.Add(b)
		}
	}
	for _, name := range []string{"tiny_links.yaml", "tiny_nodes.yaml", "tiny_map.yaml"} {
		f.Add([]byte(bfTiny[name]))
	}
	tor, err := torus.New([]string{"x", "y", "z"}, []int{8, 8, 8})
	if err != nil {
		f.Fatal(err)
	}
	meta := &Meta{Coords: []string{"x", "y", "z"}, Dim: []int{8, 8, 8}, SourceCols: []string{"sx", "sy", "sz"}, DestCols: []string{"tx", "ty", "tz"}, RankField: "mpirank", NodeField: "nodeid"}
	f.Fuzz(func(t *testing.T, in []byte) {
		tab, err := ReadTable("t.yaml", bytes.NewReader(in))
		if err != nil {
			bfCheckErr(t, "t.yaml", err)
			return
		}
		if len(tab.Lines) > len(in) {
			t.Fatalf("%d rows from %d bytes", len(tab.Lines), len(in))
		}
		for _, c := range tab.Columns {
			if len(c.Ints)+len(c.Floats) != tab.Rows() {
				t.Fatalf("column %s: %d+%d values for %d rows", c.Name, len(c.Ints), len(c.Floats), tab.Rows())
			}
		}
		// The conversions to torus tables either succeed or fail with a
		// ParseError, on an 8×8×8 torus.
		if lt, _, err := bfLinks(tor, meta, tab); err != nil {
			bfCheckErr(t, "t.yaml", err)
		} else if lt.NumRows() != int64(tab.Rows()) {
			t.Fatalf("links: %d rows of %d", lt.NumRows(), tab.Rows())
		} else {
			lt.Release()
		}
		if nt, _, err := bfNodes(tor, meta, tab); err != nil {
			bfCheckErr(t, "t.yaml", err)
		} else if nt != nil {
			nt.Release()
		}
		if r2n, _, err := bfRanks(tor, meta, tab); err != nil {
			bfCheckErr(t, "t.yaml", err)
		} else if len(r2n) > tab.Rows() {
			t.Fatalf("%d ranks from %d rows", len(r2n), tab.Rows())
		}
	})
}

func FuzzBGQCounters(f *testing.F) {
	f.Add([]byte(bgqFixture(true)))
	f.Add([]byte(bgqFixture(false)))
	f.Add([]byte("0 0 0 0 0 0 0 0 **" + strings.Repeat(" 1", 60) + "\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		run, err := ReadBGQCounters("c.cnt", bytes.NewReader(in))
		if err != nil {
			bfCheckErr(t, "c.cnt", err)
			return
		}
		defer run.Release()
		lines := bytes.Count(in, []byte{'\n'}) + 1
		if run.Torus.Nodes() > 4*lines+64 || run.Links.NumRows() > int64(10*lines) || len(run.RankToNode) > lines {
			t.Fatalf("%d nodes, %d rows, %d ranks from %d lines", run.Torus.Nodes(), run.Links.NumRows(), len(run.RankToNode), lines)
		}
	})
}

// BenchmarkReadLinks reads bgpc_links.yaml (52,224 rows) into a
// channel table on the 8×8×8 torus.
func BenchmarkReadLinks(b *testing.B) {
	src, err := os.ReadFile(bfDataDir + "bgpc_links.yaml")
	if err != nil {
		b.Fatal(err)
	}
	tor, _ := torus.New([]string{"x", "y", "z"}, []int{8, 8, 8})
	meta := &Meta{Coords: []string{"x", "y", "z"}, Dim: []int{8, 8, 8}, SourceCols: []string{"sx", "sy", "sz"}, DestCols: []string{"tx", "ty", "tz"}}
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		tab, err := ReadTable("bgpc_links.yaml", bytes.NewReader(src))
		if err != nil {
			b.Fatal(err)
		}
		lt, _, err := bfLinks(tor, meta, tab)
		if err != nil {
			b.Fatal(err)
		}
		lt.Release()
	}
}

// BenchmarkRead reads the whole BG/P run from disk.
func BenchmarkRead(b *testing.B) {
	for i := 0; i < b.N; i++ {
		run, err := Read(bfDataDir + "bgpc_meta.yaml")
		if err != nil {
			b.Fatal(err)
		}
		run.Release()
	}
}
