package session

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"superstep/display"
	"superstep/kernel"
	"superstep/kernel/cell"
)

var _ kernel.Interpreter = (*Session)(nil)

// helpRequest is IPython's "name?" and "name??": documentation, and with
// two question marks the source.
var helpRequest = regexp.MustCompile(`^\s*([\p{L}_][\p{L}\p{N}_.]*)\s*(\?\??)\s*$`)

// Execute implements kernel.Interpreter: it runs a cell and returns its
// result as a display bundle (nil without a result).
func (s *Session) Execute(ctx context.Context, code string, count int) (*display.Bundle, error) {
	if m := helpRequest.FindStringSubmatch(code); m != nil {
		detail := len(m[2]) - 1
		doc, found := s.Inspect(m[1], utf8.RuneCountInString(m[1]), detail)
		if !found {
			fmt.Fprintf(s.opts.Stdout, "nothing is known about %s\n", m[1])
			return nil, nil
		}
		if s.opts.Display != nil {
			return nil, s.opts.Display.Page(doc)
		}
		fmt.Fprintln(s.opts.Stdout, doc.Text())
		return nil, nil
	}
	res, err := s.Eval(ctx, code, count)
	if err != nil || !res.Shown {
		return nil, err
	}
	b := bundleOf(res.Values)
	return &b, nil
}

// IsComplete implements kernel.Interpreter.
func (s *Session) IsComplete(code string) (status, indent string) {
	st, ind := cell.IsComplete(code)
	return string(st), ind
}

// scope is a package that sees what a cell would: the session's imports
// and the definitions of the cells so far, for completion and inspection.
func (s *Session) scope() *types.Package {
	pkg := types.NewPackage("main", "main")
	s.mu.Lock()
	imports := make(map[string]string, len(s.imports))
	for n, p := range s.imports {
		imports[n] = p
	}
	s.mu.Unlock()
	imp := s.checker.importer()
	for name, path := range imports {
		if p, err := imp.Import(path); err == nil {
			pkg.Scope().Insert(types.NewPkgName(token.NoPos, pkg, name, p))
		}
	}
	for name, obj := range s.checker.objs {
		if pkg.Scope().Lookup(name) == nil {
			pkg.Scope().Insert(obj)
		}
	}
	return pkg
}

// exprBefore returns the selector chain that ends just before a dot at
// byte offset dot ("job.Profile" in "x := job.Profile.Tr"), balanced
// brackets and calls included.
func exprBefore(code string, dot int) string {
	i := dot
	depth := 0
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:i])
		switch {
		case r == ')' || r == ']' || r == '}':
			depth++
		case r == '(' || r == '[' || r == '{':
			if depth == 0 {
				return strings.TrimSpace(code[i:dot])
			}
			depth--
		case depth > 0:
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.':
		default:
			return strings.TrimSpace(code[i:dot])
		}
		i -= size
	}
	return strings.TrimSpace(code[:dot])
}

// typeOfExpr type-checks an expression in the session's scope.
func (s *Session) typeOfExpr(expr string) (types.TypeAndValue, *types.Package, bool) {
	if expr == "" {
		return types.TypeAndValue{}, nil, false
	}
	if _, err := parser.ParseExpr(expr); err != nil {
		return types.TypeAndValue{}, nil, false
	}
	pkg := s.scope()
	tv, err := types.Eval(token.NewFileSet(), pkg, token.NoPos, expr)
	if err != nil {
		return tv, pkg, false
	}
	return tv, pkg, true
}

func qualifier(pkg *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == nil || p.Path() == "main" {
			return ""
		}
		return p.Name()
	}
}

func kindOf(obj types.Object) string {
	switch o := obj.(type) {
	case *types.Func:
		if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
			return "method"
		}
		return "function"
	case *types.Var:
		if o.IsField() {
			return "field"
		}
		return "variable"
	case *types.TypeName:
		return "type"
	case *types.Const:
		return "constant"
	case *types.PkgName:
		return "module"
	case *types.Builtin:
		return "function"
	}
	return "text"
}

func signatureOf(obj types.Object, pkg *types.Package) string {
	q := qualifier(pkg)
	switch o := obj.(type) {
	case *types.Func:
		return types.TypeString(o.Type(), q)
	case *types.PkgName:
		return fmt.Sprintf("package %s (%q)", o.Name(), o.Imported().Path())
	case *types.TypeName:
		return types.TypeString(o.Type().Underlying(), q)
	case *types.Builtin:
		return "builtin"
	}
	return types.TypeString(obj.Type(), q)
}

// members lists the fields and methods reachable from a value of type t.
func members(t types.Type) []types.Object {
	seen := map[string]bool{}
	var out []types.Object
	add := func(o types.Object) {
		if !seen[o.Name()] && o.Exported() || !seen[o.Name()] && o.Pkg() != nil && o.Pkg().Path() == "main" {
			seen[o.Name()] = true
			out = append(out, o)
		}
	}
	ms := types.NewMethodSet(t)
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for i := 0; i < ms.Len(); i++ {
		add(ms.At(i).Obj())
	}
	var fields func(t types.Type, depth int)
	fields = func(t types.Type, depth int) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || depth > 3 {
			return
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			add(f)
			if f.Embedded() {
				fields(f.Type(), depth+1)
			}
		}
	}
	fields(t, 0)
	return out
}

