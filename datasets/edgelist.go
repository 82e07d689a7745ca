package datasets

import (
	"io"

	"superstep/sdk/graph"
)

// ReadEdgeList reads a SNAP-style edge list: one edge per line as "u v" or
// "u v w", fields separated by spaces or tabs, u and v integer vertex ids
// (any int64; they become the graph's input ids) and w a finite number
// used as the edge weight. Lines starting with '#' or '%' are comments and
// blank lines are skipped; CRLF line ends are fine. Every edge line must
// have the same number of fields as the first one. Each line is one edge:
// self-loops and repeated lines are kept (the graph is then a multigraph),
// so an undirected file that lists every edge in both directions gives
// every edge twice. Vertices are numbered in order of first appearance.
//
// name is the file name used in errors; every error is a *ParseError.
func ReadEdgeList(r io.Reader, name string, directed bool) (*graph.Graph, error) {
	l := newLines(r, name)
	b := graph.NewBuilder(directed)
	cols, colsLine := 0, 0
	var f [3][]byte
	for l.Next() {
		line := l.Bytes()
		if isComment(line) {
			continue
		}
		k := splitFields(line, f[:])
		if k == 0 {
			continue
		}
		if k != 2 && k != 3 {
			return nil, l.errorf(l.Line(), "expected 2 or 3 numbers (u v [weight]), found %s", quote(line))
		}
		if cols == 0 {
			cols, colsLine = k, l.Line()
		} else if k != cols {
			if cols == 2 {
				return nil, l.errorf(l.Line(), "expected 2 numbers (u v) like line %d, found %s", colsLine, quote(line))
			}
			return nil, l.errorf(l.Line(), "expected 3 numbers (u v weight) like line %d, found %s", colsLine, quote(line))
		}
		u, ok := parseInt(f[0])
		if !ok {
			return nil, l.errorf(l.Line(), "expected an integer vertex id, found %s", quote(f[0]))
		}
		v, ok := parseInt(f[1])
		if !ok {
			return nil, l.errorf(l.Line(), "expected an integer vertex id, found %s", quote(f[1]))
		}
		if k == 2 {
			b.AddEdge(u, v)
			continue
		}
		w, ok := parseFloat(f[2])
		if !ok {
			return nil, l.errorf(l.Line(), "expected a finite number as the edge weight, found %s", quote(f[2]))
		}
		b.AddWeightedEdge(u, v, w)
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if b.NumVertices() > maxVertices {
		return nil, l.errorf(0, "more than %d vertices", maxVertices)
	}
	return b.Build(), nil
}
