// Package session runs notebook cells in a Go interpreter (yaegi) that keeps
// its definitions from cell to cell.
//
// It turns the interpreter into what a notebook user expects: a cell may mix
// imports, declarations and statements; a later cell may redefine a
// function, a type, a method or a variable; the value of a final expression
// is the cell's result; a panic, an interpreter failure or an interrupt ends
// the cell with an error that names the cell line, and never the session.
//
// A Session is the kernel's Interpreter (kernel.Interpreter). Before the
// interpreter sees a cell, go/types checks it against the earlier cells'
// definitions and the interpreter's own symbol tables (check.go,
// importer.go): compile errors are Go's, with exact positions; the types
// decide what the cell's result is and drive completion and inspection.
// After each cell, what the interpreter keeps and no code can reach is
// given back (release.go), so a session's memory follows what its cells
// hold. Everything a cell sees is set up here: the symbol tables, the
// display and sdk.Context bindings, os.Stdout and os.Stderr, the guard of
// go statements.
package session

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"superstep/display"
	"superstep/kernel"
	"superstep/kernel/cell"
	"superstep/sdk/mpijob"
	"superstep/sdk/symbols"
)

// Options configure a session.
type Options struct {
	// Stdin serves fmt.Scan* and os.Stdin reads in cells.
	Stdin io.Reader
	// Stdout and Stderr receive what cells print through fmt, log and os.
	Stdout, Stderr io.Writer
	// Symbols are the compiled packages cells may import, beyond the
	// standard library. Later tables override earlier ones symbol by symbol,
	// which is how a kernel binds display functions to its own output.
	Symbols []interp.Exports
	// Preload lists import paths imported before the first cell.
	Preload []string
	// GoroutinePanic receives a panic recovered in a goroutine that a cell
	// started with a go statement.
	GoroutinePanic func(cell int, value any)
	// Display receives what cells show with the display package's
	// functions; nil leaves them writing text to standard output.
	Display display.Sink
}

// Session is one interpreter and what the kernel knows of the cells it ran.
type Session struct {
	opts   Options
	interp *interp.Interpreter
	stderr *panicFilter
	// line is the cell line of the top-level statement running now.
	line    atomic.Int64
	markers []cell.Marker

	checker  *checker
	releaser *cellReleaser // gives back what the interpreter keeps of each cell

	ctxMu sync.Mutex
	ctx   context.Context // the running cell's, for sdk.Context

	mu      sync.Mutex
	imports map[string]string // name → import path
	names   map[string]bool   // identifiers defined by cells
	types   map[string]string // type name → its latest declaration source
	methods map[string]map[string]string
	// shipped are the cells' declarations as written and typeOf the
	// interpreter's type of each declared type, for shipping a program
	// to MPI ranks (ship.go).
	shipped map[string]shipDecl
	shipSeq int
	typeOf  map[string]reflect.Type
}

