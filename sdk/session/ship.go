package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strings"

	"superstep/sdk/mpijob"
)

// shipDecl is one top-level declaration of the cells, as written, kept so
// that a program declared in cells can be shipped to MPI ranks
// (sdk.RunMPI): a type, a method, a function, or a group of constants.
type shipDecl struct {
	src   string
	seq   int      // when the cells last declared it
	recv  string   // a method's receiver type
	names []string // what it defines (a method: none)
	uses  []string // identifiers it mentions, package names included
}

// recordShipDecls keeps the declarations of a cell's declarations part
// (the cell's own text, before any rewriting) and the interpreter's
// reflect type of each type it declares, by which shipProgram recognises
// a program value.
func (s *Session) recordShipDecls(part string) {
	fset := token.NewFileSet()
	const prefix = "package main\n"
	f, err := parser.ParseFile(fset, "cell", prefix+part, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	text := func(n ast.Node) string {
		return part[fset.Position(n.Pos()).Offset-len(prefix) : fset.Position(n.End()).Offset-len(prefix)]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var newTypes []string
	for _, d := range f.Decls {
		s.shipSeq++
		switch d := d.(type) {
		case *ast.GenDecl:
			switch d.Tok {
			case token.TYPE:
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					s.shipped["type "+ts.Name.Name] = shipDecl{src: "type " + text(ts), seq: s.shipSeq, names: []string{ts.Name.Name}, uses: mentions(ts)}
					newTypes = append(newTypes, ts.Name.Name)
				}
			case token.CONST:
				var names []string
				for _, spec := range d.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						names = append(names, n.Name)
					}
				}
				sd := shipDecl{src: text(d), seq: s.shipSeq, names: names, uses: mentions(d)}
				for _, n := range names {
					s.shipped["const "+n] = sd
				}
			}
		case *ast.FuncDecl:
			sd := shipDecl{src: text(d), seq: s.shipSeq, uses: mentions(d)}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				sd.recv = receiverType(d.Recv.List[0].Type)
				s.shipped["method "+sd.recv+"."+d.Name.Name] = sd
			} else {
				sd.names = []string{d.Name.Name}
				s.shipped["func "+d.Name.Name] = sd
			}
		}
	}
	for _, name := range newTypes {
		delete(s.typeOf, name)
		if t := s.reflectType(name); t != nil {
			s.typeOf[name] = t
		}
	}
}

// reflectType is the interpreter's reflect.Type for a type the cells
// declared, or nil (an interface, a generic type).
func (s *Session) reflectType(name string) (t reflect.Type) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	v, err := s.interp.Eval("*new(" + name + ")")
	if err != nil || !v.IsValid() || v.Kind() == reflect.Interface {
		return nil
	}
	return v.Type()
}

// mentions lists the identifiers n mentions, the X of every selector
// X.Sel (a package name, or a value) but not Sel.
func mentions(n ast.Node) []string {
	seen := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					seen[id.Name] = true
				}
				return true
			})
			return false
		case *ast.Ident:
			seen[n.Name] = true
		}
		return true
	})
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// programType is the session's mpijob.Namer: the name of the cell type
// that prog (or the value in the interpreter's wrapper of it) has, or ""
// when no single cell type with a Compute method has its layout. A
// program passed by value reaches compiled code through bsp.Program in a
// wrapper whose copy of the struct is not the value (yaegi 0.16): only a
// pointer (&MaxValue{}) is named.
func (s *Session) programType(prog any) string {
	rv := reflect.ValueOf(prog)
	if !rv.IsValid() {
		return ""
	}
	if t := rv.Type(); t.Kind() == reflect.Struct && t.NumField() > 0 && t.Field(0).Name == "IValue" {
		rv = rv.Field(0).Elem()
		if !rv.IsValid() {
			return ""
		}
	}
	base := rv.Type()
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	found := ""
	for name, t := range s.typeOf {
		if t == base && s.methods[name]["Compute"] != "" {
			if found != "" {
				return "" // two cell types with one layout
			}
			found = name
		}
	}
	return found
}

