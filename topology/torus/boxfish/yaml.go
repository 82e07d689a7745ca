package boxfish

import (
	"fmt"
	"strconv"
	"strings"

	"superstep/internal/linereader"
)

// ParseError is the one error type of the Boxfish and Blue Gene/Q
// readers: a place in a file and what was expected there. Its text is
// "file:line:col: expected …, found …" ("file:line: …" when Col is 0,
// "file: …" when Line is 0 too); Unwrap gives the underlying error
// (reading, opening), if any. It is the one parse error of all of
// Superstep's file readers (internal/linereader.ParseError), so errors.As
// matches every reader's.
type ParseError = linereader.ParseError

// Warning is something a reader accepted but the caller should know: it
// names the file and, where one line is to blame, the line (else 0).
type Warning struct {
	File string
	Line int
	Msg  string
}

// String returns "file:line: msg" (or "file: msg").
func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Msg)
}

// bfMaxDepth bounds the nesting of YAML collections.
const bfMaxDepth = 64

// bfNode is a node of the YAML subset: a scalar, a mapping (keys in file
// order) or a sequence. A nil *bfNode is an empty value.
type bfNode struct {
	kind      byte // 's' scalar, 'm' mapping, 'q' sequence
	str       string
	keys      []string
	vals      []*bfNode
	items     []*bfNode
	line, col int
	index     map[string]bool // keys, once the mapping is large
}

// addKey appends a key and value, reporting false when the key is
// already there (linear for small mappings, a set for large ones).
func (n *bfNode) addKey(k string, v *bfNode) bool {
	if n.index != nil {
		if n.index[k] {
			return false
		}
		n.index[k] = true
	} else {
		for _, old := range n.keys {
			if old == k {
				return false
			}
		}
		if len(n.keys) >= 16 {
			n.index = make(map[string]bool, 2*len(n.keys))
			for _, old := range n.keys {
				n.index[old] = true
			}
			n.index[k] = true
		}
	}
	n.keys = append(n.keys, k)
	n.vals = append(n.vals, v)
	return true
}

// get returns the value under key k of a mapping, or nil.
func (n *bfNode) get(k string) *bfNode {
	if n == nil || n.kind != 'm' {
		return nil
	}
	for i, key := range n.keys {
		if key == k {
			return n.vals[i]
		}
	}
	return nil
}

// scalar returns the text of a scalar node, "" otherwise.
func (n *bfNode) scalar() string {
	if n == nil || n.kind != 's' {
		return ""
	}
	return n.str
}

// describe names a node for "found …" in messages.
func (n *bfNode) describe() string {
	switch {
	case n == nil:
		return "nothing"
	case n.kind == 'm':
		return "a mapping"
	case n.kind == 'q':
		return "a sequence"
	}
	if len(n.str) > 40 {
		return strconv.Quote(n.str[:40]) + "…"
	}
	return strconv.Quote(n.str)
}

// bfParser reads the YAML subset Boxfish writes: documents separated by
// "---" and ended by "...", block mappings and sequences by indentation,
// flow mappings and sequences ({…}, […], over several lines, a trailing
// comma allowed), plain and quoted one-line scalars, and # comments.
// Anchors, tags, multi-line scalars and complex keys are refused.
type bfParser struct {
	file      string
	src       []byte
	pos       int
	line      int // line of pos, 1-based
	lineStart int // offset of that line's first byte
	depth     int
}

func bfNewParser(file string, src []byte) *bfParser {
	return &bfParser{file: file, src: src, line: 1}
}

