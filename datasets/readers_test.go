package datasets

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"superstep/sdk/graph"
)

// neighbourIDs lists the input ids of the neighbours of the vertex with
// input id id.
func neighbourIDs(t *testing.T, g *graph.Graph, id int64) []int64 {
	t.Helper()
	v, ok := g.Index(id)
	if !ok {
		t.Fatalf("no vertex with id %d", id)
	}
	var ids []int64
	for _, u := range g.Neighbors(v) {
		ids = append(ids, g.ID(int(u)))
	}
	return ids
}

// weightsOf lists the weights of the edges out of the vertex with id id.
func weightsOf(t *testing.T, g *graph.Graph, id int64) []float64 {
	t.Helper()
	v, ok := g.Index(id)
	if !ok {
		t.Fatalf("no vertex with id %d", id)
	}
	return g.EdgeWeights(v)
}

func checkSize(t *testing.T, g *graph.Graph, directed, weighted bool, n, m int) {
	t.Helper()
	if g.Directed() != directed || g.Weighted() != weighted || g.NumVertices() != n || g.NumEdges() != m {
		t.Fatalf("got %v, want directed=%v weighted=%v n=%d m=%d", g, directed, weighted, n, m)
	}
}

func TestReadEdgeList(t *testing.T) {
	const in = "# a triangle and a tail\n% also a comment\n  # indented comment\n1 2\n2\t3\n\n3 1\r\n3 10\n"
	g, err := ReadEdgeList(strings.NewReader(in), "tri.txt", true)
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, true, false, 4, 4)
	if got := neighbourIDs(t, g, 3); !reflect.DeepEqual(got, []int64{1, 10}) {
		t.Errorf("out-neighbours of 3: %v", got)
	}
	// Vertices are numbered by first appearance.
	for i, id := range []int64{1, 2, 3, 10} {
		if g.ID(i) != id {
			t.Errorf("ID(%d) = %d, want %d", i, g.ID(i), id)
		}
	}

	u, err := ReadEdgeList(strings.NewReader(in), "tri.txt", false)
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, u, false, false, 4, 4)
	if got := neighbourIDs(t, u, 3); !reflect.DeepEqual(got, []int64{1, 2, 10}) {
		t.Errorf("neighbours of 3: %v", got)
	}
	deg := 0
	for v := 0; v < u.NumVertices(); v++ {
		deg += u.Degree(v)
	}
	if deg != 2*u.NumEdges() {
		t.Errorf("degree sum %d, want %d", deg, 2*u.NumEdges())
	}
}

func TestReadEdgeListWeighted(t *testing.T) {
	const in = "0 1 2.5\n1 2 -1\n0 2 1e-3\n2 2 4\n-7 0 1\n"
	g, err := ReadEdgeList(strings.NewReader(in), "w.txt", false)
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, false, true, 4, 5)
	if got := neighbourIDs(t, g, 0); !reflect.DeepEqual(got, []int64{1, 2, -7}) {
		t.Errorf("neighbours of 0: %v", got)
	}
	if got := weightsOf(t, g, 0); !reflect.DeepEqual(got, []float64{2.5, 1e-3, 1}) {
		t.Errorf("weights at 0: %v", got)
	}
	// The self-loop is stored once.
	if got := weightsOf(t, g, 2); !reflect.DeepEqual(got, []float64{1e-3, -1, 4}) {
		t.Errorf("weights at 2: %v", got)
	}
}

func TestReadEdgeListEmpty(t *testing.T) {
	g, err := ReadEdgeList(strings.NewReader("# nothing\n\n"), "e.txt", true)
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, true, false, 0, 0)
}

