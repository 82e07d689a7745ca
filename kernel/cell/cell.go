// Package cell prepares a notebook cell's Go source for the interpreter.
//
// A cell may mix imports, declarations and statements, which Go itself never
// allows in one place and the interpreter evaluates separately. Split sorts
// the top-level parts of a cell into those three groups without moving any
// line, so an error's line number is the line the user sees. It also decides
// whether a cell is complete (for the console's is_complete), finds the names
// a cell defines (for completion), and rewrites go statements so that a panic
// in a goroutine the cell started is reported instead of killing the kernel.
package cell

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// Split is a cell's source sorted into what the interpreter evaluates in
// turn. Each part has the cell's length and line structure, with the lines
// and columns of the other parts blanked, so positions map one to one.
type Split struct {
	Imports string // import declarations
	Decls   string // type, func, method, var and const declarations
	Stmts   string // statements, in cell order

	HasImports, HasDecls, HasStmts bool

	// ShowsResult is true when the cell ends with an expression statement
	// whose value should become the cell's result (not a print call).
	ShowsResult bool
	// ResultStart and ResultEnd are the byte offsets in Stmts of that
	// final expression, when ShowsResult.
	ResultStart, ResultEnd int

	// ImportPaths maps the name each import binds to its path.
	ImportPaths map[string]string
	// Names are the identifiers the cell declares at top level.
	Names []string
}

// SyntaxError is a syntax error at a position of the cell (1-based).
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg) }

type kind int

const (
	kindStmt kind = iota
	kindImport
	kindDecl
)

type tok struct {
	off int
	tok token.Token
	lit string
}

type segment struct {
	start, end int // byte offsets in the cell, end exclusive
	kind       kind
}

// segments cuts the cell into its top-level statements and declarations.
// It returns an error for a token the scanner rejects.
func segments(src string) ([]segment, error) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var scanErr *SyntaxError
	s.Init(file, []byte(src), func(pos token.Position, msg string) {
		if scanErr == nil {
			scanErr = &SyntaxError{Line: pos.Line, Col: pos.Column, Msg: msg}
		}
	}, 0)
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{file.Offset(pos), t, lit})
	}
	if scanErr != nil {
		return nil, scanErr
	}
	var segs []segment
	depth := 0
	start := -1
	var first []tok
	flush := func(end int) {
		if start < 0 {
			return
		}
		k := kindStmt
		switch first[0].tok {
		case token.IMPORT:
			k = kindImport
		case token.TYPE, token.VAR, token.CONST:
			k = kindDecl
		case token.FUNC:
			if isFuncDecl(first) {
				k = kindDecl
			}
		}
		segs = append(segs, segment{start, end, k})
		start = -1
		first = nil
	}
	inHeader := false // between for/if/switch and its block, where ';' does not end a statement
	for _, t := range toks {
		switch t.tok {
		case token.FOR, token.IF, token.SWITCH:
			if depth == 0 {
				inHeader = true
			}
		case token.LBRACE:
			if depth == 0 {
				inHeader = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		}
		if depth == 0 && t.tok == token.SEMICOLON && !inHeader {
			flush(t.off)
			continue
		}
		if start < 0 {
			start = t.off
		}
		if len(first) < 64 {
			first = append(first, t)
		}
	}
	flush(len(src))
	return segs, nil
}

// isFuncDecl tells a function or method declaration from a statement that
// starts with a function literal, from the segment's first tokens.
func isFuncDecl(toks []tok) bool {
	if len(toks) < 2 {
		return false
	}
	if toks[1].tok == token.IDENT {
		return true // func name(
	}
	if toks[1].tok != token.LPAREN {
		return false
	}
	// func (recv T) Name( is a method; func(...) ... { is a literal.
	depth := 0
	for i := 1; i < len(toks); i++ {
		switch toks[i].tok {
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK:
			depth--
			if depth == 0 {
				return i+2 < len(toks) && toks[i+1].tok == token.IDENT &&
					(toks[i+2].tok == token.LPAREN || toks[i+2].tok == token.LBRACK)
			}
		}
	}
	return false
}

