package session

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// symbolImporter builds go/types packages from the interpreter's symbol
// tables, so that a cell is type-checked against exactly what the
// interpreter can call: a function, type or constant the tables lack is
// undefined for the checker too.
//
// A symbol table maps "import/path/name" to the package's exported
// symbols as reflect values, in yaegi's conventions: a nil *T is the type
// T, an addressable value is a variable, a constant.Value is an untyped
// constant, any other value is a function or a typed constant. Names that
// start with "_" are the interpreter's interface wrappers and are skipped.
//
// The importer is not safe for concurrent use.
type symbolImporter struct {
	tables map[string]map[string]reflect.Value // import path → symbols
	names  map[string]string                   // import path → package name
	pkgs   map[string]*types.Package
	filled map[string]bool
	named  map[reflect.Type]*types.Named
}

func newSymbolImporter(tables []interp.Exports) *symbolImporter {
	im := &symbolImporter{
		tables: map[string]map[string]reflect.Value{},
		names:  map[string]string{},
		pkgs:   map[string]*types.Package{},
		filled: map[string]bool{},
		named:  map[reflect.Type]*types.Named{},
	}
	for _, t := range tables {
		for key, syms := range t {
			i := strings.LastIndex(key, "/")
			if i < 0 {
				continue
			}
			path, name := key[:i], key[i+1:]
			merged := im.tables[path]
			if merged == nil {
				merged = map[string]reflect.Value{}
				im.tables[path] = merged
			}
			for n, v := range syms {
				merged[n] = v // later tables override earlier ones, as in the interpreter
			}
			im.names[path] = name
		}
	}
	return im
}

// has reports whether path is in the tables.
func (im *symbolImporter) has(path string) bool { _, ok := im.tables[path]; return ok }

// Import implements types.Importer.
func (im *symbolImporter) Import(path string) (*types.Package, error) {
	syms, ok := im.tables[path]
	if !ok {
		return nil, fmt.Errorf("package %q is not available to cells", path)
	}
	pkg := im.pkg(path)
	if im.filled[path] {
		return pkg, nil
	}
	im.filled[path] = true
	names := make([]string, 0, len(syms))
	for n := range syms {
		names = append(names, n)
	}
	sort.Strings(names)
	scope := pkg.Scope()
	for _, name := range names {
		if strings.HasPrefix(name, "_") || !token.IsExported(name) {
			continue
		}
		if obj := im.object(pkg, name, syms[name]); obj != nil && scope.Lookup(name) == nil {
			scope.Insert(obj)
		}
	}
	pkg.MarkComplete()
	return pkg, nil
}

var versionSuffix = regexp.MustCompile(`^v[0-9]+$`)

// pkg returns the package object of path, creating it empty.
func (im *symbolImporter) pkg(path string) *types.Package {
	if p, ok := im.pkgs[path]; ok {
		return p
	}
	name, ok := im.names[path]
	if !ok {
		elems := strings.Split(path, "/")
		name = elems[len(elems)-1]
		if versionSuffix.MatchString(name) && len(elems) > 1 {
			name = elems[len(elems)-2]
		}
		name = strings.NewReplacer("-", "_", ".", "_").Replace(name)
	}
	p := types.NewPackage(path, name)
	im.pkgs[path] = p
	return p
}

var constantValueType = reflect.TypeOf((*constant.Value)(nil)).Elem()

func (im *symbolImporter) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	switch {
	case t.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr():
		typ := im.typeOf(t.Elem())
		if n, ok := typ.(*types.Named); ok && n.Obj().Name() == name && n.Obj().Pkg() == pkg {
			return n.Obj()
		}
		return types.NewTypeName(token.NoPos, pkg, name, typ) // an alias
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, im.typeOf(t))
	case t.Implements(constantValueType) && t.Kind() != reflect.Interface:
		c := v.Interface().(constant.Value)
		return types.NewConst(token.NoPos, pkg, name, untypedOf(c), c)
	case t.Kind() == reflect.Func:
		return types.NewFunc(token.NoPos, pkg, name, im.signature(t, nil))
	default:
		c := constantOf(v)
		if c == nil {
			return types.NewVar(token.NoPos, pkg, name, im.typeOf(t))
		}
		return types.NewConst(token.NoPos, pkg, name, im.typeOf(t), c)
	}
}