func (p *bfParser) errAt(line, col int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// errf reports an error at pos.
func (p *bfParser) errf(format string, args ...any) error {
	return p.errAt(p.line, p.pos-p.lineStart+1, format, args...)
}

func (p *bfParser) col() int { return p.pos - p.lineStart }

func (p *bfParser) eof() bool { return p.pos >= len(p.src) }

// foundHere describes what sits at pos, for "found …".
func (p *bfParser) foundHere() string {
	if p.eof() {
		return "the end of the file"
	}
	c := p.src[p.pos]
	if c == '\n' || c == '\r' {
		return "the end of the line"
	}
	end := p.pos
	for end < len(p.src) && p.src[end] != '\n' && p.src[end] != '\r' && end-p.pos < 40 {
		end++
	}
	return strconv.Quote(string(p.src[p.pos:end]))
}

// newline consumes the line break at pos (LF or CRLF).
func (p *bfParser) newline() {
	if p.pos < len(p.src) && p.src[p.pos] == '\r' {
		p.pos++
	}
	if p.pos < len(p.src) && p.src[p.pos] == '\n' {
		p.pos++
	}
	p.line++
	p.lineStart = p.pos
}

// atEOL says whether pos is at a line end (or a comment, or the end).
func (p *bfParser) atEOL() bool {
	if p.eof() {
		return true
	}
	c := p.src[p.pos]
	return c == '\n' || c == '\r' || (c == '#' && (p.pos == p.lineStart || bfIsSpace(p.src[p.pos-1])))
}

func bfIsSpace(c byte) bool { return c == ' ' || c == '\t' }

func (p *bfParser) skipSpaces() {
	for p.pos < len(p.src) && bfIsSpace(p.src[p.pos]) {
		p.pos++
	}
}

// skipToEOL skips a comment to the end of the line (not past it).
func (p *bfParser) skipToEOL() {
	for p.pos < len(p.src) && p.src[p.pos] != '\n' && p.src[p.pos] != '\r' {
		p.pos++
	}
}

// endLine expects only spaces or a comment before the end of the line and
// moves to the next line.
func (p *bfParser) endLine() error {
	p.skipSpaces()
	if !p.atEOL() {
		return p.errf("expected the end of the line, found %s", p.foundHere())
	}
	p.skipToEOL()
	if !p.eof() {
		p.newline()
	}
	return nil
}

// marker says whether the line at lineStart is a document marker ("---"
// or "..."), returning it.
func (p *bfParser) marker() string {
	s := p.src[p.lineStart:]
	for _, m := range [2]string{"---", "..."} {
		if len(s) >= 3 && string(s[:3]) == m && (len(s) == 3 || bfIsSpace(s[3]) || s[3] == '\n' || s[3] == '\r') {
			return m
		}
	}
	return ""
}

// nextContent moves pos to the first non-blank character of the next line
// holding content (skipping blank and comment lines; pos may already be
// inside such a line's indentation) and returns its indentation, or −1 at
// the end of the file or at a document marker.
func (p *bfParser) nextContent() int {
	for !p.eof() {
		if p.pos == p.lineStart && p.marker() != "" {
			return -1
		}
		p.skipSpaces()
		if p.atEOL() {
			p.skipToEOL()
			if p.eof() {
				return -1
			}
			p.newline()
			continue
		}
		return p.col()
	}
	return -1
}

// bfDoc is one YAML document with the line of its start.
type bfDoc struct {
	root *bfNode
	line int
}

// parseStream reads documents until the end of the file, or, when
// table is true, until the "..." that ends the table header; it returns
// the documents and leaves pos after the "..." line.
func (p *bfParser) parseStream(table bool) ([]bfDoc, error) {
	var docs []bfDoc
	open := false // a "---" has been seen and its document not yet read
	ended := false
	for {
		ind := p.nextContent()
		if ind < 0 && !p.eof() {
			m := p.marker()
			line := p.line
			p.skipToEOL()
			if !p.eof() {
				p.newline()
			}
			if m == "..." {
				if open {
					docs = append(docs, bfDoc{line: line})
				}
				if table {
					return docs, nil
				}
				open, ended = false, true
				continue
			}
			if open {
				docs = append(docs, bfDoc{line: line})
			}
			open, ended = true, false
			continue
		}
		if p.eof() {
			break
		}
		if ended || (!open && len(docs) > 0) {
			return nil, p.errf("expected a document start (---) or the end of the file, found %s", p.foundHere())
		}
		if ind != 0 {
			return nil, p.errf("expected content at column 1, found indentation")
		}
		line := p.line
		n, err := p.parseBlock(0)
		if err != nil {
			return nil, err
		}
		if ind := p.nextContent(); ind >= 0 {
			return nil, p.errf("expected a document start (---) or the end of the file, found %s", p.foundHere())
		}
		docs = append(docs, bfDoc{root: n, line: line})
		open = false
	}
	if table {
		return nil, p.errAt(p.line, 1, "expected a line \"...\" ending the table header, found the end of the file")
	}
	if open {
		docs = append(docs, bfDoc{line: p.line})
	}
	return docs, nil
}

// parseBlock parses the block node whose first line is at pos with
// indentation ind.
func (p *bfParser) parseBlock(ind int) (*bfNode, error) {
	if p.depth++; p.depth > bfMaxDepth {
		return nil, p.errf("expected at most %d nested collections, found more", bfMaxDepth)
	}
	defer func() { p.depth-- }()
	c := p.src[p.pos]
	switch {
	case c == '\t':
		return nil, p.errf("expected spaces for indentation, found a tab")
	case c == '-' && (p.pos+1 == len(p.src) || bfIsSpace(p.src[p.pos+1]) || p.src[p.pos+1] == '\n' || p.src[p.pos+1] == '\r'):
		return p.parseSeq(ind)
	case c == '{' || c == '[':
		n, err := p.parseFlow()
		if err != nil {
			return nil, err
		}
		return n, p.endLine()
	}
	if p.isKey() {
		return p.parseMap(ind)
	}
	n, err := p.parsePlain(false)
	if err != nil {
		return nil, err
	}
	return n, p.endLine()
}

// isKey says whether the line at pos is "key: …" (a plain or quoted key).
func (p *bfParser) isKey() bool {
	i := p.pos
	if i < len(p.src) && (p.src[i] == '"' || p.src[i] == '\'') {
		q := p.src[i]
		for i++; i < len(p.src) && p.src[i] != q && p.src[i] != '\n'; i++ {
		}
		if i >= len(p.src) || p.src[i] != q {
			return false
		}
		i++
		for i < len(p.src) && bfIsSpace(p.src[i]) {
			i++
		}
		return i < len(p.src) && p.src[i] == ':'
	}
	for ; i < len(p.src); i++ {
		c := p.src[i]
		if c == '\n' || c == '\r' || (c == '#' && i > p.pos && bfIsSpace(p.src[i-1])) {
			return false
		}
		if c == ':' && (i+1 == len(p.src) || bfIsSpace(p.src[i+1]) || p.src[i+1] == '\n' || p.src[i+1] == '\r') {
			return true
		}
	}
	return false
}

// parseKey reads a block mapping key and its ':'.
func (p *bfParser) parseKey() (string, error) {
	var key string
	if c := p.src[p.pos]; c == '"' || c == '\'' {
		n, err := p.parseQuoted()
		if err != nil {
			return "", err
		}
		key = n.str
		p.skipSpaces()
	} else {
		start := p.pos
		for !(p.src[p.pos] == ':' && (p.pos+1 == len(p.src) || bfIsSpace(p.src[p.pos+1]) || p.src[p.pos+1] == '\n' || p.src[p.pos+1] == '\r')) {
			p.pos++
		}
		key = strings.TrimRight(string(p.src[start:p.pos]), " \t")
	}
	if p.eof() || p.src[p.pos] != ':' {
		return "", p.errf("expected ':' after the key, found %s", p.foundHere())
	}
	p.pos++
	return key, nil
}

// parseMap parses a block mapping whose keys sit at column ind.
func (p *bfParser) parseMap(ind int) (*bfNode, error) {
	n := &bfNode{kind: 'm', line: p.line, col: p.col() + 1}
	for {
		line, col := p.line, p.col()+1
		if p.src[p.pos] == '-' || !p.isKey() {
			return nil, p.errf("expected a key (name: value), found %s", p.foundHere())
		}
		key, err := p.parseKey()
		if err != nil {
			return nil, err
		}
		p.skipSpaces()
		var v *bfNode
		if p.atEOL() {
			p.skipToEOL()
			if !p.eof() {
				p.newline()
			}
			next := p.nextContent()
			switch {
			case next > ind:
				if v, err = p.parseBlock(next); err != nil {
					return nil, err
				}
			case next == ind && p.src[p.pos] == '-':
				if v, err = p.parseSeq(ind); err != nil {
					return nil, err
				}
			}
		} else {
			if v, err = p.parseInline(); err != nil {
				return nil, err
			}
			if err := p.endLine(); err != nil {
				return nil, err
			}
		}
		if !n.addKey(key, v) {
			return nil, p.errAt(line, col, "expected a new key, found %q again", key)
		}
		next := p.nextContent()
		if next < ind {
			return n, nil
		}
		if next > ind {
			return nil, p.errf("expected a key at column %d, found more indentation", ind+1)
		}
	}
}

// parseSeq parses a block sequence whose dashes sit at column ind.
func (p *bfParser) parseSeq(ind int) (*bfNode, error) {
	n := &bfNode{kind: 'q', line: p.line, col: p.col() + 1}
	for {
		if p.src[p.pos] != '-' || !(p.pos+1 == len(p.src) || bfIsSpace(p.src[p.pos+1]) || p.src[p.pos+1] == '\n' || p.src[p.pos+1] == '\r') {
			return n, nil // the sequence ends; the caller checks what follows
		}
		p.pos++
		p.skipSpaces()
		var v *bfNode
		var err error
		if p.atEOL() {
			p.skipToEOL()
			if !p.eof() {
				p.newline()
			}
			if next := p.nextContent(); next > ind {
				if v, err = p.parseBlock(next); err != nil {
					return nil, err
				}
			}
		} else if c := p.src[p.pos]; c != '{' && c != '[' && c != '"' && c != '\'' && p.isKey() {
			if p.depth++; p.depth > bfMaxDepth {
				return nil, p.errf("expected at most %d nested collections, found more", bfMaxDepth)
			}
			v, err = p.parseMap(p.col())
			p.depth--
			if err != nil {
				return nil, err
			}
		} else {
			if v, err = p.parseInline(); err != nil {
				return nil, err
			}
			if err := p.endLine(); err != nil {
				return nil, err
			}
		}
		n.items = append(n.items, v)
		next := p.nextContent()
		if next < ind {
			return n, nil
		}
		if next > ind {
			return nil, p.errf("expected '-' at column %d, found more indentation", ind+1)
		}
	}
}

// parseInline parses the value that follows "key:" or "-" on its line: a
// flow collection, a quoted scalar or a plain scalar.
func (p *bfParser) parseInline() (*bfNode, error) {
	switch p.src[p.pos] {
	case '{', '[':
		return p.parseFlow()
	case '"', '\'':
		return p.parseQuoted()
	}
	return p.parsePlain(false)
}

// parsePlain reads a plain scalar to the end of the line (block) or to
// the next flow indicator (flow).
func (p *bfParser) parsePlain(flow bool) (*bfNode, error) {
	n := &bfNode{kind: 's', line: p.line, col: p.col() + 1}
	switch c := p.src[p.pos]; c {
	case '&', '*', '!', '|', '>', '%', '@', '`':
		return nil, p.errf("expected a plain value, found %q (anchors, tags and block scalars are not supported)", c)
	case ',', ']', '}', '{', '[':
		if flow {
			return nil, p.errf("expected a value, found %q", c)
		}
	}
	start := p.pos
	for !p.eof() {
		c := p.src[p.pos]
		if c == '\n' || c == '\r' || (c == '#' && bfIsSpace(p.src[p.pos-1])) {
			break
		}
		if flow && (c == ',' || c == ']' || c == '}' || c == '[' || c == '{') {
			break
		}
		if flow && c == ':' && (p.pos+1 == len(p.src) || strings.IndexByte(" \t\r\n,]}", p.src[p.pos+1]) >= 0) {
			break
		}
		p.pos++
	}
	n.str = strings.TrimRight(string(p.src[start:p.pos]), " \t")
	return n, nil
}

// parseQuoted reads a one-line single- or double-quoted scalar.
func (p *bfParser) parseQuoted() (*bfNode, error) {
	n := &bfNode{kind: 's', line: p.line, col: p.col() + 1}
	q := p.src[p.pos]
	p.pos++
	var b strings.Builder
	for {
		if p.eof() || p.src[p.pos] == '\n' || p.src[p.pos] == '\r' {
			return nil, p.errf("expected a closing %c on the same line, found %s", q, p.foundHere())
		}
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == q && q == '\'' && p.pos < len(p.src) && p.src[p.pos] == '\'':
			b.WriteByte('\'')
			p.pos++
		case c == q:
			n.str = b.String()
			return n, nil
		case c == '\\' && q == '"':
			if p.eof() {
				return nil, p.errf("expected an escaped character, found the end of the file")
			}
			e := p.src[p.pos]
			r, ok := map[byte]byte{'"': '"', '\\': '\\', 'n': '\n', 't': '\t', '/': '/', '0': 0}[e]
			if !ok {
				return nil, p.errf("expected one of \\\" \\\\ \\n \\t \\/ \\0, found \\%c", e)
			}
			b.WriteByte(r)
			p.pos++
		default:
			b.WriteByte(c)
		}
	}
}