// New starts an interpreter with the standard library and opts.Symbols.
func New(opts Options) (*Session, error) {
	if opts.Stdin == nil {
		opts.Stdin = strings.NewReader("")
	}
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	s := &Session{
		opts:    opts,
		stderr:  &panicFilter{w: opts.Stderr},
		imports: map[string]string{},
		names:   map[string]bool{},
		types:   map[string]string{},
		methods: map[string]map[string]string{},
		shipped: map[string]shipDecl{},
		typeOf:  map[string]reflect.Type{},
	}
	s.interp = interp.New(interp.Options{
		Stdin:  opts.Stdin,
		Stdout: opts.Stdout,
		Stderr: s.stderr,
		Env:    os.Environ(),
	})
	if err := s.interp.Use(stdlib.Symbols); err != nil {
		return nil, fmt.Errorf("loading the standard library symbols: %w", err)
	}
	tables := []interp.Exports{stdlib.Symbols, stdio(opts)}
	tables = append(tables, opts.Symbols...)
	tables = append(tables, s.bindings(tables))
	for _, syms := range tables[1:] {
		if err := s.interp.Use(syms); err != nil {
			return nil, fmt.Errorf("loading SDK symbols: %w", err)
		}
	}
	s.checker = newChecker(newSymbolImporter(tables))
	s.releaser = newCellReleaser()
	guard := interp.Exports{cell.GuardPackage + "/cellguard": {
		"Report": reflect.ValueOf(func(cellNumber int, v any) {
			if s.opts.GoroutinePanic != nil {
				s.opts.GoroutinePanic(cellNumber, v)
			}
		}),
		"Line": reflect.ValueOf(func(line int) { s.line.Store(int64(line)) }),
	}}
	if err := s.interp.Use(guard); err != nil {
		return nil, err
	}
	imports := []string{fmt.Sprintf("%s %q", cell.GuardName, cell.GuardPackage)}
	for _, p := range opts.Preload {
		imports = append(imports, strconv.Quote(p))
	}
	if _, err := s.interp.Eval("import (\n" + strings.Join(imports, "\n") + "\n)"); err != nil {
		return nil, fmt.Errorf("preloading %v: %w", opts.Preload, err)
	}
	for _, p := range opts.Preload {
		s.imports[p[strings.LastIndex(p, "/")+1:]] = p
	}
	return s, nil
}

// Error is a cell that failed: a syntax or compile error, a panic, an
// interpreter failure or an interrupt. Line is the cell line (0 if unknown).
type Error = kernel.CellError

// Result is what a cell evaluated to.
type Result struct {
	// Value is the final expression's value; valid only if Shown. For a
	// final call with several results it is the first of Values.
	Value reflect.Value
	Shown bool
	// Values are all the values of the final expression (one, or the
	// results of a call with several).
	Values []reflect.Value
}

// Eval runs one cell. cellNumber labels goroutines the cell starts, for
// their panic reports. Cancelling ctx interrupts the cell.
func (s *Session) Eval(ctx context.Context, code string, cellNumber int) (res Result, err error) {
	// Runs last: after the error is explained and the checker committed,
	// the interpreter's leftovers of this cell are released.
	defer s.releaseAfterCell(ctx)
	s.setCellContext(mpijob.WithNamer(mpijob.WithShipper(ctx, s.shipProgram), s.programType))
	defer s.clearCellContext()
	sp, perr := cell.Parse(code)
	if perr != nil {
		var se *cell.SyntaxError
		if errors.As(perr, &se) {
			return res, s.withSource(&Error{Kind: "syntax error", Line: se.Line, Col: se.Col, Msg: se.Msg}, code)
		}
		return res, &Error{Kind: "syntax error", Msg: perr.Error()}
	}
	s.mu.Lock()
	imports := make(map[string]string, len(s.imports))
	for n, p := range s.imports {
		imports[n] = p
	}
	methods := make(map[string]map[string]string, len(s.methods))
	for t, ms := range s.methods {
		methods[t] = ms
	}
	s.mu.Unlock()
	checked, cerr := s.checker.check(imports, sp, code, methods)
	if cerr != nil {
		return res, s.withSource(cerr, code)
	}
	defer func() {
		if err != nil {
			err = s.withSource(s.explain(err, code), code)
		}
		// What ran is defined in the interpreter: carry its types on,
		// unless the interpreter refused the cell.
		var e *Error
		if err == nil || (errors.As(err, &e) && e.Kind != "compile error" && e.Kind != "syntax error") {
			s.checker.commit(checked)
		}
	}()
	if sp.HasImports {
		src, any := s.newImports(sp.Imports)
		if any {
			if _, err := s.run(ctx, src); err != nil {
				return res, err
			}
		}
		for name, path := range sp.ImportPaths {
			s.mu.Lock()
			s.imports[name] = path
			s.mu.Unlock()
		}
	}
	if sp.HasDecls {
		decls, err := cell.RewriteGo(sp.Decls, false, cellNumber)
		if err != nil {
			return res, err
		}
		if err := s.prepareRedefinitions(ctx, decls); err != nil {
			return res, err
		}
		if _, err := s.run(ctx, decls); err != nil {
			return res, err
		}
		s.recordDecls(decls)
		s.recordShipDecls(sp.Decls)
	}
	if sp.HasStmts {
		// The result assignment goes in first: sp's offsets are those of
		// the cell's own text, which the rewrites below move.
		stmts := sp.Stmts
		show, multi := s.resultShape(sp, checked)
		if multi > 1 {
			stmts = assignResults(stmts, sp, multi)
		}
		stmts, err := cell.RewriteGo(stmts, true, cellNumber)
		if err != nil {
			return res, err
		}
		if stmts, err = cell.WrapBlocks(stmts); err != nil {
			return res, err
		}
		stmts, s.markers = cell.MarkStatements(stmts)
		defer func() { s.markers = nil }()
		v, err := s.run(ctx, stmts)
		if err != nil {
			return res, err
		}
		switch {
		case multi > 1:
			vals, err := s.readResults(ctx, multi)
			if err != nil {
				return res, err
			}
			res = Result{Value: vals[0], Shown: true, Values: vals}
		case show && v.IsValid() && !isNilError(v, checked):
			res = Result{Value: v, Shown: true, Values: []reflect.Value{v}}
		}
	}
	s.mu.Lock()
	for _, n := range sp.Names {
		s.names[n] = true
	}
	s.mu.Unlock()
	return res, nil
}

