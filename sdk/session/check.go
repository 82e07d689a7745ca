package session

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"superstep/kernel/cell"
)

// checker type-checks each cell with go/types before the interpreter sees
// it, against the definitions of the earlier cells and an importer built
// from the interpreter's own symbol tables. Its errors are Go's own, with
// exact cell positions; its types say whether the cell's last expression
// has a value, and drive completion and inspection.
//
// Definitions carry from cell to cell as go/types objects: each cell is
// checked as a fresh package "main" whose scope holds the latest object of
// every name the earlier cells defined, so redefining a name is not an
// error and values keep the type they were made with, as in the
// interpreter. A method declared on a type of an earlier cell is attached
// to that type before the cell is checked, and its body is checked as a
// function of the receiver.
type checker struct {
	// home is the package of the objects carried from cell to cell (but
	// types, which keep the package of the cell that declared them): a
	// cell's own package holds every name of the session in its scope, so
	// objects must not keep it alive, or a session of n cells would keep
	// n² scope entries.
	home     *types.Package
	im       *symbolImporter
	source   types.Importer // the standard library's generic packages, from source
	objs     map[string]types.Object
	last     *types.Package // the last cell checked without error, for completion
	lastInfo *types.Info
}

// genericStd are standard packages whose generic members the
// interpreter's tables cannot hold (yaegi v0.16.1 cannot call them with
// this Go: slices.Sort is "undefined selector"). The checker types them
// from the tables, so their generic members are undefined for it too, and
// says why; a generic package missing from the tables is read from the Go
// tree.
var genericStd = map[string]bool{"cmp": true, "maps": true, "slices": true, "iter": true, "sync": true, "sync/atomic": true}

// errNoSource is an import of a generic standard package whose source the
// checker cannot read (no Go tree): the interpreter judges such a cell.
var errNoSource = errors.New("no source of the standard library")

func newChecker(im *symbolImporter) *checker {
	return &checker{im: im, objs: map[string]types.Object{}, home: types.NewPackage("main", "main")}
}

// checked is what the checker learnt of a cell.
type checked struct {
	pkg  *types.Package
	info *types.Info
	// result is the type of the cell's final expression statement: nil
	// without one, an empty tuple for a call without results, a tuple for
	// several results.
	result types.Type
	// defs are the package-level objects the cell defines, to carry to the
	// next cells once it ran.
	defs map[string]types.Object
}

// importAll imports what the importer or the Go tree can give; it reports
// the paths it cannot type.
func (c *checker) importer() types.ImporterFrom { return checkImporter{c} }

type checkImporter struct{ c *checker }

func (i checkImporter) Import(path string) (*types.Package, error) {
	return i.ImportFrom(path, "", 0)
}

func (i checkImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if i.c.im.has(path) {
		return i.c.im.Import(path)
	}
	if genericStd[path] {
		if i.c.source == nil {
			i.c.source = importer.ForCompiler(token.NewFileSet(), "source", nil)
		}
		p, err := i.c.source.Import(path)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errNoSource, err)
		}
		return p, nil
	}
	return nil, fmt.Errorf("package %q is not available to cells", path)
}

const headerPkg = "package main; "

