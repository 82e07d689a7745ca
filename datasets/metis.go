package datasets

import (
	"errors"
	"io"
	"math"
	"slices"

	"superstep/sdk/graph"
)

// maxVertices is the most vertices a graph may have (its indices are int32).
const maxVertices = math.MaxInt32

// ReadMETIS reads an undirected graph in METIS format (also Chaco's and
// Walshaw's graph partitioning archive's): a header "n m [fmt [ncon]]"
// then n lines, line i listing the 1-based neighbours of vertex i. fmt is
// up to three binary digits: the last says the edges carry weights (each
// neighbour is followed by its weight), the middle one that each line
// starts with ncon vertex weights (ncon defaults to 1), the first one that
// it starts with a vertex size. Lines starting with '%' are comments; a
// blank line is a vertex without neighbours.
//
// The reader checks what METIS requires: exactly n vertex lines,
// neighbours in 1..n, no vertex listing itself or a neighbour twice, every
// edge listed from both ends (with the same weight), and m undirected
// edges in all. Vertex i gets input id i (1-based), so Index(id) = id-1.
// Vertex sizes and weights are checked to be non-negative integers but not
// kept: the graph type has no vertex weights.
//
// name is the file name used in errors; every error is a *ParseError.
func ReadMETIS(r io.Reader, name string) (*graph.Graph, error) {
	return readMETIS(r, name, nil)
}

// ReadMETISPart reads the part of a METIS graph that one process of a
// distributed job computes: every vertex, and the neighbours of only the
// vertices keep accepts (the other lines are skipped, not parsed), so the
// arcs held grow with the part, not with the graph. plan is called once,
// after the header, with the number of vertices n, and returns keep (or
// an error, returned as it is).
//
// The reader checks what one part can: the header, n vertex lines, each
// kept line as ReadMETIS does, and an edge listed from both ends when
// both are kept. NumEdges is the header's m: the parts' arcs add up to 2m
// only if the file is consistent, which a caller holding every part's
// count can check.
func ReadMETISPart(r io.Reader, name string, plan func(n int) (keep func(v int) bool, err error)) (*graph.Graph, error) {
	if plan == nil {
		return nil, errors.New("datasets.ReadMETISPart: no plan")
	}
	return readMETIS(r, name, plan)
}