// blankExcept returns src with every byte outside the kept segments replaced
// by a space, newlines kept.
func blankExcept(src string, segs []segment, keep kind) (string, bool) {
	b := []byte(src)
	for i := range b {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	any := false
	for _, s := range segs {
		if s.kind == keep {
			copy(b[s.start:s.end], src[s.start:s.end])
			any = true
		}
	}
	return strings.TrimRight(string(b), " \n\t"), any
}

const (
	filePrefix = "package main\n"
	bodyPrefix = "package main; func _() {\n"
)

// Parse splits a cell and checks its syntax.
func Parse(src string) (*Split, error) {
	segs, err := segments(src)
	if err != nil {
		return nil, err
	}
	sp := &Split{ImportPaths: map[string]string{}}
	sp.Imports, sp.HasImports = blankExcept(src, segs, kindImport)
	sp.Decls, sp.HasDecls = blankExcept(src, segs, kindDecl)
	sp.Stmts, sp.HasStmts = blankExcept(src, segs, kindStmt)

	fset := token.NewFileSet()
	if sp.HasImports || sp.HasDecls {
		f, err := parser.ParseFile(fset, "cell", filePrefix+joinParts(sp.Imports, sp.Decls), parser.SkipObjectResolution)
		if err != nil {
			return nil, syntaxError(err, 1)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.ImportSpec:
						path, _ := strconv.Unquote(spec.Path.Value)
						name := path[strings.LastIndex(path, "/")+1:]
						if spec.Name != nil {
							name = spec.Name.Name
						}
						sp.ImportPaths[name] = path
					case *ast.TypeSpec:
						sp.Names = append(sp.Names, spec.Name.Name)
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							sp.Names = append(sp.Names, n.Name)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					sp.Names = append(sp.Names, d.Name.Name)
				}
			}
		}
	}
	if sp.HasStmts {
		f, err := parser.ParseFile(fset, "cell", bodyPrefix+sp.Stmts+"\n}", parser.SkipObjectResolution)
		if err != nil {
			return nil, syntaxError(err, 1)
		}
		body := f.Decls[0].(*ast.FuncDecl).Body.List
		for _, st := range body {
			if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						sp.Names = append(sp.Names, id.Name)
					}
				}
			}
		}
		if n := len(body); n > 0 {
			if es, ok := body[n-1].(*ast.ExprStmt); ok && !isPrintCall(es.X) {
				sp.ShowsResult = true
				sp.ResultStart = fset.Position(es.X.Pos()).Offset - len(bodyPrefix)
				sp.ResultEnd = fset.Position(es.X.End()).Offset - len(bodyPrefix)
			}
		}
	}
	return sp, nil
}

// joinParts overlays two blanked parts of the same cell.
func joinParts(a, b string) string {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := []byte(a)
	for i := 0; i < len(b); i++ {
		if b[i] != ' ' && b[i] != '\n' {
			out[i] = b[i]
		}
	}
	return string(out)
}

// isPrintCall reports expressions whose value nobody wants as a result:
// calls of fmt.Print*, fmt.Fprint*, print, println, log.*, and a bare
// channel receive (written to wait, not to look at the value).
func isPrintCall(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return true
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name == "print" || fn.Name == "println"
	case *ast.SelectorExpr:
		pkg, ok := fn.X.(*ast.Ident)
		if !ok {
			return false
		}
		switch pkg.Name {
		case "fmt":
			return strings.HasPrefix(fn.Sel.Name, "Print") || strings.HasPrefix(fn.Sel.Name, "Fprint")
		case "log":
			return true
		}
	}
	return false
}

func syntaxError(err error, lineOffset int) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e := list[0]
		return &SyntaxError{Line: e.Pos.Line - lineOffset, Col: e.Pos.Column, Msg: e.Msg}
	}
	return err
}

// Completeness is the answer to is_complete.
type Completeness string

// The is_complete statuses of the Jupyter protocol.
const (
	Complete   Completeness = "complete"
	Incomplete Completeness = "incomplete"
	Invalid    Completeness = "invalid"
)