// header is the first line of every file the checker builds: the
// package clause and the imports, so that cell line n is file line n+1.
func header(imports, skip map[string]string) string {
	names := make([]string, 0, len(imports))
	for n := range imports {
		if _, skipped := skip[n]; !skipped {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(headerPkg)
	if len(names) > 0 {
		b.WriteString("import (")
		for _, n := range names {
			fmt.Fprintf(&b, "%s %q; ", n, imports[n])
		}
		b.WriteString("); ")
	}
	return b.String()
}

// check type-checks a split cell. imports are the session's imports
// before the cell. A nil result with a nil error means the cell could not
// be checked (it uses a package the checker cannot type): the interpreter
// is the judge then.
//
// methods are the sources of methods that earlier cells declared, by
// receiver type: when the cell redeclares one of those types, its other
// methods are declared again (as the session does for the interpreter).
func (c *checker) check(imports map[string]string, sp *cell.Split, code string, methods map[string]map[string]string) (*checked, *Error) {
	fset := token.NewFileSet()
	cellImports := sp.ImportPaths
	for _, path := range cellImports {
		if !c.im.has(path) && !genericStd[path] {
			return nil, nil // let the interpreter say whether it has it
		}
	}
	// Only the imports the cell names: fewer to resolve, nothing unused.
	used := identifiers(code)
	all := map[string]string{}
	for n, p := range imports {
		if used[n] && (c.im.has(p) || genericStd[p]) {
			all[n] = p
		}
	}
	for n, p := range cellImports {
		all[n] = p
	}
	var files []*ast.File
	var declFile, stmtFile *ast.File
	if sp.HasImports || sp.HasDecls {
		src := header(all, cellImports) + "\n" + sp.ImportsAndDecls()
		f, err := parser.ParseFile(fset, "cell", src, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil // cell.Parse accepted it; leave it to the interpreter
		}
		declFile = f
		files = append(files, f)
	}
	if sp.HasStmts {
		src := header(all, nil) + "func _() {\n" + sp.Stmts + "\n}"
		f, err := parser.ParseFile(fset, "cell", src, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil
		}
		stmtFile = f
		files = append(files, f)
	}
	if len(files) == 0 {
		return &checked{defs: map[string]types.Object{}}, nil
	}
	if declFile != nil {
		if src := earlierMethods(declFile, methods); src != "" {
			ids := identifiers(src)
			theirs := map[string]string{}
			for n, p := range imports {
				if ids[n] && (c.im.has(p) || genericStd[p]) {
					theirs[n] = p
				}
			}
			f, err := parser.ParseFile(fset, "earlier", header(theirs, nil)+"\n"+src, parser.SkipObjectResolution)
			if err == nil {
				files = append(files, f)
			}
		}
	}
	if usesUntyped(files, imports, c) {
		return nil, nil
	}

	pkg := types.NewPackage("main", "main")
	declared := map[string]bool{}
	if declFile != nil {
		for _, d := range declFile.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = true
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = true
				}
			}
		}
	}
	for name, obj := range c.objs {
		if !declared[name] {
			pkg.Scope().Insert(obj)
		}
	}
	// Methods on types of earlier cells: attach them first (their
	// signature checked on its own), then check their bodies as functions
	// of the receiver.
	var firstErr *Error
	if declFile != nil && !c.attachMethods(fset, pkg, declFile, all) {
		return nil, nil // a method signature the checker cannot resolve alone
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	var errs []types.Error
	conf := types.Config{
		Importer: c.importer(),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errs = append(errs, te)
			}
		},
	}
	checker := types.NewChecker(&conf, fset, pkg, info)
	_ = checker.Files(files)

	var topExprs map[ast.Expr]bool
	var body []ast.Stmt
	if stmtFile != nil {
		body = stmtFile.Decls[len(stmtFile.Decls)-1].(*ast.FuncDecl).Body.List
		topExprs = map[ast.Expr]bool{}
		for _, st := range body {
			if es, ok := st.(*ast.ExprStmt); ok {
				topExprs[es.X] = true
			}
		}
	}
	for _, e := range errs {
		if strings.Contains(e.Msg, errNoSource.Error()) {
			return nil, nil
		}
	}
	if firstErr == nil {
		firstErr = c.firstError(fset, errs, info, topExprs, code)
	}

	if firstErr == nil && stmtFile != nil {
		firstErr = unsupportedRange(fset, stmtFile, info, code)
	}
	if firstErr == nil && declFile != nil {
		firstErr = unsupportedRange(fset, declFile, info, code)
	}
	if firstErr != nil {
		return nil, firstErr
	}

	out := &checked{pkg: pkg, info: info, defs: map[string]types.Object{}}
	if declFile != nil {
		for name := range declared {
			if obj := pkg.Scope().Lookup(name); obj != nil {
				out.defs[name] = c.rehome(obj)
			}
		}
	}
	for _, st := range body {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			if v, ok := info.Defs[id].(*types.Var); ok && v != nil {
				out.defs[id.Name] = types.NewVar(token.NoPos, c.home, id.Name, v.Type())
			}
		}
	}
	if sp.ShowsResult && len(body) > 0 {
		if es, ok := body[len(body)-1].(*ast.ExprStmt); ok {
			if tv, ok := info.Types[es.X]; ok {
				out.result = tv.Type
				if tv.IsVoid() {
					out.result = types.NewTuple()
				}
			}
		}
	}
	return out, nil
}