func readMETIS(r io.Reader, name string, plan func(n int) (func(v int) bool, error)) (*graph.Graph, error) {
	l := newLines(r, name)

	// The header: the first line that is not a comment.
	var header []byte
	for l.Next() {
		if t := l.Bytes(); !isComment(t) && !isBlank(t) {
			header = t
			break
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if header == nil {
		return nil, l.errorf(l.Line()+1, "expected a header \"n m [fmt [ncon]]\", found the end of the file")
	}
	headerLine := l.Line()
	var f [5][]byte
	k := splitFields(header, f[:])
	if k < 2 || k > 4 {
		return nil, l.errorf(headerLine, "expected a header \"n m [fmt [ncon]]\", found %s", quote(header))
	}
	n, ok := parseInt(f[0])
	if !ok || n < 0 || n > maxVertices {
		return nil, l.errorf(headerLine, "expected the number of vertices n (0..%d) first in the header, found %s", maxVertices, quote(f[0]))
	}
	m, ok := parseInt(f[1])
	if !ok || m < 0 {
		return nil, l.errorf(headerLine, "expected the number of edges m (≥ 0) second in the header, found %s", quote(f[1]))
	}
	var hasSize, hasVW, hasEW bool
	if k >= 3 {
		fm := f[2]
		valid := len(fm) >= 1 && len(fm) <= 3
		for _, c := range fm {
			valid = valid && (c == '0' || c == '1')
		}
		if !valid {
			return nil, l.errorf(headerLine, "expected fmt of up to three 0/1 digits (size, vertex weights, edge weights) third in the header, found %s", quote(fm))
		}
		d := len(fm)
		hasEW = fm[d-1] == '1'
		hasVW = d >= 2 && fm[d-2] == '1'
		hasSize = d >= 3 && fm[d-3] == '1'
	}
	ncon := int64(0)
	if hasVW {
		ncon = 1
	}
	if k == 4 {
		c, ok := parseInt(f[3])
		if !ok || c < 1 || c > 1<<20 {
			return nil, l.errorf(headerLine, "expected ncon, the number of vertex weights (≥ 1), fourth in the header, found %s", quote(f[3]))
		}
		if !hasVW {
			return nil, l.errorf(headerLine, "header gives ncon = %d but its fmt %s says the vertices have no weights", c, quote(f[2]))
		}
		ncon = c
	}

	var keep func(v int) bool
	if plan != nil {
		var err error
		if keep, err = plan(int(n)); err != nil {
			return nil, err
		}
	}

	// The vertex lines, kept as a CSR in file order.
	offsets := []int{0}
	var adj []int32
	var wts []float64
	var lineOf []int // line of each vertex
	for int64(len(lineOf)) < n && l.Next() {
		line := l.Bytes()
		if isComment(line) {
			continue
		}
		u := len(lineOf)
		lineOf = append(lineOf, l.Line())
		if keep != nil && !keep(u) {
			offsets = append(offsets, len(adj))
			continue
		}
		rest := line
		var fld []byte
		if hasSize {
			if fld, rest = nextField(rest); len(fld) == 0 {
				return nil, l.errorf(l.Line(), "expected the size of vertex %d first on its line, found %s", u+1, quote(line))
			}
			if s, ok := parseInt(fld); !ok || s < 0 {
				return nil, l.errorf(l.Line(), "expected the size of vertex %d (an integer ≥ 0), found %s", u+1, quote(fld))
			}
		}
		for i := int64(0); i < ncon; i++ {
			if fld, rest = nextField(rest); len(fld) == 0 {
				return nil, l.errorf(l.Line(), "expected %d weight(s) of vertex %d before its neighbours, found %s", ncon, u+1, quote(line))
			}
			if w, ok := parseInt(fld); !ok || w < 0 {
				return nil, l.errorf(l.Line(), "expected a weight of vertex %d (an integer ≥ 0), found %s", u+1, quote(fld))
			}
		}
		for {
			if fld, rest = nextField(rest); len(fld) == 0 {
				break
			}
			v, ok := parseInt(fld)
			if !ok || v < 1 || v > n {
				return nil, l.errorf(l.Line(), "expected a neighbour of vertex %d in 1..%d, found %s", u+1, n, quote(fld))
			}
			if v == int64(u+1) {
				return nil, l.errorf(l.Line(), "vertex %d lists itself as a neighbour (METIS graphs have no self-loops)", u+1)
			}
			adj = append(adj, int32(v-1))
			if hasEW {
				if fld, rest = nextField(rest); len(fld) == 0 {
					return nil, l.errorf(l.Line(), "expected the weight of edge %d–%d after neighbour %d (fmt says edges are weighted), found the end of the line", u+1, v, v)
				}
				w, ok := parseFloat(fld)
				if !ok {
					return nil, l.errorf(l.Line(), "expected the weight of edge %d–%d (a finite number), found %s", u+1, v, quote(fld))
				}
				wts = append(wts, w)
			}
		}
		offsets = append(offsets, len(adj))
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if int64(len(lineOf)) < n {
		return nil, l.errorf(headerLine, "header says %d vertices, but the file ends after %d vertex lines (line %d)", n, len(lineOf), l.Line())
	}
	for l.Next() {
		if t := l.Bytes(); !isComment(t) && !isBlank(t) {
			return nil, l.errorf(l.Line(), "expected only the %d vertex lines the header (line %d) announces, found another: %s", n, headerLine, quote(t))
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}

	// Sort each list so that duplicates sit side by side and reverse edges
	// can be found by binary search.
	nv := int(n)
	for u := 0; u < nv; u++ {
		lo, hi := offsets[u], offsets[u+1]
		if wts != nil {
			graph.SortArcs(adj[lo:hi], wts[lo:hi])
		} else {
			slices.Sort(adj[lo:hi])
		}
		for i := lo + 1; i < hi; i++ {
			if adj[i] == adj[i-1] {
				return nil, l.errorf(lineOf[u], "vertex %d lists neighbour %d twice", u+1, adj[i]+1)
			}
		}
	}
	for u := 0; u < nv; u++ {
		for i := offsets[u]; i < offsets[u+1]; i++ {
			v := int(adj[i])
			if keep != nil && !keep(v) {
				continue // its line was not read
			}
			back := adj[offsets[v]:offsets[v+1]]
			j, found := slices.BinarySearch(back, int32(u))
			if !found {
				return nil, l.errorf(lineOf[u], "vertex %d lists neighbour %d, but vertex %d (line %d) does not list %d", u+1, v+1, v+1, lineOf[v], u+1)
			}
			if wts != nil && wts[i] != wts[offsets[v]+j] {
				return nil, l.errorf(lineOf[u], "edge %d–%d has weight %g here but %g on line %d", u+1, v+1, wts[i], wts[offsets[v]+j], lineOf[v])
			}
		}
	}
	if edges := int64(len(adj) / 2); keep == nil && edges != m {
		return nil, l.errorf(headerLine, "header says %d edges, but the adjacency lists hold %d", m, edges)
	}

	ids := make([]int64, nv)
	for u := range ids {
		ids[u] = int64(u + 1)
	}
	if wts != nil {
		unit := true
		for _, w := range wts {
			unit = unit && w == 1
		}
		if unit {
			wts = nil // as a graph whose weights are all 1 is unweighted
		}
	}
	g, err := graph.FromCSR(false, ids, offsets, adj, wts, int(m))
	if err != nil {
		return nil, l.errorf(headerLine, "%v", err)
	}
	return g, nil
}