func untypedOf(c constant.Value) types.Type {
	switch c.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.UntypedInt]
}

func constantOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c))))
	case reflect.String:
		return constant.MakeString(v.String())
	}
	return nil
}

var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// typeOf converts a reflect type to its go/types form.
func (im *symbolImporter) typeOf(t reflect.Type) types.Type {
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Name() != "" && t.PkgPath() == "" {
		if k, ok := basicKinds[t.Kind()]; ok {
			switch t.Name() {
			case "byte":
				return types.Universe.Lookup("byte").Type()
			case "rune":
				return types.Universe.Lookup("rune").Type()
			}
			return types.Typ[k]
		}
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return im.namedOf(t)
	}
	return im.underlyingOf(t)
}

func (im *symbolImporter) namedOf(t reflect.Type) *types.Named {
	if n, ok := im.named[t]; ok {
		return n
	}
	pkg := im.pkg(t.PkgPath())
	obj := types.NewTypeName(token.NoPos, pkg, t.Name(), nil)
	n := types.NewNamed(obj, nil, nil)
	im.named[t] = n
	n.SetUnderlying(im.underlyingOf(t))
	if t.Kind() == reflect.Interface {
		return n
	}
	value := map[string]bool{}
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		value[m.Name] = true
		recv := types.NewVar(token.NoPos, pkg, "", n)
		n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, im.signature(m.Type, recv)))
	}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		if value[m.Name] {
			continue
		}
		recv := types.NewVar(token.NoPos, pkg, "", types.NewPointer(n))
		n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, im.signature(m.Type, recv)))
	}
	return n
}

// signature converts a function type; with a receiver, the reflect type's
// first parameter is the receiver and is dropped.
func (im *symbolImporter) signature(t reflect.Type, recv *types.Var) *types.Signature {
	first := 0
	if recv != nil {
		first = 1
	}
	var params, results []*types.Var
	for i := first; i < t.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", im.typeOf(t.In(i))))
	}
	for i := 0; i < t.NumOut(); i++ {
		results = append(results, types.NewParam(token.NoPos, nil, "", im.typeOf(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
}

func (im *symbolImporter) underlyingOf(t reflect.Type) types.Type {
	if k, ok := basicKinds[t.Kind()]; ok {
		return types.Typ[k]
	}
	switch t.Kind() {
	case reflect.Pointer:
		return types.NewPointer(im.typeOf(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(im.typeOf(t.Elem()))
	case reflect.Array:
		return types.NewArray(im.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(im.typeOf(t.Key()), im.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, im.typeOf(t.Elem()))
	case reflect.Func:
		return im.signature(t, nil)
	case reflect.Struct:
		fields := make([]*types.Var, t.NumField())
		tags := make([]string, t.NumField())
		for i := range fields {
			f := t.Field(i)
			var pkg *types.Package
			if f.PkgPath != "" {
				pkg = im.pkg(f.PkgPath)
			} else if t.PkgPath() != "" {
				pkg = im.pkg(t.PkgPath())
			}
			fields[i] = types.NewField(token.NoPos, pkg, f.Name, im.typeOf(f.Type), f.Anonymous)
			tags[i] = string(f.Tag)
		}
		return types.NewStruct(fields, tags)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return types.Universe.Lookup("any").Type()
		}
		var methods []*types.Func
		for i := 0; i < t.NumMethod(); i++ {
			m := t.Method(i)
			pkg := im.pkg(t.PkgPath())
			if m.PkgPath != "" {
				pkg = im.pkg(m.PkgPath)
			}
			methods = append(methods, types.NewFunc(token.NoPos, pkg, m.Name, im.signature(m.Type, nil)))
		}
		return types.NewInterfaceType(methods, nil).Complete()
	}
	return types.Typ[types.Invalid]
}