// rehome copies a cell's object into the home package, but a type, whose
// identity is its object.
func (c *checker) rehome(obj types.Object) types.Object {
	switch o := obj.(type) {
	case *types.Var:
		return types.NewVar(token.NoPos, c.home, o.Name(), o.Type())
	case *types.Const:
		return types.NewConst(token.NoPos, c.home, o.Name(), o.Type(), o.Val())
	case *types.Func:
		return types.NewFunc(token.NoPos, c.home, o.Name(), o.Type().(*types.Signature))
	}
	return obj
}

// commit carries a cell's definitions to the next cells.
func (c *checker) commit(ch *checked) {
	if ch == nil {
		return
	}
	for name, obj := range ch.defs {
		if obj.Parent() == nil {
			// A scope of its own, so that inserting it into the next
			// cell's package does not make that package's scope (every
			// name of the session) its parent, kept alive by it.
			types.NewScope(nil, token.NoPos, token.NoPos, "").Insert(obj)
		}
		c.objs[name] = obj
	}
	if ch.pkg != nil {
		c.last, c.lastInfo = ch.pkg, ch.info
	}
}

// usesUntyped reports whether the cell refers to a session import the
// checker cannot type (a package the interpreter compiles from source).
func usesUntyped(files []*ast.File, imports map[string]string, c *checker) bool {
	untyped := map[string]bool{}
	for n, p := range imports {
		if !c.im.has(p) && !genericStd[p] {
			untyped[n] = true
		}
	}
	if len(untyped) == 0 {
		return false
	}
	found := false
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && untyped[id.Name] {
				found = true
			}
			return !found
		})
	}
	return found
}

// attachMethods adds the methods a cell declares on types of earlier cells
// to those types, and turns each such declaration into a function of its
// receiver so that its body is checked in place. It reports false when a
// method's signature does not check on its own (it names a type of the
// same cell, or is wrong): the interpreter is the judge of that cell.
func (c *checker) attachMethods(fset *token.FileSet, pkg *types.Package, f *ast.File, imports map[string]string) bool {
	local := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs {
				local[s.(*ast.TypeSpec).Name.Name] = true
			}
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		base := receiverType(fd.Recv.List[0].Type)
		if base == "" || local[base] {
			continue
		}
		tn, ok := pkg.Scope().Lookup(base).(*types.TypeName)
		if !ok {
			continue // the checker reports the unknown receiver
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		// The signature, checked as a function type expression in a
		// package of its own that sees the same objects.
		sigPkg := types.NewPackage("main", "main")
		for _, name := range pkg.Scope().Names() {
			sigPkg.Scope().Insert(pkg.Scope().Lookup(name))
		}
		recvField := fd.Recv.List[0]
		// The receiver goes first; named if the parameters are (Go
		// refuses a list of named and unnamed parameters).
		recvParam := &ast.Field{Type: recvField.Type}
		if ps := fieldList(fd.Type.Params); len(ps) > 0 && len(ps[0].Names) > 0 {
			recvParam.Names = []*ast.Ident{ast.NewIdent("_")}
		}
		ft := &ast.FuncType{Params: &ast.FieldList{List: append([]*ast.Field{recvParam}, fieldList(fd.Type.Params)...)}, Results: fd.Type.Results}
		sigOK := true
		sigInfo := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		sigFile := &ast.File{Name: ast.NewIdent("main"), Decls: []ast.Decl{
			importDecl(imports),
			&ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent("_")}, Type: ft}}},
		}}
		conf := types.Config{Importer: c.importer(), Error: func(err error) {
			if te, ok := err.(types.Error); ok && !te.Soft {
				sigOK = false
			}
		}}
		_ = types.NewChecker(&conf, fset, sigPkg, sigInfo).Files([]*ast.File{sigFile})
		if !sigOK {
			return false
		}
		tv, ok := sigInfo.Types[ft]
		if !ok {
			continue
		}
		full := tv.Type.(*types.Signature)
		recvType := full.Params().At(0).Type()
		var params []*types.Var
		for i := 1; i < full.Params().Len(); i++ {
			params = append(params, full.Params().At(i))
		}
		recv := types.NewVar(token.NoPos, tn.Pkg(), "", recvType)
		sig := types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), full.Results(), full.Variadic())
		named.AddMethod(types.NewFunc(fd.Name.Pos(), tn.Pkg(), fd.Name.Name, sig))
		// Check the body as func _M(recv T, params...) results.
		name := "_"
		if len(recvField.Names) > 0 {
			name = recvField.Names[0].Name
		}
		fd.Type.Params = &ast.FieldList{Opening: fd.Type.Params.Opening, Closing: fd.Type.Params.Closing,
			List: append([]*ast.Field{{Names: []*ast.Ident{ast.NewIdent(name)}, Type: recvField.Type}}, fieldList(fd.Type.Params)...)}
		fd.Recv = nil
		fd.Name = &ast.Ident{NamePos: fd.Name.NamePos, Name: "_"}
	}
	return true
}