// shipProgram is the session's mpijob.Shipper: it finds the cell type of
// prog, gathers its declaration, all its methods and every type, function
// and constant of the cells they use, the imports those name, and prog's
// value as JSON.
func (s *Session) shipProgram(prog any) (*mpijob.Source, error) {
	rv := reflect.ValueOf(prog)
	if !rv.IsValid() {
		return nil, errors.New("no program")
	}
	if t := rv.Type(); t.Kind() == reflect.Struct && t.NumField() > 0 && t.Field(0).Name == "IValue" {
		// A value that went through an interface variable arrives in
		// the interpreter's wrapper, whose copy of a struct is not the
		// value (yaegi 0.16); a pointer survives.
		iv := rv.Field(0).Elem()
		if !iv.IsValid() || iv.Kind() != reflect.Pointer {
			return nil, errors.New("this program reached RunMPI through a variable of interface type (such as bsp.Program), through which the interpreter does not pass a value's fields: pass the value itself, as in sdk.RunMPI(ctx, graph, MyProgram{...}, opts)")
		}
		rv = iv
	}
	pointer := rv.Kind() == reflect.Pointer
	base := rv.Type()
	if pointer {
		if rv.IsNil() {
			return nil, errors.New("the program is a nil pointer")
		}
		base = base.Elem()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var candidates []string
	for name, t := range s.typeOf {
		if t == base && s.methods[name]["Compute"] != "" {
			candidates = append(candidates, name)
		}
	}
	sort.Strings(candidates)
	switch {
	case len(candidates) == 0 && base.PkgPath() != "":
		return nil, fmt.Errorf("%s is neither a built-in program nor a type declared in a cell", rv.Type())
	case len(candidates) == 0:
		return nil, fmt.Errorf("no type declared in a cell with a Compute method has the program's layout (%s)", base)
	case len(candidates) > 1:
		return nil, fmt.Errorf("the program could be a %s: the interpreter gives these types the same layout (%s), so it cannot tell which; give one a field of its own", strings.Join(candidates, " or a "), base)
	}
	name := candidates[0]

	definedBy := map[string]string{} // identifier → key in s.shipped
	methodsOf := map[string][]string{}
	for key, d := range s.shipped {
		for _, n := range d.names {
			definedBy[n] = key
		}
		if d.recv != "" {
			m := key[strings.LastIndex(key, ".")+1:]
			if s.methods[d.recv][m] != "" { // a method dropped on redefinition is gone
				methodsOf[d.recv] = append(methodsOf[d.recv], key)
			}
		}
	}
	keep := map[string]bool{}
	imports := map[string]string{}
	var work []string
	add := func(key string) {
		if !keep[key] {
			keep[key] = true
			work = append(work, key)
		}
	}
	add("type " + name)
	for len(work) > 0 {
		key := work[len(work)-1]
		work = work[:len(work)-1]
		d := s.shipped[key]
		for _, n := range d.names {
			for _, m := range methodsOf[n] {
				add(m)
			}
		}
		for _, id := range d.uses {
			if k, ok := definedBy[id]; ok {
				add(k)
			} else if path, ok := s.imports[id]; ok {
				imports[id] = path
			}
		}
	}
	decls := make([]shipDecl, 0, len(keep))
	seen := map[int]bool{} // a constant group is one declaration
	for key := range keep {
		if d := s.shipped[key]; !seen[d.seq] {
			seen[d.seq] = true
			decls = append(decls, d)
		}
	}
	sort.Slice(decls, func(i, j int) bool { return decls[i].seq < decls[j].seq })
	var src strings.Builder
	for _, d := range decls {
		src.WriteString(d.src)
		src.WriteString("\n\n")
	}
	value := rv
	if pointer {
		value = rv.Elem()
	}
	b, err := json.Marshal(value.Interface())
	if err != nil {
		return nil, fmt.Errorf("the fields of %s cannot be shipped to the ranks as JSON: %w", name, err)
	}
	return &mpijob.Source{Imports: imports, Decls: src.String(), Type: name, Pointer: pointer, Value: b}, nil
}
