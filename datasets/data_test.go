package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"superstep/sdk/graph"
)

func TestNames(t *testing.T) {
	want := []string{"4elt", "add32", "cti", "gnutella31", "karate", "lesmis"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if _, err := Open("nope"); err == nil || !strings.Contains(err.Error(), "4elt, add32, cti, gnutella31, karate, lesmis") {
		t.Fatalf("Open(nope): %v", err)
	}
	if !strings.Contains(Source(), "Zachary") || !strings.Contains(Source(), "Leskovec") || !strings.Contains(Source(), "Knuth") {
		t.Fatal("Source() lacks the attribution")
	}
}

// TestOpen checks the shipped data sets against their published sizes.
func TestOpen(t *testing.T) {
	cases := []struct {
		name     string
		directed bool
		n, m     int
	}{
		{"4elt", false, 15606, 45878},
		{"cti", false, 16840, 48232},
		{"add32", false, 4960, 9462},
		{"gnutella31", true, 62586, 147892},
		{"karate", false, 34, 78},
		{"lesmis", false, 77, 254},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := Open(strings.ToUpper(c.name))
			if err != nil {
				t.Fatal(err)
			}
			checkSize(t, g, c.directed, c.name == "lesmis", c.n, c.m)
			checkSimple(t, g)
		})
	}
}

// checkSimple checks that g has no self-loops or parallel edges, that its
// degrees add up and that the ids are 1..n (METIS, GML) or 0..n-1.
func checkSimple(t *testing.T, g *graph.Graph) {
	t.Helper()
	sum := 0
	for v := 0; v < g.NumVertices(); v++ {
		nb := g.Neighbors(v)
		sum += len(nb)
		for i, u := range nb {
			if int(u) == v {
				t.Fatalf("self-loop at %d", g.ID(v))
			}
			if i > 0 && nb[i-1] == u {
				t.Fatalf("parallel edge %d–%d", g.ID(v), g.ID(int(u)))
			}
		}
	}
	if want := 2 * g.NumEdges(); g.Directed() {
		if sum != g.NumEdges() {
			t.Fatalf("out-degrees add up to %d, not %d", sum, g.NumEdges())
		}
	} else if sum != want {
		t.Fatalf("degrees add up to %d, not %d", sum, want)
	}
	base := g.ID(0)
	for v := 0; v < g.NumVertices(); v++ {
		if g.ID(v) < base || g.ID(v) >= base+int64(g.NumVertices()) {
			t.Fatalf("id %d outside %d..%d", g.ID(v), base, base+int64(g.NumVertices())-1)
		}
	}
}

func TestKarate(t *testing.T) {
	g := Must(Open("karate"))
	// Zachary's instructor (1) and administrator (34) are the hubs.
	for id, deg := range map[int64]int{1: 16, 34: 17, 33: 12, 3: 10, 12: 1} {
		v, _ := g.Index(id)
		if g.Degree(v) != deg {
			t.Errorf("degree of %d is %d, want %d", id, g.Degree(v), deg)
		}
	}
	// The file labels each node with its id.
	for v := 0; v < g.NumVertices(); v++ {
		if g.ID(v) != int64(v+1) || g.Label(v) != strconv.Itoa(v+1) {
			t.Fatalf("vertex %d: id %d, label %q", v, g.ID(v), g.Label(v))
		}
	}
	if got := neighbourIDs(t, g, 12); !reflect.DeepEqual(got, []int64{1}) {
		t.Errorf("neighbours of 12: %v", got)
	}
}

// TestGnutella31 reads the largest bundled graph (its speed is
// BenchmarkReadGnutella31's).
func TestGnutella31(t *testing.T) {
	b, err := os.ReadFile("data/p2p-Gnutella31.txt")
	if err != nil {
		t.Fatal(err)
	}
	g, err := ReadEdgeList(bytes.NewReader(b), "p2p-Gnutella31.txt", true)
	if err != nil {
		t.Fatal(err)
	}
	// SNAP's figures for p2p-Gnutella31.
	if g.NumVertices() != 62586 || g.NumEdges() != 147892 {
		t.Errorf("%v, want 62,586 vertices and 147,892 edges", g)
	}
	// The first edges of the file, 0→1 .. 0→10, and the last, 62580→62059.
	if got := neighbourIDs(t, g, 0); !reflect.DeepEqual(got, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Errorf("out-neighbours of 0: %v", got)
	}
	if got := neighbourIDs(t, g, 62580); !contains(got, 62059) {
		t.Errorf("out-neighbours of 62580: %v", got)
	}
}