func TestReadMETIS(t *testing.T) {
	// A triangle 1-2-3, a tail 3-4 and an isolated vertex 5 (blank line).
	const in = "% a comment before the header\n5 4\n2 3\n1 3\n% a comment between vertex lines\n 1 2 4 \n3\n\n"
	g, err := ReadMETIS(strings.NewReader(in), "tri.graph")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, false, false, 5, 4)
	for v := 0; v < 5; v++ {
		if g.ID(v) != int64(v+1) {
			t.Fatalf("ID(%d) = %d", v, g.ID(v))
		}
	}
	if got := neighbourIDs(t, g, 3); !reflect.DeepEqual(got, []int64{1, 2, 4}) {
		t.Errorf("neighbours of 3: %v", got)
	}
	if g.Degree(4) != 0 {
		t.Errorf("vertex 5 has degree %d", g.Degree(4))
	}
}

func TestReadMETISWeighted(t *testing.T) {
	// fmt 1: edge weights after each neighbour.
	const in = "3 2 1\n2 5\n1 5 3 7\n2 7\n"
	g, err := ReadMETIS(strings.NewReader(in), "w.graph")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, false, true, 3, 2)
	if got := weightsOf(t, g, 2); !reflect.DeepEqual(got, []float64{5, 7}) {
		t.Errorf("weights at 2: %v", got)
	}

	// fmt 111, ncon 2: a size, two vertex weights, then weighted edges.
	const in2 = "3 2 111 2\n1 4 4 2 5\n1 0 9 1 5 3 7\n2 1 1 2 7\n"
	g2, err := ReadMETIS(strings.NewReader(in2), "w2.graph")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g2, false, true, 3, 2)
	if got := weightsOf(t, g2, 2); !reflect.DeepEqual(got, []float64{5, 7}) {
		t.Errorf("weights at 2: %v", got)
	}

	// fmt 010: vertex weights only.
	const in3 = "2 1 010\n7 2\n8 1\n"
	g3, err := ReadMETIS(strings.NewReader(in3), "w3.graph")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g3, false, false, 2, 1)
}

func TestReadMatrixMarket(t *testing.T) {
	const general = `%%MatrixMarket matrix coordinate real general
% a comment
%
3 3 4
1 2 0.5

2 3 1.5
3 1 2
2 2 -1
`
	g, err := ReadMatrixMarket(strings.NewReader(general), "g.mtx")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, true, true, 3, 4)
	if got := neighbourIDs(t, g, 2); !reflect.DeepEqual(got, []int64{2, 3}) {
		t.Errorf("out-neighbours of 2: %v", got)
	}
	if got := weightsOf(t, g, 2); !reflect.DeepEqual(got, []float64{-1, 1.5}) {
		t.Errorf("weights at 2: %v", got)
	}

	// Symmetric pattern: lower triangle only, every vertex 1..n present.
	const sym = "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 3\n2 1\n3 2\n4 4\n"
	s, err := ReadMatrixMarket(strings.NewReader(sym), "s.mtx")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, s, false, false, 5, 3)
	if got := neighbourIDs(t, s, 2); !reflect.DeepEqual(got, []int64{1, 3}) {
		t.Errorf("neighbours of 2: %v", got)
	}
	if got := neighbourIDs(t, s, 4); !reflect.DeepEqual(got, []int64{4}) {
		t.Errorf("neighbours of 4: %v", got)
	}
	if v, _ := s.Index(5); s.Degree(v) != 0 {
		t.Errorf("vertex 5 has degree %d", s.Degree(v))
	}

	// Symmetric integer, banner in another case.
	const symInt = "%%matrixmarket MATRIX Coordinate Integer Symmetric\n3 3 2\n2 1 4\n3 1 -2\n"
	si, err := ReadMatrixMarket(strings.NewReader(symInt), "si.mtx")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, si, false, true, 3, 2)
	if got := weightsOf(t, si, 1); !reflect.DeepEqual(got, []float64{4, -2}) {
		t.Errorf("weights at 1: %v", got)
	}
}

