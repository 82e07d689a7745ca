package datasets

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"superstep/sdk/graph"
)

// lineReaders are the readers built on lines (internal/linereader), with
// a small file each.
var lineReaders = []struct {
	name string
	read func(r io.Reader, name string) (*graph.Graph, error)
	in   string
}{
	{"edge list", func(r io.Reader, name string) (*graph.Graph, error) { return ReadEdgeList(r, name, false) },
		"# comment\n1 2 0.5\n2 3 1\n3 1 2\n"},
	{"METIS", ReadMETIS,
		"% comment\n3 3 1\n2 5 3 1\n1 5 3 2\n1 1 2 2\n"},
	{"Matrix Market", ReadMatrixMarket,
		"%%MatrixMarket matrix coordinate real symmetric\n% comment\n3 3 3\n2 1 0.5\n3 2 1\n3 1 2\n"},
}

// sameGraph reports whether a and b have the same vertices, edges and
// weights in the same order.
func sameGraph(a, b *graph.Graph) bool {
	if a.Directed() != b.Directed() || a.Weighted() != b.Weighted() || a.NumVertices() != b.NumVertices() || a.NumEdges() != b.NumEdges() {
		return false
	}
	for v := range a.NumVertices() {
		if a.ID(v) != b.ID(v) || !reflect.DeepEqual(a.Neighbors(v), b.Neighbors(v)) || !reflect.DeepEqual(a.EdgeWeights(v), b.EdgeWeights(v)) {
			return false
		}
	}
	return true
}

// TestLineEndingsAndByteOrderMark: a file with CRLF line endings, with
// a UTF-8 byte order mark, or both, reads like the plain LF file.
func TestLineEndingsAndByteOrderMark(t *testing.T) {
	for _, c := range lineReaders {
		want, err := c.read(strings.NewReader(c.in), "lf")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		crlf := strings.ReplaceAll(c.in, "\n", "\r\n")
		for _, in := range []string{crlf, strings.TrimSuffix(crlf, "\r\n"), "\uFEFF" + c.in, "\uFEFF" + crlf} {
			got, err := c.read(strings.NewReader(in), "f")
			if err != nil || !sameGraph(got, want) {
				t.Errorf("%s: %q: %v, %v; want %v", c.name, in, got, err, want)
			}
		}
	}
}

// TestReadError: an error of the underlying reader is a *ParseError at
// the line after the last one read, "reading: …", that unwraps to it.
func TestReadError(t *testing.T) {
	boom := errors.New("disk gone")
	for _, c := range lineReaders {
		head := strings.Join(strings.SplitAfter(c.in, "\n")[:3], "") // three whole lines
		_, err := c.read(io.MultiReader(strings.NewReader(head), iotest.ErrReader(boom)), "f")
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, boom) || err.Error() != "f:4: reading: disk gone" {
			t.Errorf("%s: error %v", c.name, err)
		}
	}
}