// Complete implements kernel.Interpreter: names in scope, or the members
// of a package or of any expression's type before a dot (job.Profile.).
func (s *Session) Complete(code string, cursor int) kernel.Completion {
	off := runeOffset(code, cursor)
	_, partial, startByte := identBefore(code, off)
	res := kernel.Completion{Start: runeCount(code, startByte), End: cursor}
	seen := map[string]bool{}
	add := func(name, kind, sig string) {
		if strings.HasPrefix(name, partial) && !seen[name] && !strings.HasPrefix(name, "_") {
			seen[name] = true
			res.Matches = append(res.Matches, kernel.Match{Text: name, Kind: kind, Signature: sig})
		}
	}
	if startByte > 0 && code[startByte-1] == '.' {
		expr := exprBefore(code, startByte-1)
		tv, pkg, ok := s.typeOfExpr(expr)
		if ok && tv.IsType() {
			ok = false
		}
		if pn := s.packageNamed(expr, pkg); pn != nil {
			scope := pn.Imported().Scope()
			for _, name := range scope.Names() {
				if o := scope.Lookup(name); o.Exported() {
					add(name, kindOf(o), signatureOf(o, pkg))
				}
			}
		} else if ok {
			for _, o := range members(tv.Type) {
				add(o.Name(), kindOf(o), signatureOf(o, pkg))
			}
		}
	} else {
		pkg := s.scope()
		for _, name := range pkg.Scope().Names() {
			o := pkg.Scope().Lookup(name)
			add(name, kindOf(o), signatureOf(o, pkg))
		}
		for _, name := range types.Universe.Names() {
			o := types.Universe.Lookup(name)
			add(name, kindOf(o), signatureOf(o, pkg))
		}
		for t := token.BREAK; t <= token.VAR; t++ {
			if t.IsKeyword() {
				add(t.String(), "keyword", "")
			}
		}
	}
	sort.Slice(res.Matches, func(i, j int) bool { return res.Matches[i].Text < res.Matches[j].Text })
	return res
}

func (s *Session) packageNamed(expr string, pkg *types.Package) *types.PkgName {
	if pkg == nil || !token.IsIdentifier(expr) {
		return nil
	}
	pn, _ := pkg.Scope().Lookup(expr).(*types.PkgName)
	return pn
}

// Inspect implements kernel.Interpreter: the declaration and
// documentation of what is at cursor — a package, a package member, a
// method or field of any expression's type, a cell's variable with its
// value. Detail 1 adds the source, as name?? does.
func (s *Session) Inspect(code string, cursor, detail int) (display.Bundle, bool) {
	end := runeOffset(code, cursor)
	for end < len(code) {
		r, size := utf8.DecodeRuneInString(code[end:])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			break
		}
		end += size
	}
	_, name, start := identBefore(code, end)
	if name == "" && end > 0 && code[end-1] == '(' {
		end--
		_, name, start = identBefore(code, end)
	}
	if name == "" {
		return display.Bundle{}, false
	}
	pkg := s.scope()
	var text, docQuery string
	if start > 0 && code[start-1] == '.' {
		expr := exprBefore(code, start-1)
		if pn := s.packageNamed(expr, pkg); pn != nil {
			o := pn.Imported().Scope().Lookup(name)
			if o == nil {
				return display.Bundle{}, false
			}
			text = types.ObjectString(o, qualifier(pkg))
			docQuery = pn.Imported().Path() + "." + name
		} else {
			tv, _, ok := s.typeOfExpr(expr)
			if !ok {
				return display.Bundle{}, false
			}
			obj, _, _ := types.LookupFieldOrMethod(tv.Type, true, pkg, name)
			if obj == nil {
				return display.Bundle{}, false
			}
			text = types.ObjectString(obj, qualifier(pkg))
			if fn, ok := obj.(*types.Func); ok {
				if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
					if named := namedOf(recv.Type()); named != nil && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() != "main" {
						docQuery = named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + name
					}
				}
			} else if named := namedOf(tv.Type); named != nil && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() != "main" {
				docQuery = named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + name
			}
		}
	} else {
		o := pkg.Scope().Lookup(name)
		if o == nil {
			o = types.Universe.Lookup(name)
		}
		if o == nil {
			return display.Bundle{}, false
		}
		switch x := o.(type) {
		case *types.PkgName:
			text = fmt.Sprintf("package %s // import %q", x.Name(), x.Imported().Path())
			docQuery = x.Imported().Path()
		case *types.Var:
			text = types.ObjectString(o, qualifier(pkg))
			if v, ok := s.peek(name); ok {
				text += " = " + Plain(v)
			}
		default:
			text = types.ObjectString(o, qualifier(pkg))
			if o.Pkg() == nil {
				docQuery = "builtin." + name
			}
		}
	}
	if docQuery != "" {
		if doc := goDoc(docQuery, detail > 0); doc != "" {
			text += "\n\n" + doc
		}
	}
	return display.TextBundle(text), true
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

var _ = ast.Print