func fieldList(l *ast.FieldList) []*ast.Field {
	if l == nil {
		return nil
	}
	return l.List
}

func importDecl(imports map[string]string) *ast.GenDecl {
	d := &ast.GenDecl{Tok: token.IMPORT, Lparen: 1}
	names := make([]string, 0, len(imports))
	for n := range imports {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d.Specs = append(d.Specs, &ast.ImportSpec{Name: ast.NewIdent(n), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(imports[n])}})
	}
	return d
}

// firstError picks the error to report: the first by position among the
// hard errors in the cell, leaving out what a notebook allows (a variable
// or import not used, an expression statement whose value is dropped).
func (c *checker) firstError(fset *token.FileSet, errs []types.Error, info *types.Info, topExprs map[ast.Expr]bool, code string) *Error {
	var kept []types.Error
	for _, e := range errs {
		pos := fset.Position(e.Pos)
		if pos.Line <= 1 || pos.Filename != "cell" {
			continue // the header (session imports) or earlier cells' methods, not the user's text
		}
		if strings.HasPrefix(e.Msg, "implicit assignment to unexported field") && strings.Contains(e.Msg, " of type main.") {
			continue // a type of an earlier cell: the same package for the interpreter
		}
		if e.Soft && (strings.Contains(e.Msg, "declared and not used") || strings.Contains(e.Msg, "imported and not used") || strings.HasPrefix(e.Msg, "declared and not used")) {
			continue
		}
		if strings.HasSuffix(e.Msg, "is not used") && isTopExpr(fset, e.Pos, topExprs) {
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 {
		return nil
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := fset.Position(kept[i].Pos), fset.Position(kept[j].Pos)
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	e := kept[0]
	return positioned(fset, e.Pos, c.explainMsg(e.Msg), code)
}

func isTopExpr(fset *token.FileSet, pos token.Pos, top map[ast.Expr]bool) bool {
	for x := range top {
		if x.Pos() <= pos && pos < x.End() {
			return true
		}
	}
	return false
}

// positioned makes a compile error at a checker position: file line n+1
// is cell line n; the column counts characters (a tab is one).
func positioned(fset *token.FileSet, pos token.Pos, msg, code string) *Error {
	p := fset.Position(pos)
	e := &Error{Kind: "compile error", Msg: msg, Line: p.Line - 1}
	lines := strings.Split(code, "\n")
	if e.Line >= 1 && e.Line <= len(lines) {
		src := lines[e.Line-1]
		col := p.Column - 1
		if col > len(src) {
			col = len(src)
		}
		if col < 0 {
			col = 0
		}
		e.Col = utf8.RuneCountInString(src[:col]) + 1
	} else {
		e.Line = 0
	}
	return e
}

// explainMsg rewrites go/types messages that a notebook user deserves more
// from: a package used without its import, a name misspelt in a package.
func (c *checker) explainMsg(msg string) string {
	if name, ok := strings.CutPrefix(msg, "undefined: "); ok {
		if pkg, sel, ok := strings.Cut(name, "."); ok {
			return c.didYouMean(msg, pkg, sel)
		}
		if path := c.knownPackage(name); path != "" {
			return fmt.Sprintf("undefined: %s (package %s is not imported: add import %q)", name, name, path)
		}
	}
	return msg
}

// knownPackage finds an importable package whose name is name, preferring
// the SDK and then the shortest path.
func (c *checker) knownPackage(name string) string {
	best := ""
	for path, n := range c.im.names {
		if n != name {
			continue
		}
		if best == "" || (strings.HasPrefix(path, "superstep/") && !strings.HasPrefix(best, "superstep/")) ||
			(strings.HasPrefix(path, "superstep/") == strings.HasPrefix(best, "superstep/") && len(path) < len(best)) {
			best = path
		}
	}
	if best == "" && genericStd[name] {
		best = name
	}
	return best
}

// didYouMean adds the closest exported name of a package to an
// "undefined: pkg.Name" message, when one is close.
func (c *checker) didYouMean(msg, pkgName, sel string) string {
	var path string
	for p, n := range c.im.names {
		if n == pkgName {
			if path == "" || strings.HasPrefix(p, "superstep/") {
				path = p
			}
		}
	}
	if path == "" {
		return msg
	}
	if genericStd[path] && c.inGoTree(path, sel) {
		return fmt.Sprintf("%s (%s.%s is generic: the interpreter (yaegi) cannot call the standard library's generic functions and types; use sort.Slice, a loop, or a non-generic equivalent)", msg, pkgName, sel)
	}
	best, bestD := "", 1<<30
	lsel := strings.ToLower(sel)
	for n := range c.im.tables[path] {
		if strings.HasPrefix(n, "_") || !token.IsExported(n) {
			continue
		}
		ln := strings.ToLower(n)
		d := editDistance(ln, lsel)
		if len(ln) >= 4 && (strings.Contains(lsel, ln) || strings.Contains(ln, lsel)) {
			d = min(d, 1) // ConnectedComponents for Components
		}
		if d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	limit := max(2, len(sel)/3)
	if best != "" && bestD <= limit {
		return fmt.Sprintf("%s (no %s in package %s; did you mean %s.%s?)", msg, sel, pkgName, pkgName, best)
	}
	return fmt.Sprintf("%s (package %s has no exported name %s)", msg, pkgName, sel)
}

// inGoTree reports whether the Go tree's package path has an exported
// name: false without a Go tree.
func (c *checker) inGoTree(path, name string) bool {
	if c.source == nil {
		c.source = importer.ForCompiler(token.NewFileSet(), "source", nil)
	}
	p, err := c.source.Import(path)
	return err == nil && p.Scope().Lookup(name) != nil
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// unsupportedRange reports a range over an integer or a function, which
// Go allows and the interpreter (yaegi v0.16.1) does not.
func unsupportedRange(fset *token.FileSet, f *ast.File, info *types.Info, code string) *Error {
	var found *Error
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		r, ok := n.(*ast.RangeStmt)
		if !ok {
			return true
		}
		tv, ok := info.Types[r.X]
		if !ok || tv.Type == nil {
			return true
		}
		switch u := tv.Type.Underlying().(type) {
		case *types.Basic:
			if u.Info()&types.IsInteger != 0 {
				found = positioned(fset, r.Pos(), fmt.Sprintf("range over an integer (%s) is not supported by the interpreter (yaegi): write for i := 0; i < n; i++", exprString(r.X)), code)
			}
		case *types.Signature:
			found = positioned(fset, r.Pos(), fmt.Sprintf("range over a function (%s) is not supported by the interpreter (yaegi): call it with a yield function instead", exprString(r.X)), code)
		}
		return true
	})
	return found
}

func exprString(e ast.Expr) string { return types.ExprString(e) }

// earlierMethods is the source of the methods earlier cells declared on
// the types a declarations file redeclares, less those it redeclares too.
func earlierMethods(f *ast.File, methods map[string]map[string]string) string {
	redeclared := map[string]bool{}
	own := map[string]map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				for _, s := range d.Specs {
					redeclared[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				r := receiverType(d.Recv.List[0].Type)
				if own[r] == nil {
					own[r] = map[string]bool{}
				}
				own[r][d.Name.Name] = true
			}
		}
	}
	var b strings.Builder
	var names []string
	for t := range redeclared {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		var ms []string
		for m := range methods[t] {
			if !own[t][m] {
				ms = append(ms, m)
			}
		}
		sort.Strings(ms)
		for _, m := range ms {
			b.WriteString(methods[t][m])
			b.WriteString("\n")
		}
	}
	return b.String()
}

// identifiers is the set of identifiers in a cell's source.
func identifiers(code string) map[string]bool {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("cell", -1, len(code)), []byte(code), nil, 0)
	ids := map[string]bool{}
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return ids
		}
		if tok == token.IDENT {
			ids[lit] = true
		}
	}
}
