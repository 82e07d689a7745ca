package datasets

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"superstep/sdk/graph"
)

// checkResult is what every reader promises on any input: a graph whose
// CSR is consistent, or a *ParseError naming the file and a line of it.
func checkResult(t *testing.T, in []byte, g *graph.Graph, err error) {
	t.Helper()
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %T %v is not a *ParseError", err, err)
		}
		if pe.File != "fuzz" || pe.Line < 0 || pe.Line > bytes.Count(in, []byte("\n"))+2 || pe.Msg == "" && pe.Expected == "" {
			t.Fatalf("bad error %q for %q", err, in)
		}
		if g != nil {
			t.Fatal("a graph and an error")
		}
		return
	}
	n, arcs, loops := g.NumVertices(), 0, 0
	for v := 0; v < n; v++ {
		for _, u := range g.Neighbors(v) {
			if u < 0 || int(u) >= n {
				t.Fatalf("neighbour %d of %d outside 0..%d", u, v, n-1)
			}
			if int(u) == v {
				loops++
			}
		}
		if w := g.EdgeWeights(v); w != nil && len(w) != g.Degree(v) {
			t.Fatal("weights and neighbours differ in length")
		}
		arcs += g.Degree(v)
	}
	want := g.NumEdges()
	if !g.Directed() {
		want = 2*g.NumEdges() - loops
	}
	if arcs != want {
		t.Fatalf("%v has %d arcs", g, arcs)
	}
}

// dataLines counts the lines that are neither blank nor comments.
func dataLines(in []byte) int {
	n := 0
	for _, line := range bytes.Split(in, []byte("\n")) {
		if !isBlank(line) && !isComment(line) {
			n++
		}
	}
	return n
}

func seedFile(f *testing.F, path string, max int) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	if len(b) > max {
		// Cut at a line end.
		b = b[:bytes.LastIndexByte(b[:max], '\n')+1]
	}
	f.Add(b)
}

func FuzzReadEdgeList(f *testing.F) {
	for _, s := range []string{"1 2\n2 3\n", "# c\n% c\n\n1 2 0.5\r\n2 3 -1e3\n", "1 2\n3\n", "-9223372036854775808 9223372036854775807\n", "1 2 3 4\n"} {
		f.Add([]byte(s))
	}
	seedFile(f, "data/p2p-Gnutella31.txt", 2000)
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, directed := range []bool{false, true} {
			g, err := ReadEdgeList(bytes.NewReader(in), "fuzz", directed)
			checkResult(t, in, g, err)
			// Nothing is dropped: one edge per data line. (Split on "\n"
			// alone sees the lines the reader sees, as it reads a lone
			// "\r" as white space.)
			if err == nil && g.NumEdges() != dataLines(in) {
				t.Fatalf("%d edges from %d data lines of %q", g.NumEdges(), dataLines(in), in)
			}
		}
	})
}

func FuzzReadMETIS(f *testing.F) {
	for _, s := range []string{"3 2\n2\n1 3\n2\n", "% c\n3 2 1\n2 5\n1 5 3 7\n2 7\n", "3 2 111 2\n1 4 4 2 5\n1 0 9 1 5 3 7\n2 1 1 2 7\n", "2 1\n2\n1\n\n\n", "5 4\n2 3\n1 3\n1 2 4\n3\n\n", "0 0\n"} {
		f.Add([]byte(s))
	}
	seedFile(f, "data/add32.graph", 3000)
	f.Fuzz(func(t *testing.T, in []byte) {
		g, err := ReadMETIS(bytes.NewReader(in), "fuzz")
		checkResult(t, in, g, err)
		// Every input: the even part reads without panicking; of a
		// valid graph it holds exactly the even vertices' arcs.
		even := func(int) (func(v int) bool, error) { return func(v int) bool { return v%2 == 0 }, nil }
		part, perr := ReadMETISPart(bytes.NewReader(in), "fuzz", even)
		if perr != nil {
			checkResult(t, in, nil, perr)
		} else {
			for v := 0; v < part.NumVertices(); v++ {
				for _, u := range part.Neighbors(v) {
					if u < 0 || int(u) >= part.NumVertices() || v%2 != 0 {
						t.Fatalf("part: arc %d→%d", v, u)
					}
				}
			}
		}
		if err == nil {
			if g.Directed() {
				t.Fatal("a directed METIS graph")
			}
			for v := 0; v < g.NumVertices(); v++ {
				if g.ID(v) != int64(v+1) {
					t.Fatalf("ID(%d) = %d", v, g.ID(v))
				}
			}
			if perr != nil {
				t.Fatalf("the graph reads whole but not its even part: %v", perr)
			}
			for v := 0; v < g.NumVertices(); v++ {
				want := 0
				if v%2 == 0 {
					want = g.Degree(v)
				}
				if part.Degree(v) != want || part.NumVertices() != g.NumVertices() || part.NumEdges() != g.NumEdges() {
					t.Fatalf("vertex %d: degree %d in the even part, want %d", v, part.Degree(v), want)
				}
			}
		}
	})
}

func FuzzReadMatrixMarket(f *testing.F) {
	for _, s := range []string{
		"%%MatrixMarket matrix coordinate real general\n% c\n3 3 4\n1 2 0.5\n2 3 1.5\n3 1 2\n2 2 -1\n",
		"%%MatrixMarket matrix coordinate pattern symmetric\n5 5 3\n2 1\n3 2\n4 4\n",
		"%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 4\n3 1 -2\n",
		"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n\n2 2 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// A size line may ask for any number of vertices; keep it small.
		g, err := readMatrixMarket(bytes.NewReader(in), "fuzz", 1<<12)
		checkResult(t, in, g, err)
		if err == nil && g.NumEdges() != dataLines(in)-1 {
			t.Fatalf("%d edges from %d entry lines", g.NumEdges(), dataLines(in)-1)
		}
	})
}

func FuzzReadGML(f *testing.F) {
	for _, s := range []string{
		"graph [ node [ id 1 label \"a\" ] node [ id 2 ] edge [ source 1 target 2 value 2.5 ] ]",
		"Creator \"x\"\ngraph [\n directed 1\n node [ id 1 graphics [ x 1.0 y -2 ] ]\n edge [ source 1 target 1 weight 3 ]\n]\n# c\n",
		"graph [ node [ id 1 ] node [ id 1 ] ]",
		"graph [ edge [ source 1 ] ]",
	} {
		f.Add([]byte(s))
	}
	seedFile(f, "data/karate.gml", 1<<20)
	f.Fuzz(func(t *testing.T, in []byte) {
		g, err := ReadGML(bytes.NewReader(in), "fuzz")
		checkResult(t, in, g, err)
	})
}
