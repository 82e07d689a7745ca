package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"superstep/sdk/graph"
)

// Load reads a graph file, choosing the reader by the file's extension and
// content; a ".gz" file is decompressed first (e.g. "web.txt.gz"):
//
//   - a file starting "%%MatrixMarket", or .mtx: ReadMatrixMarket;
//   - .graph, .metis, .chaco: ReadMETIS;
//   - .gml, or content starting with "graph [" after any top-level keys:
//     ReadGML;
//   - .txt, .edges, .edgelist, .el, .tsv: ReadEdgeList, directed unless
//     the leading comments say otherwise: SNAP's "# Undirected graph"
//     header or KONECT's "% sym" / "% bip" first line make it undirected.
//     Use LoadEdgeList to choose the direction yourself.
//
// Errors in the file are *ParseError naming path; an unknown format is a
// *ParseError with Line 0; a file that cannot be opened gives the
// *fs.PathError of os.Open.
func Load(path string) (*graph.Graph, error) {
	return load(path, func(r *bufio.Reader, ext string) (*graph.Graph, error) {
		head, _ := r.Peek(sniffSize)
		if hasPrefixFold(trimLeft(head), "%%MatrixMarket") {
			return ReadMatrixMarket(r, path)
		}
		switch ext {
		case ".mtx":
			return ReadMatrixMarket(r, path)
		case ".graph", ".metis", ".chaco":
			return ReadMETIS(r, path)
		case ".gml":
			return ReadGML(r, path)
		case ".txt", ".edges", ".edgelist", ".el", ".tsv":
			return ReadEdgeList(r, path, edgeListDirected(head))
		}
		if looksLikeGML(head) {
			return ReadGML(r, path)
		}
		return nil, &ParseError{File: path, Msg: "unknown graph format: expected a name ending in .txt, .edges, .edgelist, .el, .tsv, .graph, .metis, .chaco, .mtx or .gml (optionally .gz), or a Matrix Market banner"}
	})
}

// LoadEdgeList reads an edge list file (see ReadEdgeList) with the
// direction given; a ".gz" file is decompressed first.
func LoadEdgeList(path string, directed bool) (*graph.Graph, error) {
	return load(path, func(r *bufio.Reader, _ string) (*graph.Graph, error) {
		return ReadEdgeList(r, path, directed)
	})
}

// LoadMETISPart reads one process's part of a METIS file (see
// ReadMETISPart); a ".gz" file is decompressed first.
func LoadMETISPart(path string, plan func(n int) (keep func(v int) bool, err error)) (*graph.Graph, error) {
	return load(path, func(r *bufio.Reader, _ string) (*graph.Graph, error) {
		return ReadMETISPart(r, path, plan)
	})
}

// IsMETIS reports whether Load reads path as METIS: its name ends in
// .graph, .metis or .chaco (optionally .gz).
func IsMETIS(path string) bool {
	base := path
	if strings.EqualFold(filepath.Ext(path), ".gz") {
		base = path[:len(path)-3]
	}
	switch strings.ToLower(filepath.Ext(base)) {
	case ".graph", ".metis", ".chaco":
		return true
	}
	return false
}

const sniffSize = 64 << 10

func load(path string, read func(r *bufio.Reader, ext string) (*graph.Graph, error)) (*graph.Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	base := path
	if strings.EqualFold(filepath.Ext(path), ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, &ParseError{File: path, Msg: "expected a gzip file (the name ends in .gz): " + err.Error(), Err: err}
		}
		defer z.Close()
		r = z
		base = path[:len(path)-3]
	}
	return read(bufio.NewReaderSize(r, sniffSize), strings.ToLower(filepath.Ext(base)))
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// edgeListDirected reads the direction from an edge list's leading comment
// lines: SNAP writes "# Directed graph ..." or "# Undirected graph ...",
// KONECT starts with "% sym", "% asym" or "% bip". Without either the list
// is taken as directed.
func edgeListDirected(head []byte) bool {
	first := true
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if !isComment(line) {
			if isBlank(line) {
				continue
			}
			break
		}
		text := trimLeft(trimLeft(line)[1:])
		switch {
		case hasPrefixFold(text, "undirected graph"):
			return false
		case hasPrefixFold(text, "directed graph"):
			return true
		}
		if first {
			if w, _ := nextField(text); string(w) == "sym" || string(w) == "bip" {
				return false
			} else if string(w) == "asym" {
				return true
			}
		}
		first = false
	}
	return true
}