func TestReadGML(t *testing.T) {
	const in = `# a comment
Creator "test"
graph [
  directed 1
  comment "a [bracket] inside a string"
  node [ id 10 label "ten &amp; &quot;x&quot;" graphics [ x 1.5 y -2 ] ]
  node [ id 20 ]
  node [ label 30 id 30 ]
  edge [ source 10 target 20 ]
  edge [ source 20 target 30 value 2.5 ]
  edge [ source 30 target 10 weight 4 value 9 ]
  edge [ source 30 target 30 value "not a weight" ]
]
`
	g, err := ReadGML(strings.NewReader(in), "d.gml")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, g, true, true, 3, 4)
	if g.Label(0) != `ten & "x"` || g.Label(1) != "20" || g.Label(2) != "30" {
		t.Errorf("labels %q %q %q", g.Label(0), g.Label(1), g.Label(2))
	}
	if got := weightsOf(t, g, 20); !reflect.DeepEqual(got, []float64{2.5}) {
		t.Errorf("weights at 20: %v", got)
	}
	if got := weightsOf(t, g, 30); !reflect.DeepEqual(got, []float64{4, 1}) {
		t.Errorf("weights at 30: %v", got)
	}

	// Undirected by default; unweighted when every weight is 1.
	u, err := ReadGML(strings.NewReader("graph [ node [ id 1 ] node [ id 2 ] node [ id 3 ] edge [ source 1 target 2 value 1.0 ] ]"), "u.gml")
	if err != nil {
		t.Fatal(err)
	}
	checkSize(t, u, false, false, 3, 1)
	if got := neighbourIDs(t, u, 2); !reflect.DeepEqual(got, []int64{1}) {
		t.Errorf("neighbours of 2: %v", got)
	}
}

