package datasets

import (
	"bytes"
	"io"

	"superstep/sdk/graph"
)

// ReadMatrixMarket reads a square sparse matrix in Matrix Market
// coordinate format as a graph: the banner "%%MatrixMarket matrix
// coordinate FIELD SYMMETRY" with FIELD real, double, integer or pattern
// and SYMMETRY general or symmetric, '%' comment lines, the size line
// "n n nnz", then nnz entries "i j [value]" with 1-based indices.
//
// Vertex i has input id i (so Index(id) = id-1), and every vertex 1..n is
// there, with or without entries. A general matrix gives a directed graph
// with an arc i→j for each entry (row → column); a symmetric one gives an
// undirected graph with an edge per stored entry, which must lie on or
// below the diagonal as the format requires. Diagonal entries become
// self-loops, and an entry given twice gives two parallel edges (nothing
// is summed or dropped). Values become edge weights (explicit zeros
// included);
// pattern matrices are unweighted. Complex, Hermitian and skew-symmetric
// matrices, dense ("array") files and non-square matrices are refused with
// an error, as no graph represents them faithfully.
//
// name is the file name used in errors; every error is a *ParseError.
func ReadMatrixMarket(r io.Reader, name string) (*graph.Graph, error) {
	return readMatrixMarket(r, name, maxVertices)
}

// readMatrixMarket is ReadMatrixMarket with a limit on n, which the
// fuzz test lowers: n comes from the size line alone, so a tiny file may
// ask for a huge graph.
func readMatrixMarket(r io.Reader, name string, limit int64) (*graph.Graph, error) {
	l := newLines(r, name)
	if !l.Next() {
		if err := l.err(); err != nil {
			return nil, err
		}
		return nil, l.errorf(1, "expected the banner \"%%%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric\", found an empty file")
	}
	banner := l.Bytes()
	var f [6][]byte
	k := splitFields(banner, f[:])
	if k != 5 || !bytes.EqualFold(f[0], []byte("%%MatrixMarket")) {
		return nil, l.errorf(1, "expected the banner \"%%%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric\", found %s", quote(banner))
	}
	if !bytes.EqualFold(f[1], []byte("matrix")) {
		return nil, l.errorf(1, "expected object \"matrix\" in the banner, found %s", quote(f[1]))
	}
	if !bytes.EqualFold(f[2], []byte("coordinate")) {
		return nil, l.errorf(1, "expected format \"coordinate\" in the banner (a dense \"array\" file is not a graph), found %s", quote(f[2]))
	}
	var pattern, integer bool
	switch {
	case bytes.EqualFold(f[3], []byte("real")), bytes.EqualFold(f[3], []byte("double")):
	case bytes.EqualFold(f[3], []byte("integer")):
		integer = true
	case bytes.EqualFold(f[3], []byte("pattern")):
		pattern = true
	default:
		return nil, l.errorf(1, "expected field real, integer or pattern in the banner, found %s", quote(f[3]))
	}
	var symmetric bool
	switch {
	case bytes.EqualFold(f[4], []byte("general")):
	case bytes.EqualFold(f[4], []byte("symmetric")):
		symmetric = true
	default:
		return nil, l.errorf(1, "expected symmetry general or symmetric in the banner, found %s", quote(f[4]))
	}

	// The size line: the first line after the banner that is not a comment.
	var size []byte
	for l.Next() {
		if t := l.Bytes(); !isComment(t) && !isBlank(t) {
			size = t
			break
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if size == nil {
		return nil, l.errorf(l.Line()+1, "expected the size line \"rows columns entries\", found the end of the file")
	}
	sizeLine := l.Line()
	if splitFields(size, f[:]) != 3 {
		return nil, l.errorf(sizeLine, "expected the size line \"rows columns entries\", found %s", quote(size))
	}
	rows, ok1 := parseInt(f[0])
	cols, ok2 := parseInt(f[1])
	nnz, ok3 := parseInt(f[2])
	if !ok1 || !ok2 || !ok3 || rows < 0 || cols < 0 || nnz < 0 {
		return nil, l.errorf(sizeLine, "expected the size line \"rows columns entries\" as integers ≥ 0, found %s", quote(size))
	}
	if rows != cols {
		return nil, l.errorf(sizeLine, "expected a square matrix to read as a graph, found %d rows and %d columns", rows, cols)
	}
	if rows > limit {
		return nil, l.errorf(sizeLine, "expected at most %d rows, found %d", limit, rows)
	}
	n := rows

	want := 3
	if pattern {
		want = 2
	}
	var src, dst []int32
	var val []float64
	count := int64(0)
	for l.Next() {
		line := l.Bytes()
		if isComment(line) {
			continue
		}
		k := splitFields(line, f[:])
		if k == 0 {
			continue
		}
		if count == nnz {
			return nil, l.errorf(l.Line(), "expected only the %d entries of the size line (line %d), found another: %s", nnz, sizeLine, quote(line))
		}
		if k != want {
			if pattern {
				return nil, l.errorf(l.Line(), "expected an entry \"row column\" (pattern matrix), found %s", quote(line))
			}
			return nil, l.errorf(l.Line(), "expected an entry \"row column value\", found %s", quote(line))
		}
		i, ok := parseInt(f[0])
		if !ok || i < 1 || i > n {
			return nil, l.errorf(l.Line(), "expected a row index in 1..%d, found %s", n, quote(f[0]))
		}
		j, ok := parseInt(f[1])
		if !ok || j < 1 || j > n {
			return nil, l.errorf(l.Line(), "expected a column index in 1..%d, found %s", n, quote(f[1]))
		}
		if symmetric && j > i {
			return nil, l.errorf(l.Line(), "entry (%d, %d) lies above the diagonal; a symmetric matrix stores only the lower triangle", i, j)
		}
		if !pattern {
			var v float64
			if integer {
				iv, ok := parseInt(f[2])
				if !ok {
					return nil, l.errorf(l.Line(), "expected an integer value, found %s", quote(f[2]))
				}
				v = float64(iv)
			} else {
				var ok bool
				if v, ok = parseFloat(f[2]); !ok {
					return nil, l.errorf(l.Line(), "expected a finite real value, found %s", quote(f[2]))
				}
			}
			val = append(val, v)
		}
		src = append(src, int32(i))
		dst = append(dst, int32(j))
		count++
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if count < nnz {
		return nil, l.errorf(sizeLine, "size line says %d entries, but the file ends after %d (line %d)", nnz, count, l.Line())
	}

	b := graph.NewBuilder(!symmetric)
	for v := int64(1); v <= n; v++ {
		b.AddVertex(v)
	}
	for e := range src {
		if pattern {
			b.AddEdge(int64(src[e]), int64(dst[e]))
		} else {
			b.AddWeightedEdge(int64(src[e]), int64(dst[e]), val[e])
		}
	}
	return b.Build(), nil
}
