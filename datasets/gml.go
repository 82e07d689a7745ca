package datasets

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"

	"superstep/sdk/graph"
)

// ReadGML reads a graph in GML (Graph Modelling Language), as written by
// networkx, igraph, Cytoscape and Newman's network data sets:
//
//	graph [
//	  directed 0
//	  node [ id 1 label "Mr Hi" ]
//	  edge [ source 1 target 2 value 3.0 ]
//	]
//
// directed (0 or 1, default 0) sets the direction; each node needs an
// integer id, which becomes its input id, and may have a label (kept with
// SetLabel; HTML entities such as &quot; are decoded). Each edge needs
// integer source and target naming declared nodes; a numeric weight, or
// failing that a numeric value, is its weight. Vertices are numbered in
// the order the nodes are declared. Other keys (graphics, Creator, ...)
// are allowed and ignored; '#' starts a comment to the end of the line.
// The file must hold exactly one graph.
//
// name is the file name used in errors; every error is a *ParseError.
func ReadGML(r io.Reader, name string) (*graph.Graph, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: name, Msg: "reading: " + err.Error(), Err: err}
	}
	p := &gmlParser{lex: gmlLexer{data: data, line: 1}, name: name}
	g, perr := p.parse()
	if perr != nil {
		return nil, perr
	}
	return g, nil
}

type gmlKind int

const (
	gmlEOF gmlKind = iota
	gmlKey
	gmlInt
	gmlReal
	gmlString
	gmlOpen
	gmlClose
)

type gmlToken struct {
	kind gmlKind
	text []byte // the key, the number or the string's contents
	line int
	i    int64
	f    float64 // the value of an int or a real
}

func (t gmlToken) String() string {
	switch t.kind {
	case gmlEOF:
		return "the end of the file"
	case gmlOpen:
		return `"["`
	case gmlClose:
		return `"]"`
	case gmlString:
		return "the string " + quote(t.text)
	case gmlKey:
		return "the key " + quote(t.text)
	}
	return "the number " + string(t.text)
}

type gmlLexer struct {
	data []byte
	pos  int
	line int
}