func contains(s []int64, x int64) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func BenchmarkReadGnutella31(b *testing.B) {
	data, err := os.ReadFile("data/p2p-Gnutella31.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadEdgeList(bytes.NewReader(data), "g", true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadMETIS4elt(b *testing.B) {
	data, err := os.ReadFile("data/4elt.graph")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadMETIS(bytes.NewReader(data), "g"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadersAllocate checks that the line readers do not allocate per
// line: what they allocate is the graph and the builder's slices.
func TestReadersAllocate(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		sb.WriteString("1 2\n")
	}
	in := sb.String()
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := ReadEdgeList(strings.NewReader(in), "a", true); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 100 {
		t.Errorf("reading 20000 lines allocated %v times", allocs)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := func(name, content string) string {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		z.Write([]byte(content))
		z.Close()
		return write(name, buf.String())
	}
	const mtx = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"
	const gml = "Creator \"me\"\ngraph [ directed 1 node [ id 1 ] node [ id 2 ] edge [ source 1 target 2 ] ]\n"
	cases := []struct {
		path     string
		directed bool
		n, m     int
	}{
		{write("a.txt", "1 2\n2 3\n"), true, 3, 2},
		{write("snap.txt", "# Undirected graph: x.txt\n# Nodes: 3 Edges: 2\n1 2\n2 3\n"), false, 3, 2},
		{write("snapd.edges", "# Directed graph (each unordered pair of nodes is saved once)\n1 2\n"), true, 2, 1},
		{write("out.konect.tsv", "% sym unweighted\n% 2 3 3\n1 2\n2 3\n"), false, 3, 2},
		{write("out.konect2.el", "% asym unweighted\n1 2\n"), true, 2, 1},
		{write("m.graph", "3 2\n2\n1 3\n2\n"), false, 3, 2},
		{write("m.metis", "2 1\n2\n1\n"), false, 2, 1},
		{write("x.mtx", mtx), false, 3, 2},
		{write("x.dat", mtx), false, 3, 2}, // sniffed by its banner
		{write("y.dat", gml), true, 2, 1},  // sniffed as GML
		{write("z.GML", gml), true, 2, 1},  // extensions in any case
		{gz("a.txt.gz", "# Undirected graph\n1 2\n"), false, 2, 1},
		{gz("k.gml.gz", gml), true, 2, 1},
		{gz("m.mtx.gz", mtx), false, 3, 2},
	}
	for _, c := range cases {
		g, err := Load(c.path)
		if err != nil {
			t.Errorf("Load(%s): %v", filepath.Base(c.path), err)
			continue
		}
		if g.Directed() != c.directed || g.NumVertices() != c.n || g.NumEdges() != c.m {
			t.Errorf("Load(%s) = %v, want directed=%v n=%d m=%d", filepath.Base(c.path), g, c.directed, c.n, c.m)
		}
	}

	if g, err := LoadEdgeList(write("b.txt", "# Directed graph\n1 2\n"), false); err != nil || g.Directed() {
		t.Errorf("LoadEdgeList undirected: %v %v", g, err)
	}

	// Errors name the path and the line.
	bad := write("bad.graph", "3 2\n2\n1 3\n2 1\n")
	_, err := Load(bad)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != bad || pe.Line != 4 {
		t.Errorf("Load(bad.graph): %v", err)
	}
	badgz := gz("bad.txt.gz", "1 2\n3\n")
	if _, err := Load(badgz); !errors.As(err, &pe) || pe.File != badgz || pe.Line != 2 {
		t.Errorf("Load(bad.txt.gz): %v", err)
	}
	if _, err := Load(write("fake.txt.gz", "1 2\n")); !errors.As(err, &pe) || !strings.Contains(pe.Msg, "expected a gzip file") {
		t.Errorf("Load(fake.txt.gz): %v", err)
	}
	if _, err := Load(write("what.xyz", "1 2\n")); !errors.As(err, &pe) || pe.Line != 0 || !strings.Contains(err.Error(), "what.xyz: unknown graph format") {
		t.Errorf("Load(what.xyz): %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing): %v", err)
	}
}

// TestLoadShared reads the originals in ../shared when they are there
// and checks they give the embedded graphs.
func TestLoadShared(t *testing.T) {
	dir := "../../shared/data/graphs"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no ../shared/data/graphs")
	}
	for file, name := range map[string]string{"4elt.graph": "4elt", "cti.graph": "cti", "add32.graph": "add32", "karate.gml": "karate", "p2p-Gnutella31.txt": "gnutella31"} {
		g, err := Load(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		want := Must(Open(name))
		if g.String() != want.String() {
			t.Errorf("Load(%s) = %v, Open(%s) = %v", file, g, name, want)
		}
	}
}