// skipFlowSpace skips spaces, line breaks and comments inside a flow
// collection; a document marker there is an error.
func (p *bfParser) skipFlowSpace() error {
	for !p.eof() {
		c := p.src[p.pos]
		switch {
		case bfIsSpace(c):
			p.pos++
		case c == '\n' || c == '\r':
			p.newline()
			if p.marker() != "" {
				return p.errf("expected the collection to close, found %q", p.marker())
			}
		case c == '#' && (p.pos == p.lineStart || bfIsSpace(p.src[p.pos-1])):
			p.skipToEOL()
		default:
			return nil
		}
	}
	return nil
}

// parseFlow parses a flow mapping or sequence at pos, over as many lines
// as it takes; a comma before the closing bracket is allowed.
func (p *bfParser) parseFlow() (*bfNode, error) {
	if p.depth++; p.depth > bfMaxDepth {
		return nil, p.errf("expected at most %d nested collections, found more", bfMaxDepth)
	}
	defer func() { p.depth-- }()
	open := p.src[p.pos]
	n := &bfNode{kind: 'q', line: p.line, col: p.col() + 1}
	closer := byte(']')
	if open == '{' {
		n.kind, closer = 'm', '}'
	}
	p.pos++
	for {
		if err := p.skipFlowSpace(); err != nil {
			return nil, err
		}
		if p.eof() {
			return nil, p.errf("expected %q closing the collection opened at line %d, found the end of the file", closer, n.line)
		}
		if p.src[p.pos] == closer {
			p.pos++
			return n, nil
		}
		line, col := p.line, p.col()+1
		v, err := p.parseFlowValue()
		if err != nil {
			return nil, err
		}
		if err := p.skipFlowSpace(); err != nil {
			return nil, err
		}
		if n.kind == 'm' {
			if v == nil || v.kind != 's' {
				return nil, p.errAt(line, col, "expected a key, found %s", v.describe())
			}
			if p.eof() || p.src[p.pos] != ':' {
				return nil, p.errf("expected ':' after the key %q, found %s", v.str, p.foundHere())
			}
			p.pos++
			if err := p.skipFlowSpace(); err != nil {
				return nil, err
			}
			var val *bfNode
			if !p.eof() && p.src[p.pos] != ',' && p.src[p.pos] != '}' {
				if val, err = p.parseFlowValue(); err != nil {
					return nil, err
				}
			}
			if !n.addKey(v.str, val) {
				return nil, p.errAt(line, col, "expected a new key, found %q again", v.str)
			}
			if err := p.skipFlowSpace(); err != nil {
				return nil, err
			}
		} else {
			n.items = append(n.items, v)
		}
		if p.eof() {
			return nil, p.errf("expected %q closing the collection opened at line %d, found the end of the file", closer, n.line)
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case closer:
		default:
			return nil, p.errf("expected ',' or %q, found %s", closer, p.foundHere())
		}
	}
}

func (p *bfParser) parseFlowValue() (*bfNode, error) {
	if p.eof() {
		return nil, p.errf("expected a value, found the end of the file")
	}
	switch p.src[p.pos] {
	case '{', '[':
		return p.parseFlow()
	case '"', '\'':
		return p.parseQuoted()
	}
	return p.parsePlain(true)
}