func (lx *gmlLexer) errorf(name string, line int, format string, args ...any) error {
	return &ParseError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// next returns the next token, or an error for a character that starts
// none or a string that never ends.
func (lx *gmlLexer) next(name string) (gmlToken, error) {
	for lx.pos < len(lx.data) {
		c := lx.data[lx.pos]
		switch {
		case c == '\n':
			lx.line++
			lx.pos++
		case isSpace(c):
			lx.pos++
		case c == '#':
			for lx.pos < len(lx.data) && lx.data[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			return lx.token(name)
		}
	}
	return gmlToken{kind: gmlEOF, line: lx.line}, nil
}

func (lx *gmlLexer) token(name string) (gmlToken, error) {
	start, line := lx.pos, lx.line
	c := lx.data[start]
	switch {
	case c == '[':
		lx.pos++
		return gmlToken{kind: gmlOpen, line: line}, nil
	case c == ']':
		lx.pos++
		return gmlToken{kind: gmlClose, line: line}, nil
	case c == '"':
		lx.pos++
		for lx.pos < len(lx.data) && lx.data[lx.pos] != '"' {
			if lx.data[lx.pos] == '\n' {
				lx.line++
			}
			lx.pos++
		}
		if lx.pos == len(lx.data) {
			return gmlToken{}, lx.errorf(name, line, "expected a closing '\"' for the string that starts here, found the end of the file")
		}
		lx.pos++
		return gmlToken{kind: gmlString, text: lx.data[start+1 : lx.pos-1], line: line}, nil
	case isLetter(c):
		for lx.pos < len(lx.data) && (isLetter(lx.data[lx.pos]) || isDigit(lx.data[lx.pos])) {
			lx.pos++
		}
		return gmlToken{kind: gmlKey, text: lx.data[start:lx.pos], line: line}, nil
	case isDigit(c) || c == '-' || c == '+' || c == '.':
		for lx.pos < len(lx.data) {
			d := lx.data[lx.pos]
			if !isDigit(d) && d != '-' && d != '+' && d != '.' && d != 'e' && d != 'E' {
				break
			}
			lx.pos++
		}
		text := lx.data[start:lx.pos]
		if i, ok := parseInt(text); ok {
			return gmlToken{kind: gmlInt, text: text, line: line, i: i, f: float64(i)}, nil
		}
		f, err := strconv.ParseFloat(string(text), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return gmlToken{}, lx.errorf(name, line, "expected a number, found %s", quote(text))
		}
		return gmlToken{kind: gmlReal, text: text, line: line, f: f}, nil
	}
	return gmlToken{}, lx.errorf(name, line, "expected a key, a number, a string, '[' or ']', found %s", quote(lx.data[start:min(start+1, len(lx.data))]))
}

type gmlParser struct {
	lex  gmlLexer
	name string

	directed bool
	nodes    []gmlNode
	edges    []gmlEdge
}

type gmlNode struct {
	id    int64
	label string
	line  int
}

type gmlEdge struct {
	u, v int64
	w    float64
	line int
}

func (p *gmlParser) next() (gmlToken, error) { return p.lex.next(p.name) }

func (p *gmlParser) errorf(line int, format string, args ...any) error {
	return &ParseError{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (p *gmlParser) parse() (*graph.Graph, error) {
	graphLine := 0
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if t.kind == gmlEOF {
			break
		}
		if t.kind != gmlKey {
			return nil, p.errorf(t.line, "expected a key such as graph, found %s", t)
		}
		if string(t.text) != "graph" {
			if err := p.skipValue(t); err != nil {
				return nil, err
			}
			continue
		}
		if graphLine != 0 {
			return nil, p.errorf(t.line, "expected one graph, found a second (the first starts at line %d)", graphLine)
		}
		graphLine = t.line
		open, err := p.next()
		if err != nil {
			return nil, err
		}
		if open.kind != gmlOpen {
			return nil, p.errorf(open.line, "expected '[' after graph, found %s", open)
		}
		if err := p.parseGraph(t.line); err != nil {
			return nil, err
		}
	}
	if graphLine == 0 {
		return nil, p.errorf(p.lex.line, "expected graph [ ... ], found none in the file")
	}

	b := graph.NewBuilder(p.directed)
	declared := make(map[int64]int, len(p.nodes)) // id → line
	for _, nd := range p.nodes {
		if first, dup := declared[nd.id]; dup {
			return nil, p.errorf(nd.line, "node id %d is already declared at line %d", nd.id, first)
		}
		declared[nd.id] = nd.line
		b.AddVertex(nd.id)
		if nd.label != "" {
			b.SetLabel(nd.id, nd.label)
		}
	}
	for _, e := range p.edges {
		if _, ok := declared[e.u]; !ok {
			return nil, p.errorf(e.line, "edge source %d is not the id of a declared node", e.u)
		}
		if _, ok := declared[e.v]; !ok {
			return nil, p.errorf(e.line, "edge target %d is not the id of a declared node", e.v)
		}
		b.AddWeightedEdge(e.u, e.v, e.w)
	}
	if b.NumVertices() > maxVertices {
		return nil, p.errorf(0, "more than %d vertices", maxVertices)
	}
	return b.Build(), nil
}

// skipValue skips the value of key k: a number, a string or a whole list.
func (p *gmlParser) skipValue(k gmlToken) error {
	t, err := p.next()
	if err != nil {
		return err
	}
	switch t.kind {
	case gmlInt, gmlReal, gmlString:
		return nil
	case gmlOpen:
		return p.skipList(t.line)
	}
	return p.errorf(t.line, "expected a value (number, string or [ list ]) for the key %s, found %s", quote(k.text), t)
}

// skipList skips to the ']' closing a list opened at line open.
func (p *gmlParser) skipList(open int) error {
	depth := 1
	for depth > 0 {
		t, err := p.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case gmlOpen:
			depth++
		case gmlClose:
			depth--
		case gmlEOF:
			return p.errorf(t.line, "expected ']' to close the list opened at line %d, found the end of the file", open)
		}
	}
	return nil
}

// key reads the next key of a list opened at line open; ok is false at the
// list's closing ']'.
func (p *gmlParser) key(what string, open int) (k gmlToken, ok bool, err error) {
	t, err := p.next()
	if err != nil {
		return t, false, err
	}
	switch t.kind {
	case gmlClose:
		return t, false, nil
	case gmlKey:
		return t, true, nil
	case gmlEOF:
		return t, false, p.errorf(t.line, "expected ']' to close the %s opened at line %d, found the end of the file", what, open)
	}
	return t, false, p.errorf(t.line, "expected a key or ']' in the %s opened at line %d, found %s", what, open, t)
}

// scalar reads the value of key k, which must be a number or a string.
func (p *gmlParser) scalar(k gmlToken) (gmlToken, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != gmlInt && t.kind != gmlReal && t.kind != gmlString {
		return t, p.errorf(t.line, "expected a number or a string for %s, found %s", k.text, t)
	}
	return t, nil
}

// integer reads the value of key k, which must be an integer.
func (p *gmlParser) integer(k gmlToken) (int64, error) {
	t, err := p.next()
	if err != nil {
		return 0, err
	}
	if t.kind != gmlInt {
		return 0, p.errorf(t.line, "expected an integer for %s, found %s", k.text, t)
	}
	return t.i, nil
}

func (p *gmlParser) parseGraph(open int) error {
	for {
		k, ok, err := p.key("graph", open)
		if err != nil || !ok {
			return err
		}
		switch string(k.text) {
		case "directed":
			d, err := p.integer(k)
			if err != nil {
				return err
			}
			if d != 0 && d != 1 {
				return p.errorf(k.line, "expected directed 0 or 1, found %d", d)
			}
			p.directed = d == 1
		case "node", "edge":
			t, err := p.next()
			if err != nil {
				return err
			}
			if t.kind != gmlOpen {
				return p.errorf(t.line, "expected '[' after %s, found %s", k.text, t)
			}
			if string(k.text) == "node" {
				err = p.parseNode(k.line)
			} else {
				err = p.parseEdge(k.line)
			}
			if err != nil {
				return err
			}
		default:
			if err := p.skipValue(k); err != nil {
				return err
			}
		}
	}
}

func (p *gmlParser) parseNode(open int) error {
	nd := gmlNode{line: open}
	hasID := false
	for {
		k, ok, err := p.key("node", open)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch string(k.text) {
		case "id":
			if hasID {
				return p.errorf(k.line, "expected one id in the node opened at line %d, found a second", open)
			}
			if nd.id, err = p.integer(k); err != nil {
				return err
			}
			hasID = true
		case "label":
			t, err := p.scalar(k)
			if err != nil {
				return err
			}
			nd.label = string(t.text)
			if t.kind == gmlString {
				nd.label = html.UnescapeString(nd.label)
			}
		default:
			if err := p.skipValue(k); err != nil {
				return err
			}
		}
	}
	if !hasID {
		return p.errorf(open, "expected an id in this node, found none")
	}
	p.nodes = append(p.nodes, nd)
	return nil
}

func (p *gmlParser) parseEdge(open int) error {
	e := gmlEdge{line: open, w: 1}
	var hasU, hasV, hasWeight bool
	for {
		k, ok, err := p.key("edge", open)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch key := string(k.text); key {
		case "source", "target":
			if key == "source" && hasU || key == "target" && hasV {
				return p.errorf(k.line, "expected one %s in the edge opened at line %d, found a second", key, open)
			}
			x, err := p.integer(k)
			if err != nil {
				return err
			}
			if key == "source" {
				e.u, hasU = x, true
			} else {
				e.v, hasV = x, true
			}
		case "weight":
			t, err := p.scalar(k)
			if err != nil {
				return err
			}
			if t.kind == gmlString {
				return p.errorf(t.line, "expected a number for weight, found %s", t)
			}
			e.w, hasWeight = t.f, true
		case "value":
			// Newman's files keep the weight in value; a string value is
			// some other attribute.
			t, err := p.scalar(k)
			if err != nil {
				return err
			}
			if t.kind != gmlString && !hasWeight {
				e.w = t.f
			}
		default:
			if err := p.skipValue(k); err != nil {
				return err
			}
		}
	}
	if !hasU {
		return p.errorf(open, "expected a source in this edge, found none")
	}
	if !hasV {
		return p.errorf(open, "expected a target in this edge, found none")
	}
	p.edges = append(p.edges, e)
	return nil
}