// run evaluates one part of a cell. The part starts with a newline so that
// the interpreter's positions are cell positions plus one line, and any
// panic of the interpreter itself becomes an error.
func (s *Session) run(ctx context.Context, part string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = interp.Panic{Value: r}
		}
	}()
	s.stderr.reset()
	s.line.Store(0)
	return s.interp.EvalWithContext(ctx, "\n"+part)
}

// newImports drops the import specs the session already has (the
// interpreter refuses a second identical import).
func (s *Session) newImports(part string) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell", "package main\n"+part, parser.ImportsOnly)
	if err != nil {
		return part, true
	}
	b := []byte(part)
	kept := 0
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if s.imports[name] == path {
			start := fset.Position(imp.Pos()).Offset - len("package main\n")
			end := fset.Position(imp.End()).Offset - len("package main\n")
			for i := start; i < end; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			continue
		}
		kept++
	}
	return string(b), kept > 0
}

// declInfo is what a declarations part defines: types and methods, with the
// source of each.
type declInfo struct {
	types   map[string]string
	methods map[string]map[string]string // receiver type → method → source
}

func parseDecls(part string) declInfo {
	info := declInfo{types: map[string]string{}, methods: map[string]map[string]string{}}
	fset := token.NewFileSet()
	const prefix = "package main\n"
	f, err := parser.ParseFile(fset, "cell", prefix+part, parser.SkipObjectResolution)
	if err != nil {
		return info
	}
	text := func(n ast.Node) string {
		return part[fset.Position(n.Pos()).Offset-len(prefix) : fset.Position(n.End()).Offset-len(prefix)]
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				info.types[ts.Name.Name] = "type " + text(ts)
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				continue
			}
			recv := receiverType(d.Recv.List[0].Type)
			if recv == "" {
				continue
			}
			if info.methods[recv] == nil {
				info.methods[recv] = map[string]string{}
			}
			info.methods[recv][d.Name.Name] = text(d)
		}
	}
	return info
}

func receiverType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return receiverType(t.X)
	case *ast.IndexListExpr:
		return receiverType(t.X)
	}
	return ""
}