// looksLikeGML reports whether the first key-value pairs lead to "graph [".
func looksLikeGML(head []byte) bool {
	lx := gmlLexer{data: head, line: 1}
	for i := 0; i < 16; i++ {
		t, err := lx.next("")
		if err != nil || t.kind != gmlKey {
			return false
		}
		v, err := lx.next("")
		if err != nil {
			return false
		}
		if v.kind == gmlOpen {
			return string(t.text) == "graph"
		}
		if v.kind != gmlInt && v.kind != gmlReal && v.kind != gmlString {
			return false
		}
	}
	return false
}

//go:embed data/4elt.graph data/add32.graph data/cti.graph data/karate.gml data/lesmis.gml data/p2p-Gnutella31.txt data/SOURCE.txt
var data embed.FS

// dataset is one of the graphs shipped in data/ (see data/SOURCE.txt).
type dataset struct {
	name, file string
	read       func(r io.Reader, name string) (*graph.Graph, error)
}

func catalog() []dataset {
	return []dataset{
		{"4elt", "4elt.graph", ReadMETIS},
		{"add32", "add32.graph", ReadMETIS},
		{"cti", "cti.graph", ReadMETIS},
		{"gnutella31", "p2p-Gnutella31.txt", func(r io.Reader, name string) (*graph.Graph, error) {
			return ReadEdgeList(r, name, true)
		}},
		{"karate", "karate.gml", ReadGML},
		{"lesmis", "lesmis.gml", ReadGML},
	}
}

// Names lists the data sets that Open knows, in sorted order:
//
//   - "4elt": a 2-D finite-element mesh, 15,606 vertices, 45,878 edges;
//   - "add32": a 32-bit adder circuit, 4,960 vertices, 9,462 edges;
//   - "cti": a 3-D finite-element mesh, 16,840 vertices, 48,232 edges
//     (these three from Walshaw's Graph Partitioning Archive);
//   - "gnutella31": the Gnutella peer-to-peer network of 31 August 2002
//     from SNAP, directed, 62,586 vertices, 147,892 edges;
//   - "karate": Zachary's karate club, 34 vertices, 78 edges;
//   - "lesmis": the co-appearances of the characters of Les Misérables
//     (Knuth's Stanford GraphBase), 77 vertices, 254 edges weighted by
//     the number of chapters shared.
//
// Their origins and terms of use are in datasets/data/SOURCE.txt.
func Names() []string {
	var names []string
	for _, d := range catalog() {
		names = append(names, d.name)
	}
	return names
}

// Open returns one of the graphs shipped with Superstep by its name (see
// Names; case does not matter). Each call reads the embedded file afresh.
// The vertex ids are those of the file: 1-based vertex numbers for the
// METIS meshes, SNAP's node ids for gnutella31, the GML ids (1..34, with
// labels) for karate, the GML ids (0..76, labelled with the characters'
// names) for lesmis.
func Open(name string) (*graph.Graph, error) {
	for _, d := range catalog() {
		if strings.EqualFold(name, d.name) {
			f, err := data.Open("data/" + d.file)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return d.read(f, "datasets/data/"+d.file)
		}
	}
	return nil, fmt.Errorf("datasets.Open: no data set %q; there are %s", name, strings.Join(Names(), ", "))
}

// Source returns data/SOURCE.txt: where each shipped data set comes from,
// whom to cite and on what terms it is redistributed.
func Source() string {
	b, err := data.ReadFile("data/SOURCE.txt")
	if err != nil {
		return ""
	}
	return string(b)
}

// Must returns g, or panics with err: Must(datasets.Open("karate")) or
// Must(datasets.Lattice(3, 4)) in a notebook cell or an example, where a
// failure is a mistake in the cell.
func Must(g *graph.Graph, err error) *graph.Graph {
	if err != nil {
		panic(err)
	}
	return g
}