// TestErrors checks that each malformed input gives a *ParseError naming
// the file and the line, with the expected words in its message.
func TestErrors(t *testing.T) {
	type reader func(string) error
	el := func(s string) error { _, err := ReadEdgeList(strings.NewReader(s), "in.txt", false); return err }
	metis := func(s string) error { _, err := ReadMETIS(strings.NewReader(s), "in.graph"); return err }
	mtx := func(s string) error { _, err := ReadMatrixMarket(strings.NewReader(s), "in.mtx"); return err }
	gml := func(s string) error { _, err := ReadGML(strings.NewReader(s), "in.gml"); return err }
	const mm = "%%MatrixMarket matrix coordinate real general\n"
	cases := []struct {
		name string
		read reader
		file string
		in   string
		line int
		msg  string
	}{
		{"el four fields", el, "in.txt", "1 2\n# c\na b c d\n", 3, `expected 2 or 3 numbers (u v [weight]), found "a b c d"`},
		{"el one field", el, "in.txt", "1 2\n3\n", 2, `expected 2 or 3 numbers`},
		{"el not a number", el, "in.txt", "1 x\n", 1, `expected an integer vertex id, found "x"`},
		{"el float id", el, "in.txt", "1.5 2\n", 1, `expected an integer vertex id, found "1.5"`},
		{"el id overflow", el, "in.txt", "99999999999999999999 2\n", 1, `expected an integer vertex id`},
		{"el bad weight", el, "in.txt", "1 2 3\n2 3 w\n", 2, `expected a finite number as the edge weight, found "w"`},
		{"el NaN weight", el, "in.txt", "1 2 NaN\n", 1, `finite number`},
		{"el Inf weight", el, "in.txt", "1 2 +Inf\n", 1, `finite number`},
		{"el mixed columns", el, "in.txt", "1 2 3\n\n2 3\n", 3, `expected 3 numbers (u v weight) like line 1`},
		{"el mixed columns 2", el, "in.txt", "1 2\n2 3 4\n", 2, `expected 2 numbers (u v) like line 1`},
		{"el inline comment", el, "in.txt", "1 2 # x\n", 1, `expected 2 or 3 numbers`},
		{"el comma", el, "in.txt", "1,2\n", 1, `expected 2 or 3 numbers`},

		{"metis empty", metis, "in.graph", "% only a comment\n", 2, `expected a header "n m [fmt [ncon]]", found the end of the file`},
		{"metis header", metis, "in.graph", "3\n", 1, `expected a header`},
		{"metis header n", metis, "in.graph", "x 3\n", 1, `expected the number of vertices n`},
		{"metis header m", metis, "in.graph", "3 -1\n", 1, `expected the number of edges m`},
		{"metis header fmt", metis, "in.graph", "3 1 2\n", 1, `expected fmt of up to three 0/1 digits`},
		{"metis ncon without weights", metis, "in.graph", "3 1 001 2\n", 1, `says the vertices have no weights`},
		{"metis missing lines", metis, "in.graph", "% c\n3 1\n2\n1\n", 2, `header says 3 vertices, but the file ends after 2 vertex lines`},
		{"metis extra line", metis, "in.graph", "2 1\n2\n1\n\n1\n", 5, `expected only the 2 vertex lines the header (line 1) announces`},
		{"metis out of range", metis, "in.graph", "3 1\n2\n1 4\n\n", 3, `expected a neighbour of vertex 2 in 1..3, found "4"`},
		{"metis zero index", metis, "in.graph", "3 1\n0\n\n\n", 2, `expected a neighbour of vertex 1 in 1..3, found "0"`},
		{"metis not a number", metis, "in.graph", "2 1\n2\n1x\n", 3, `found "1x"`},
		{"metis self-loop", metis, "in.graph", "2 1\n1 2\n1\n", 2, `vertex 1 lists itself`},
		{"metis duplicate", metis, "in.graph", "2 1\n2 2\n1 1\n", 2, `vertex 1 lists neighbour 2 twice`},
		{"metis asymmetric", metis, "in.graph", "3 2\n2 3\n1\n\n", 2, `vertex 1 lists neighbour 3, but vertex 3 (line 4) does not list 1`},
		{"metis wrong m", metis, "in.graph", "% c\n3 3\n2\n1 3\n2\n", 2, `header says 3 edges, but the adjacency lists hold 2`},
		{"metis weight missing", metis, "in.graph", "2 1 1\n2 3\n1\n", 3, `expected the weight of edge 2–1 after neighbour 1`},
		{"metis weight mismatch", metis, "in.graph", "2 1 1\n2 3\n1 4\n", 2, `edge 1–2 has weight 3 here but 4 on line 3`},
		{"metis bad weight", metis, "in.graph", "2 1 1\n2 x\n1 4\n", 2, `expected the weight of edge 1–2 (a finite number), found "x"`},
		{"metis vertex weights missing", metis, "in.graph", "2 1 010 2\n1\n1 1 1\n", 2, `expected 2 weight(s) of vertex 1`},
		{"metis negative vertex weight", metis, "in.graph", "2 1 010\n-1 2\n1 1\n", 2, `expected a weight of vertex 1 (an integer ≥ 0), found "-1"`},
		{"metis size missing", metis, "in.graph", "1 0 100\n\n", 2, `expected the size of vertex 1`},

		{"mtx empty", mtx, "in.mtx", "", 1, `found an empty file`},
		{"mtx banner", mtx, "in.mtx", "%MatrixMarket matrix coordinate real general\n", 1, `expected the banner`},
		{"mtx array", mtx, "in.mtx", "%%MatrixMarket matrix array real general\n", 1, `expected format "coordinate"`},
		{"mtx complex", mtx, "in.mtx", "%%MatrixMarket matrix coordinate complex general\n", 1, `expected field real, integer or pattern`},
		{"mtx hermitian", mtx, "in.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", 1, `expected symmetry general or symmetric`},
		{"mtx skew", mtx, "in.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n", 1, `expected symmetry general or symmetric`},
		{"mtx vector", mtx, "in.mtx", "%%MatrixMarket vector coordinate real general\n", 1, `expected object "matrix"`},
		{"mtx no size", mtx, "in.mtx", mm + "% c\n", 3, `expected the size line "rows columns entries", found the end`},
		{"mtx bad size", mtx, "in.mtx", mm + "3 3\n", 2, `expected the size line`},
		{"mtx not square", mtx, "in.mtx", mm + "% c\n3 4 1\n1 1 1\n", 3, `expected a square matrix to read as a graph, found 3 rows and 4 columns`},
		{"mtx row range", mtx, "in.mtx", mm + "3 3 1\n4 1 1\n", 3, `expected a row index in 1..3, found "4"`},
		{"mtx column range", mtx, "in.mtx", mm + "3 3 1\n1 0 1\n", 3, `expected a column index in 1..3, found "0"`},
		{"mtx missing value", mtx, "in.mtx", mm + "3 3 1\n1 1\n", 3, `expected an entry "row column value", found "1 1"`},
		{"mtx pattern value", mtx, "in.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 3, `expected an entry "row column" (pattern matrix)`},
		{"mtx bad value", mtx, "in.mtx", mm + "3 3 1\n1 1 z\n", 3, `expected a finite real value, found "z"`},
		{"mtx integer value", mtx, "in.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3, `expected an integer value, found "1.5"`},
		{"mtx upper triangle", mtx, "in.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n1 3\n", 4, `entry (1, 3) lies above the diagonal`},
		{"mtx too few", mtx, "in.mtx", mm + "% c\n3 3 3\n1 1 1\n2 2 1\n", 3, `size line says 3 entries, but the file ends after 2`},
		{"mtx too many", mtx, "in.mtx", mm + "3 3 1\n1 1 1\n\n2 2 1\n", 5, `expected only the 1 entries of the size line (line 2), found another`},

		{"gml no graph", gml, "in.gml", "Creator \"x\"\n", 2, `expected graph [ ... ], found none`},
		{"gml two graphs", gml, "in.gml", "graph [ ]\ngraph [ ]\n", 2, `expected one graph, found a second (the first starts at line 1)`},
		{"gml graph not a list", gml, "in.gml", "graph 1\n", 1, `expected '[' after graph, found the number 1`},
		{"gml unclosed", gml, "in.gml", "graph [\n node [ id 1 ]\n", 3, `expected ']' to close the graph opened at line 1`},
		{"gml unclosed node", gml, "in.gml", "graph [\n node [ id 1\n", 3, `expected ']' to close the node opened at line 2`},
		{"gml unclosed skipped list", gml, "in.gml", "graph [\n node [ id 1 graphics [ x 1 \n", 3, `expected ']' to close the list opened at line 2`},
		{"gml unclosed string", gml, "in.gml", "graph [\n node [ id 1 label \"abc\n ]\n", 2, `expected a closing '"' for the string that starts here`},
		{"gml node without id", gml, "in.gml", "graph [\n node [\n label \"a\" ]\n]\n", 2, `expected an id in this node`},
		{"gml two ids", gml, "in.gml", "graph [\n node [ id 1\n id 2 ]\n]\n", 3, `expected one id in the node opened at line 2, found a second`},
		{"gml real id", gml, "in.gml", "graph [\n node [ id 1.5 ]\n]\n", 2, `expected an integer for id, found the number 1.5`},
		{"gml duplicate id", gml, "in.gml", "graph [\n node [ id 1 ]\n node [ id 1 ]\n]\n", 3, `node id 1 is already declared at line 2`},
		{"gml undeclared source", gml, "in.gml", "graph [\n node [ id 1 ]\n edge [ source 2 target 1 ]\n]\n", 3, `edge source 2 is not the id of a declared node`},
		{"gml undeclared target", gml, "in.gml", "graph [\n node [ id 1 ]\n\n edge [ source 1 target 5 ]\n]\n", 4, `edge target 5 is not the id of a declared node`},
		{"gml edge without target", gml, "in.gml", "graph [\n node [ id 1 ]\n edge [ source 1 ]\n]\n", 3, `expected a target in this edge`},
		{"gml edge without source", gml, "in.gml", "graph [\n edge [ target 1 ]\n]\n", 2, `expected a source in this edge`},
		{"gml directed 2", gml, "in.gml", "graph [\n directed 2\n]\n", 2, `expected directed 0 or 1, found 2`},
		{"gml string weight", gml, "in.gml", "graph [\n node [ id 1 ]\n edge [ source 1 target 1\n weight \"w\" ] ]\n", 4, `expected a number for weight`},
		{"gml bad number", gml, "in.gml", "graph [\n directed 1-2\n]\n", 2, `expected a number, found "1-2"`},
		{"gml bad character", gml, "in.gml", "graph [\n directed 1\n } ]\n", 3, `expected a key, a number, a string, '[' or ']', found "}"`},
		{"gml value missing", gml, "in.gml", "graph [\n Creator ]\n", 2, `expected a value (number, string or [ list ]) for the key "Creator", found "]"`},
		{"gml value not a key", gml, "in.gml", "graph [\n 5 ]\n", 2, `expected a key or ']' in the graph opened at line 1, found the number 5`},
		{"gml node not a list", gml, "in.gml", "graph [\n node 1\n]\n", 2, `expected '[' after node`},
		{"gml top-level value", gml, "in.gml", "\n\"x\"\n", 2, `expected a key such as graph`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.read(c.in)
			if err == nil {
				t.Fatalf("no error for %q", c.in)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			if pe.File != c.file || pe.Line != c.line {
				t.Errorf("error at %s:%d, want %s:%d (%v)", pe.File, pe.Line, c.file, c.line, err)
			}
			if !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("message %q does not contain %q", pe.Msg, c.msg)
			}
			if prefix := c.file + ":" + strconv.Itoa(c.line) + ": "; !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("Error() = %q, want the prefix %q", err.Error(), prefix)
			}
		})
	}
}