// prepareRedefinitions makes the interpreter accept a cell that redefines a
// type or a method. yaegi v0.16.1 silently keeps the first definition of a
// type and of a method, so the type is forgotten and declared afresh; its
// methods from earlier cells are declared again unless this cell redefines
// them. Values made with the old type keep the old type, as in Python.
func (s *Session) prepareRedefinitions(ctx context.Context, decls string) error {
	info := parseDecls(decls)
	s.mu.Lock()
	defer s.mu.Unlock()
	redo := map[string]bool{}
	for name := range info.types {
		if _, ok := s.types[name]; ok {
			redo[name] = true
		}
	}
	for recv, ms := range info.methods {
		for m := range ms {
			if _, ok := s.methods[recv][m]; ok && s.types[recv] != "" {
				redo[recv] = true
			}
		}
	}
	for name := range redo {
		if err := forgetType(s.interp, name); err != nil {
			return &Error{Kind: "interpreter error", Msg: fmt.Sprintf("cannot redefine type %s: %v", name, err)}
		}
		src := s.types[name]
		if newSrc, ok := info.types[name]; ok {
			src = newSrc
		}
		if _, err := s.interp.EvalWithContext(ctx, src); err != nil {
			return fmt.Errorf("redeclaring type %s: %w", name, err)
		}
		names := make([]string, 0, len(s.methods[name]))
		for m := range s.methods[name] {
			if _, redefined := info.methods[name][m]; !redefined {
				names = append(names, m)
			}
		}
		sort.Strings(names)
		for _, m := range names {
			if _, err := s.interp.EvalWithContext(ctx, s.methods[name][m]); err != nil {
				fmt.Fprintf(s.opts.Stderr, "note: method %s.%s from an earlier cell no longer compiles against the new %s and was dropped: %v\n", name, m, name, err)
				delete(s.methods[name], m)
			}
		}
	}
	return nil
}

func (s *Session) recordDecls(decls string) {
	info := parseDecls(decls)
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, src := range info.types {
		s.types[name] = src
	}
	for recv, ms := range info.methods {
		if s.methods[recv] == nil {
			s.methods[recv] = map[string]string{}
		}
		for m, src := range ms {
			s.methods[recv][m] = src
		}
	}
}

// forgetType deletes a type's symbol from the interpreter's package scopes,
// so that a new declaration of the same name takes effect. yaegi has no API
// for this; the scope maps are reached through reflection. Tests pin the
// behaviour to the yaegi version in go.mod.
func forgetType(in *interp.Interpreter, name string) error {
	iv := reflect.ValueOf(in).Elem()
	scopes := iv.FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return errors.New("interpreter has no scopes map (yaegi changed)")
	}
	scopes = reflect.NewAt(scopes.Type(), unsafe.Pointer(scopes.UnsafeAddr())).Elem()
	found := false
	for _, key := range scopes.MapKeys() {
		sc := scopes.MapIndex(key)
		if sc.Kind() != reflect.Pointer || sc.IsNil() {
			continue
		}
		sym := sc.Elem().FieldByName("sym")
		if !sym.IsValid() || sym.Kind() != reflect.Map {
			return errors.New("scope has no sym map (yaegi changed)")
		}
		sym = reflect.NewAt(sym.Type(), unsafe.Pointer(sym.UnsafeAddr())).Elem()
		if sym.MapIndex(reflect.ValueOf(name)).IsValid() {
			sym.SetMapIndex(reflect.ValueOf(name), reflect.Value{})
			found = true
		}
	}
	if !found {
		return fmt.Errorf("type %s not found", name)
	}
	return nil
}

