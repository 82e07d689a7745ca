package session

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"time"
)

// leadingPos is the "L:C: " the interpreter puts before some runtime
// messages.
var leadingPos = regexp.MustCompile(`^\d+:\d+: `)

// runtimeMessage words a panic of cell code as the Go runtime would: the
// interpreter works through reflect, whose panics name reflect's methods
// ("reflect: slice index out of range") instead of what went wrong. When
// the panic is in the cell's own top-level statements at a known
// position, the index and length of a failed index expression are read
// back from the session, as Go prints them.
func (s *Session) runtimeMessage(v any, topLevel bool, line int, code string) string {
	msg := fmt.Sprint(v)
	msg = leadingPos.ReplaceAllString(msg, "")
	switch {
	case strings.HasPrefix(msg, "reflect: slice index out of range"),
		strings.HasPrefix(msg, "reflect: array index out of range"),
		strings.HasPrefix(msg, "reflect: string index out of range"),
		strings.HasPrefix(msg, "reflect.Value.Slice: slice index out of bounds"),
		strings.HasPrefix(msg, "reflect: slice length out of range"):
		if topLevel {
			if detail := s.indexDetail(line, code); detail != "" {
				return "runtime error: index out of range " + detail
			}
		}
		return "runtime error: index out of range"
	case strings.HasSuffix(msg, "on zero Value"), strings.Contains(msg, "reflect: call of reflect.Value.Elem on zero Value"),
		strings.HasPrefix(msg, "reflect: indirection through nil pointer"):
		return "runtime error: invalid memory address or nil pointer dereference"
	}
	return msg
}

// indexDetail finds the index expressions of a cell line whose operands
// are plain names or literals, evaluates them again, and words the one out
// of range as Go does: "[i] with length n". With none or several out of
// range it says nothing.
func (s *Session) indexDetail(line int, code string) string {
	if line < 1 {
		return ""
	}
	fset := token.NewFileSet()
	const prefix = "package main; func _() {\n"
	f, err := parser.ParseFile(fset, "cell", prefix+code+"\n}", parser.SkipObjectResolution)
	if err != nil {
		// mixed cells do not parse as one body; try the line alone
		return ""
	}
	// The interpreter points at the statement; of its index expressions,
	// the failed one is the one whose index is out of its range now.
	var candidates []*ast.IndexExpr
	ast.Inspect(f, func(n ast.Node) bool {
		ix, ok := n.(*ast.IndexExpr)
		if !ok {
			return true
		}
		p, e := fset.Position(ix.Pos()), fset.Position(ix.End())
		if p.Line-1 == line && p.Line == e.Line && pure(ix.X) && pure(ix.Index) {
			candidates = append(candidates, ix)
		}
		return true
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	detail := ""
	for _, ix := range candidates {
		n, err := s.interp.EvalWithContext(ctx, "len("+exprString(ix.X)+")")
		if err != nil || !n.CanInt() {
			continue
		}
		i, err := s.interp.EvalWithContext(ctx, exprString(ix.Index))
		if err != nil || !i.CanInt() {
			continue
		}
		if i.Int() < 0 || i.Int() >= n.Int() {
			if detail != "" {
				return "" // two candidates: do not guess
			}
			detail = fmt.Sprintf("[%d] with length %d", i.Int(), n.Int())
		}
	}
	return detail
}

// pure reports expressions that can be evaluated again without effect:
// names, selectors of names, literals and arithmetic on them.
func pure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.ParenExpr:
		return pure(x.X)
	case *ast.BinaryExpr:
		return pure(x.X) && pure(x.Y)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && pure(x.X)
	}
	return false
}