// TestReadMETISPart: two parts of the triangle-with-a-tail graph hold all
// five vertices, each only its own vertices' arcs, and between them every
// arc of the whole graph.
func TestReadMETISPart(t *testing.T) {
	const in = "% a comment before the header\n5 4\n2 3\n1 3\n% a comment between vertex lines\n 1 2 4 \n3\n\n"
	whole, err := ReadMETIS(strings.NewReader(in), "tri.graph")
	if err != nil {
		t.Fatal(err)
	}
	var planned []int
	arcs := 0
	for part := 0; part < 2; part++ {
		g, err := ReadMETISPart(strings.NewReader(in), "tri.graph", func(n int) (func(v int) bool, error) {
			planned = append(planned, n)
			return func(v int) bool { return v%2 == part }, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		checkSize(t, g, false, false, 5, 4)
		for v := 0; v < 5; v++ {
			want := whole.Neighbors(v)
			if v%2 != part {
				want = nil
			}
			if got := g.Neighbors(v); len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
				t.Errorf("part %d, vertex %d: neighbours %v, want %v", part, v+1, got, want)
			}
		}
		arcs += g.NumArcs()
	}
	if !reflect.DeepEqual(planned, []int{5, 5}) || arcs != whole.NumArcs() || arcs != 8 {
		t.Errorf("plans with n = %v; %d arcs in the parts, %d in the graph", planned, arcs, whole.NumArcs())
	}
}

// TestReadMETISPartErrors: a part checks its own lines and the edges
// between its own vertices; it does not read the others'.
func TestReadMETISPartErrors(t *testing.T) {
	keepOdd := func(int) (func(v int) bool, error) { return func(v int) bool { return v%2 == 1 }, nil }
	for _, tc := range []struct {
		name, in string
		plan     func(int) (func(v int) bool, error)
		want     string // "" means no error
	}{
		{"a bad kept line", "3 2\n2\n1 9\n2\n", keepOdd, "b.graph:3: expected a neighbour of vertex 2 in 1..3, found \"9\""},
		{"a bad line of another part", "3 2\n2 x\n1 3\n2\n", keepOdd, ""},
		{"kept vertices disagree", "4 2\n\n4\n\n1\n", keepOdd, "vertex 2 lists neighbour 4, but vertex 4 (line 5) does not list 2"},
		{"too few lines", "3 2\n2\n1 3\n", keepOdd, "header says 3 vertices, but the file ends after 2 vertex lines"},
		{"the plan fails", "3 2\n2\n1 3\n2\n", func(n int) (func(v int) bool, error) { return nil, errors.New("no partition for 3 vertices") }, "no partition for 3 vertices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMETISPart(strings.NewReader(tc.in), "b.graph", tc.plan)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