// IsComplete tells a console whether the code can run as it is, needs more
// lines (an open bracket or raw string), or can never be valid. indent is
// the suggested indentation of the next line.
func IsComplete(src string) (status Completeness, indent string) {
	if strings.TrimSpace(src) == "" {
		return Complete, ""
	}
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	depth := 0
	var errMsg string
	s.Init(file, []byte(src), func(_ token.Position, msg string) {
		if errMsg == "" {
			errMsg = msg
		}
	}, 0)
	for {
		_, t, _ := s.Scan()
		if t == token.EOF {
			break
		}
		switch t {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
	}
	if errMsg != "" {
		if strings.Contains(errMsg, "raw string literal not terminated") || strings.Contains(errMsg, "comment not terminated") {
			return Incomplete, ""
		}
		return Invalid, ""
	}
	if depth < 0 {
		return Invalid, ""
	}
	if depth > 0 {
		// Parse what is there: an error before the end means invalid.
		if _, err := Parse(src); err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && !atEnd(src, se) {
				return Invalid, ""
			}
		}
		return Incomplete, strings.Repeat("\t", depth)
	}
	if _, err := Parse(src); err != nil {
		return Invalid, ""
	}
	return Complete, ""
}

// atEnd reports whether a syntax error points at the end of the source (as
// "expected '}', found 'EOF'" does), rather than at something written.
func atEnd(src string, e *SyntaxError) bool {
	lines := strings.Split(strings.TrimRight(src, " \t\n"), "\n")
	return e.Line > len(lines) || (e.Line == len(lines) && e.Col > len(strings.TrimRight(lines[len(lines)-1], " \t"))) ||
		strings.Contains(e.Msg, "EOF")
}

// GuardPackage is the import path of the package the rewritten go
// statements call; the session provides it to the interpreter.
const GuardPackage = "superstep/kernel/cellguard"

// GuardName is the name the session imports GuardPackage under.
const GuardName = "_superstepGuard"

// RewriteGo rewrites every go statement of a part so that the goroutine
// recovers a panic and reports it through GuardName.Report(cell, value).
// Arguments are evaluated before the goroutine starts, as in Go. Each part
// is rewritten in place: lines do not move. asBody says how the part parses:
// as a function body (statements) or as declarations.
func RewriteGo(part string, asBody bool, cellNumber int) (string, error) {
	prefix, suffix := filePrefix, ""
	if asBody {
		prefix, suffix = bodyPrefix, "\n}"
	}
	counter := 0
	for iter := 0; iter < 10000; iter++ {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "cell", prefix+part+suffix, parser.SkipObjectResolution)
		if err != nil {
			return "", syntaxError(err, 1)
		}
		var gos []*ast.GoStmt
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok && !isGuarded(g) {
				gos = append(gos, g)
			}
			return true
		})
		if len(gos) == 0 {
			return part, nil
		}
		// Rewrite the innermost-last statement first so offsets of the
		// others stay valid for this round.
		sort.Slice(gos, func(i, j int) bool { return gos[i].Pos() > gos[j].Pos() })
		g := gos[0]
		off := func(p token.Pos) int { return fset.Position(p).Offset - len(prefix) }
		call := g.Call
		var binds, names []string
		args := make([]string, len(call.Args))
		for i, a := range call.Args {
			text := part[off(a.Pos()):off(a.End())]
			if _, lit := a.(*ast.BasicLit); lit {
				args[i] = text
				continue
			}
			counter++
			name := fmt.Sprintf("_ssg%d_%d", cellNumber, counter)
			names = append(names, name)
			binds = append(binds, text)
			args[i] = name
		}
		fun := part[off(call.Fun.Pos()):off(call.Fun.End())]
		callText := fun + "(" + strings.Join(args, ", ")
		if call.Ellipsis.IsValid() {
			callText += "..."
		}
		callText += ")"
		var b strings.Builder
		b.WriteString("{ ")
		if len(binds) > 0 {
			b.WriteString(strings.Join(names, ", ") + " := " + strings.Join(binds, ", ") + "; ")
		}
		fmt.Fprintf(&b, "go func() { defer func() { if r := recover(); r != nil { %s.Report(%d, r) } }(); %s }() }", GuardName, cellNumber, callText)
		part = part[:off(g.Pos())] + b.String() + part[off(g.End()):]
	}
	return "", errors.New("too many go statements to rewrite")
}