var (
	posPrefix   = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): `)
	panicPosRef = regexp.MustCompile(`^\d+:\d+: panic: ([\w.]+)\(\.\.\.\)\s*$`)
)

// explain turns an interpreter error into an Error with a cell position.
func (s *Session) explain(err error, code string) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: "interrupted", Msg: "the cell was interrupted"}
	}
	var se *cell.SyntaxError
	if errors.As(err, &se) {
		return &Error{Kind: "syntax error", Line: se.Line, Col: se.Col, Msg: se.Msg}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		msg := fmt.Sprint(p.Value)
		out := &Error{Kind: "panic", Msg: msg}
		if funcs := s.stderr.frames(); len(funcs) > 0 {
			out.Line = int(s.line.Load())
			out.Msg = s.runtimeMessage(p.Value, funcs[0] == "main", out.Line, code)
			if funcs[0] != "main" {
				out.Msg += " (in " + strings.Join(funcs[:len(funcs)-1], " ← ") + ")"
			}
		} else {
			// A panic of the interpreter itself, not of the cell's code.
			out.Kind = "interpreter error"
			out.Msg = "the Go interpreter (yaegi) failed on this cell: " + msg
			if strings.Contains(code, "range") {
				out.Msg += ". yaegi does not support ranging over an integer or a function " +
					"(for i := range n); write for i := 0; i < n; i++ instead"
			}
		}
		return out
	}
	msg := err.Error()
	// scanner.ErrorList prints "(and N more errors)"; keep the first.
	if i := strings.Index(msg, " (and "); i > 0 && strings.HasSuffix(msg, " errors)") {
		msg = msg[:i]
	}
	out := &Error{Kind: "compile error", Msg: msg}
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		out.Line, _ = strconv.Atoi(m[1])
		out.Col, _ = strconv.Atoi(m[2])
		out.Line--
		out.Msg = msg[len(m[0]):]
		for _, mk := range s.markers {
			if mk.Line == out.Line && out.Col > mk.Col {
				out.Col -= mk.Len
			}
		}
	}
	if strings.HasPrefix(out.Msg, "panic: ") {
		out.Kind = "panic"
	}
	return out
}

func (s *Session) withSource(err error, code string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	lines := strings.Split(code, "\n")
	if e.Line >= 1 && e.Line <= len(lines) {
		e.Source = lines[e.Line-1]
	} else {
		e.Line = 0
	}
	return e
}

// panicFilter passes the interpreter's stderr through, except the line
// yaegi prints when a cell panics ("L:C: panic: main(...)"), whose position
// it keeps for the error report instead.
type panicFilter struct {
	w     io.Writer
	mu    sync.Mutex
	funcs []string // interpreted functions the panic went through, innermost first
}

func (f *panicFilter) Write(p []byte) (int, error) {
	if m := panicPosRef.FindSubmatch(p); m != nil && len(p) < 512 {
		f.mu.Lock()
		f.funcs = append(f.funcs, string(m[1]))
		f.mu.Unlock()
		return len(p), nil
	}
	return f.w.Write(p)
}

func (f *panicFilter) reset() {
	f.mu.Lock()
	f.funcs = nil
	f.mu.Unlock()
}

func (f *panicFilter) frames() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.funcs...)
}

// stdio binds os.Stdin, os.Stdout and os.Stderr in cells to the session's
// streams. Standard output and error keep their type, *os.File, when the
// session is given files (the kernel gives it pipes it streams to the
// front end), so code pasted from any Go program works; standard input is
// the session's reader, so that reading it asks the front end for input.
func stdio(opts Options) interp.Exports {
	syms := map[string]reflect.Value{}
	stdin := opts.Stdin
	syms["Stdin"] = reflect.ValueOf(&stdin).Elem()
	if f, ok := opts.Stdout.(*os.File); ok {
		syms["Stdout"] = reflect.ValueOf(&f).Elem()
	}
	if f, ok := opts.Stderr.(*os.File); ok {
		syms["Stderr"] = reflect.ValueOf(&f).Elem()
	}
	return interp.Exports{"os/os": syms}
}

// Preload is what every cell has imported from the start: fmt, math,
// strings and every SDK package cells can use. The README's list is
// tested against it.
func Preload() []string {
	return append([]string{"fmt", "math", "strings"}, symbols.Packages()...)
}
