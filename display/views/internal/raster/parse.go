package raster

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

const svgNS = "http://www.w3.org/2000/svg"

// maxDepth bounds element nesting, so that no input can exhaust the stack.
const maxDepth = 200

// node is one element of the parsed document.
type node struct {
	name   string
	attrs  []attr
	kids   []*node
	parent *node
	text   []byte // character data, kept for <text> only
	off    int    // byte offset of the start tag in the source
}

type attr struct{ name, value string }

func (n *node) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// known lists the elements the package draws or knows to be harmless.
var known = map[string]bool{
	"svg": true, "g": true, "defs": true, "pattern": true,
	"rect": true, "circle": true, "ellipse": true, "line": true,
	"polyline": true, "polygon": true, "path": true, "text": true,
}

// skipped elements are dropped with everything inside them.
var skipped = map[string]bool{"title": true, "desc": true, "metadata": true, "script": true}

// posError formats an error at a byte offset of src.
func posError(src []byte, off int, format string, args ...any) error {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	return fmt.Errorf("raster: line %d, offset %d: %s", line, off, fmt.Sprintf(format, args...))
}

// parse reads the document into a tree. Every element must be known (see
// known and skipped); the root must be <svg>.
func parse(src []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	var stack []*node
	var root *node
	skip := 0 // depth inside a skipped element
	for {
		off := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, posError(src, int(d.InputOffset()), "XML syntax error: %s", se.Msg)
			}
			return nil, posError(src, int(d.InputOffset()), "XML error: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 {
				skip++
				continue
			}
			name := t.Name.Local
			if t.Name.Space != "" && t.Name.Space != svgNS {
				return nil, posError(src, off, "<%s> in namespace %q is not supported", name, t.Name.Space)
			}
			if root != nil && len(stack) == 0 {
				return nil, posError(src, off, "<%s> after the root element", name)
			}
			if root == nil && name != "svg" {
				return nil, posError(src, off, "the root element is <%s>, not <svg>", name)
			}
			if skipped[name] {
				skip = 1
				continue
			}
			if len(stack) > 0 && stack[len(stack)-1].name == "text" {
				return nil, posError(src, off, "<%s> inside <text> is not supported", name)
			}
			if !known[name] {
				return nil, posError(src, off, "<%s> is not supported", name)
			}
			if len(stack) >= maxDepth {
				return nil, posError(src, off, "elements nest deeper than %d", maxDepth)
			}
			n := &node{name: name, off: off}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				key := a.Name.Local
				if a.Name.Space != "" {
					key = a.Name.Space + ":" + key
				}
				n.attrs = append(n.attrs, attr{key, a.Value})
			}
			if len(stack) > 0 {
				n.parent = stack[len(stack)-1]
				n.parent.kids = append(n.parent.kids, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if skip == 0 && len(stack) > 0 && stack[len(stack)-1].name == "text" {
				top := stack[len(stack)-1]
				top.text = append(top.text, t...)
			}
		}
	}
	if root == nil {
		return nil, posError(src, len(src), "no <svg> element")
	}
	return root, nil
}

// describe renders an element with one of its attributes for error
// messages: <path d="M 0 0 X">, shortened when long.
func describe(n *node, attrName string) string {
	if attrName == "" {
		return "<" + n.name + ">"
	}
	v, _ := n.attr(attrName)
	return "<" + n.name + " " + attrName + `="` + abbreviate(v, 60) + `">`
}

func abbreviate(s string, max int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "…"
}