// isGuarded recognises a go statement this package already rewrote.
func isGuarded(g *ast.GoStmt) bool {
	lit, ok := g.Call.Fun.(*ast.FuncLit)
	if !ok || len(g.Call.Args) != 0 || len(lit.Body.List) == 0 {
		return false
	}
	d, ok := lit.Body.List[0].(*ast.DeferStmt)
	if !ok {
		return false
	}
	inner, ok := d.Call.Fun.(*ast.FuncLit)
	if !ok || len(inner.Body.List) != 1 {
		return false
	}
	ifs, ok := inner.Body.List[0].(*ast.IfStmt)
	if !ok || len(ifs.Body.List) != 1 {
		return false
	}
	es, ok := ifs.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == GuardName && sel.Sel.Name == "Report"
}

// Marker is a call inserted before a top-level statement so that a panic
// can be reported with the line of the statement that was running.
type Marker struct {
	Line, Col int // where the call was inserted (1-based column)
	Len       int // its length in bytes
}

// MarkStatements inserts GuardName.Line(n) before each top-level statement
// of a statements part that starts its line. Lines do not move; columns
// after a marker shift by its length (see Marker).
func MarkStatements(part string) (string, []Marker) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", bodyPrefix+part+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return part, nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	var markers []Marker
	type ins struct {
		off  int
		text string
	}
	var inserts []ins
	lastLine := 0
	for _, st := range body {
		pos := fset.Position(st.Pos())
		line := pos.Line - 1
		if line == lastLine {
			continue
		}
		lastLine = line
		text := fmt.Sprintf("%s.Line(%d); ", GuardName, line)
		inserts = append(inserts, ins{pos.Offset - len(bodyPrefix), text})
		markers = append(markers, Marker{Line: line, Col: pos.Column, Len: len(text)})
	}
	for i := len(inserts) - 1; i >= 0; i-- {
		in := inserts[i]
		part = part[:in.off] + in.text + part[in.off:]
	}
	return part, markers
}

// ImportsAndDecls is the cell's imports and declarations overlaid in one
// text with the cell's line structure, as a Go file body would hold them.
func (sp *Split) ImportsAndDecls() string { return joinParts(sp.Imports, sp.Decls) }

// WrapBlocks works around a bug of the interpreter (yaegi 0.16): in a
// block nested in a cell's top-level statements (a for, if, switch or
// plain block), a definition of several variables from one value —
// x, err := f(), v, ok := m[k] — leaves them undefined ("undefined: x").
// Inside a function the same code works, so WrapBlocks turns each
// top-level statement that holds such a definition (outside function
// literals, which are fine) into a call of a function literal,
// func() { stmt }(), in place: lines do not move. The variables it defines
// are the block's own, so nothing outside changes.
func WrapBlocks(part string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", bodyPrefix+part+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return "", syntaxError(err, 1)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	off := func(p token.Pos) int { return fset.Position(p).Offset - len(bodyPrefix) }
	var b strings.Builder
	last := 0
	for _, st := range body {
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
		default:
			continue
		}
		if !hasNestedMultiDefine(st) {
			continue
		}
		start, end := off(st.Pos()), off(st.End())
		b.WriteString(part[last:start])
		b.WriteString("func() { ")
		b.WriteString(part[start:end])
		b.WriteString(" }()")
		last = end
	}
	if last == 0 {
		return part, nil
	}
	b.WriteString(part[last:])
	return b.String(), nil
}

// hasNestedMultiDefine reports a := of several variables from one value
// inside st, not counting function literals.
func hasNestedMultiDefine(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) > 1 && len(n.Rhs) == 1 {
				found = true
			}
		}
		return !found
	})
	return found
}
