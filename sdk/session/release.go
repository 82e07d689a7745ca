package session

// This file gives back the memory that yaegi v0.16.1 keeps for every cell
// and never uses again (issue 10).
//
// The interpreter runs every cell's top-level code in its single global
// frame: each temporary of that code (the result of make or of a call, a
// loop counter, the slice element buf[i] read) gets a new slot there, and
// so does each variable a cell defines, a redefinition of an existing name
// included, whose old slot keeps the old value. Slots are never reused nor
// cleared, so a session that redefines a 1 MiB buffer 500 times keeps the
// 500 buffers. The interpreter also keeps every cell's syntax tree in its
// roots list and every cell's block scope in its package scope's child
// list, which only its debugger reads.
//
// After a cell, releaseCell clears the global-frame slots that no code can
// read any more and empties those two lists. A slot stays when
//   - a variable or constant of a package scope names it: the session's
//     variables, with their latest values;
//   - the body of a function, method or function literal of any cell,
//     compiled so far, reads or writes it: a function that uses a variable
//     since redefined, a closure over a variable of a cell's top level, a
//     goroutine's arguments keep the value they had;
//   - it holds a struct of a cell's type or a pointer to one (T{} or &T{}
//     made inside a call, which compiled code may keep and call the
//     methods of in later cells).
// Every other slot belongs to the top-level code of a cell that has ended,
// which never runs again. A cleared slot gets a new zero value of its type:
// the old value is not written to, so a cell's result that the caller still
// holds, or another slot sharing the value, is untouched.
//
// yaegi has no API for this; its unexported fields are reached through
// reflection and unsafe, as forgetType does. checkReleaseLayout verifies
// their names and types first; if yaegi changed, releaseCell changes
// nothing and returns an error, and TestReleaseLayout fails.

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// releaseAfterCell releases what the cell Eval ran keeps for nothing. Eval
// defers it. After an interrupted cell (ctx done) it does nothing: that
// cell's top-level code may still be running; the next cell releases it. A
// yaegi whose layout changed leaves the memory as it was (TestReleaseLayout
// reports it).
func (s *Session) releaseAfterCell(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	_ = s.releaser.releaseCell(s.interp)
}

// releaseCell clears what the cells that in has run so far keep and no
// code can reach any more (see the top of this file). The session calls it
// after each cell that ran to its end or failed, never after an interrupted
// one, whose top-level code may still be running. It returns an error, and
// changes nothing, if yaegi is not the version this file knows.
//
// r remembers what it learnt of in: calling it again only looks at what
// is new. A releaser serves one interpreter.
func (r *cellReleaser) releaseCell(in *interp.Interpreter) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.layErr != nil {
		return r.layErr
	}
	return r.release(in)
}

func newCellReleaser() *cellReleaser {
	r := &cellReleaser{}
	r.lay, r.layErr = lookUpLayout()
	return r
}

// cellReleaser remembers, from cell to cell, what release found about one
// interpreter. It holds no reference to the interpreter.
type cellReleaser struct {
	mu     sync.Mutex
	lay    yaegiLayout
	layErr error
	// pinned are global-frame slots that a function body references.
	// Function bodies are scanned once, when their cell's tree is dropped
	// from the interpreter's roots, so pinned only grows.
	pinned map[int]bool
	// bySymbol are slots kept at the last release only because a package
	// symbol named them; a later cell may redefine the name.
	bySymbol []int
	// examined is the frame length at the last release: slots from there on
	// are new.
	examined int
	// released counts the slots cleared so far (for tests).
	released int
	// named and pass: see release.
	named []uint64
	pass  uint64
}

// yaegiLayout is where yaegi keeps what release reads and clears: its
// unexported fields, looked up by name and checked by type.
type yaegiLayout struct {
	roots, scopes, universe, frame, mutex reflect.StructField // Interpreter
	fData, fMutex                         reflect.StructField // frame
	nChild, nFindex, nLevel, nScope, nSym reflect.StructField // node
	sSym, sChild, sLevel                  reflect.StructField // scope
	symIndex, symGlobal, symKind          reflect.StructField // symbol
	// varSym and constSym are the symbol kinds that own a frame slot;
	// the index of other kinds may be 0 without meaning it.
	varSym, constSym uint64
}

// globalFrame is yaegi's node.level for a symbol of the global frame.
const globalFrame = -1

func checkReleaseLayout() error {
	_, err := lookUpLayout()
	return err
}

func lookUpLayout() (lay yaegiLayout, err error) {
	get := func(t reflect.Type, name string, kind reflect.Kind) (reflect.StructField, error) {
		f, ok := t.FieldByName(name)
		if !ok || len(f.Index) != 1 || f.Type.Kind() != kind {
			return f, fmt.Errorf("yaegi changed: %s.%s is not a %s field", t, name, kind)
		}
		return f, nil
	}
	must := func(t reflect.Type, name string, kind reflect.Kind) reflect.StructField {
		f, e := get(t, name, kind)
		if e != nil && err == nil {
			err = e
		}
		return f
	}
	it := reflect.TypeOf(interp.Interpreter{})
	lay.roots = must(it, "roots", reflect.Slice)
	lay.scopes = must(it, "scopes", reflect.Map)
	lay.universe = must(it, "universe", reflect.Pointer)
	lay.frame = must(it, "frame", reflect.Pointer)
	lay.mutex = must(it, "mutex", reflect.Struct)
	if err != nil {
		return lay, err
	}
	nodeT := lay.roots.Type.Elem()
	if nodeT.Kind() != reflect.Pointer || nodeT.Elem().Kind() != reflect.Struct {
		return lay, errors.New("yaegi changed: Interpreter.roots is not a []*node")
	}
	nodeT = nodeT.Elem()
	scopeT := lay.universe.Type.Elem()
	frameT := lay.frame.Type.Elem()
	lay.fData = must(frameT, "data", reflect.Slice)
	lay.fMutex = must(frameT, "mutex", reflect.Struct)
	lay.nChild = must(nodeT, "child", reflect.Slice)
	lay.nFindex = must(nodeT, "findex", reflect.Int)
	lay.nLevel = must(nodeT, "level", reflect.Int)
	lay.nScope = must(nodeT, "scope", reflect.Pointer)
	lay.nSym = must(nodeT, "sym", reflect.Pointer)
	lay.sSym = must(scopeT, "sym", reflect.Map)
	lay.sChild = must(scopeT, "child", reflect.Slice)
	lay.sLevel = must(scopeT, "level", reflect.Int)
	if err != nil {
		return lay, err
	}
	symT := lay.nSym.Type.Elem()
	lay.symIndex = must(symT, "index", reflect.Int)
	lay.symGlobal = must(symT, "global", reflect.Bool)
	lay.symKind = must(symT, "kind", reflect.Uint)
	if err != nil {
		return lay, err
	}
	// sKind has a String method naming each kind.
	found := 0
	for k := uint64(0); k < 64; k++ {
		v := reflect.New(lay.symKind.Type).Elem()
		v.SetUint(k)
		s, ok := v.Interface().(fmt.Stringer)
		if !ok {
			return lay, errors.New("yaegi changed: symbol kinds have no names")
		}
		switch s.String() {
		case "varSym":
			lay.varSym = k
			found++
		case "constSym":
			lay.constSym = k
			found++
		}
	}
	if found != 2 {
		return lay, errors.New("yaegi changed: no varSym and constSym symbol kinds")
	}
	switch {
	case err != nil:
	case lay.mutex.Type != reflect.TypeOf(sync.RWMutex{}) || lay.fMutex.Type != reflect.TypeOf(sync.RWMutex{}):
		err = errors.New("yaegi changed: its mutexes are not sync.RWMutex")
	case lay.fData.Type.Elem() != reflect.TypeOf(reflect.Value{}):
		err = errors.New("yaegi changed: frame.data is not a []reflect.Value")
	case lay.nChild.Type.Elem() != lay.roots.Type.Elem() || lay.nScope.Type != lay.universe.Type:
		err = errors.New("yaegi changed: node.child or node.scope has another type")
	case lay.scopes.Type.Key().Kind() != reflect.String || lay.scopes.Type.Elem() != lay.universe.Type:
		err = errors.New("yaegi changed: Interpreter.scopes is not a map[string]*scope")
	case lay.sSym.Type.Key().Kind() != reflect.String || lay.sSym.Type.Elem() != lay.nSym.Type:
		err = errors.New("yaegi changed: scope.sym is not a map[string]*symbol")
	case lay.sChild.Type != reflect.SliceOf(lay.universe.Type):
		err = errors.New("yaegi changed: scope.child is not a []*scope")
	}
	return lay, err
}

// at is field f of the struct that p points to, settable.
func at(p unsafe.Pointer, f reflect.StructField) reflect.Value {
	return reflect.NewAt(f.Type, unsafe.Add(p, f.Offset)).Elem()
}

// release does releaseCell's work with r's memory of in.
func (r *cellReleaser) release(in *interp.Interpreter) error {
	if err := checkReleaseLayout(); err != nil {
		return err
	}
	if r.pinned == nil {
		r.pinned = map[int]bool{}
	}
	ip := unsafe.Pointer(in)
	if !r.scan(ip) {
		return nil
	}
	fp := at(ip, r.lay.frame).UnsafePointer()
	if fp == nil {
		return nil
	}
	// The frame's lock, as resizeFrame takes it. Goroutines of earlier
	// cells may run; they read only pinned or named slots.
	fmu := (*sync.RWMutex)(unsafe.Add(fp, r.lay.fMutex.Offset))
	fmu.Lock()
	defer fmu.Unlock()
	data := *(*[]reflect.Value)(unsafe.Add(fp, r.lay.fData.Offset))

	candidates := r.bySymbol
	r.bySymbol = nil
	for i := r.examined; i < len(data); i++ {
		candidates = append(candidates, i)
	}
	for _, i := range candidates {
		switch {
		case i >= len(data) || r.pinned[i]:
		case i < len(r.named) && r.named[i] == r.pass:
			r.bySymbol = append(r.bySymbol, i)
		case cellStruct(data[i]):
			// T{} or &T{} of a cell's type, made inside a call: compiled
			// code may keep it as an interface (sdk.Start keeps the
			// program) and call its methods in later cells, which read
			// the receiver from this slot. Kept, like a variable.
			r.pinned[i] = true
		default:
			// A slot may hold a reflect.Value into another object (the
			// element of a slice that buf[i] read), so even a zero value
			// is replaced.
			if v := data[i]; v.IsValid() {
				data[i] = reflect.New(v.Type()).Elem()
				r.released++
			}
		}
	}
	r.examined = len(data)
	return nil
}

// cellStruct reports a struct of a type that a cell defined, or a
// non-nil pointer to one (the interpreter makes such types with
// reflect.StructOf: they have no name).
func cellStruct(v reflect.Value) bool {
	if !v.IsValid() {
		return false
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false
		}
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct && t.Name() == "" && t.NumField() > 0
}

// scan, under the interpreter's lock, pins the slots that the function
// bodies compiled since the last call reference, drops the syntax trees and
// block scopes, and marks in r.named the slots that package symbols name.
// It reports whether the interpreter has a package scope yet.
func (r *cellReleaser) scan(ip unsafe.Pointer) bool {
	mu := (*sync.RWMutex)(unsafe.Add(ip, r.lay.mutex.Offset))
	mu.Lock()
	defer mu.Unlock()

	roots := at(ip, r.lay.roots)
	for i := 0; i < roots.Len(); i++ {
		r.pinFunctionBodies(roots.Index(i).UnsafePointer())
	}
	roots.Set(reflect.Zero(roots.Type()))

	// named[i] == pass marks slot i for this call. (The universe has only
	// predeclared names, which own no slot.)
	r.pass++
	scopes := at(ip, r.lay.scopes)
	for it := scopes.MapRange(); it.Next(); {
		sc := it.Value().UnsafePointer()
		if sc == nil {
			continue
		}
		at(sc, r.lay.sChild).Set(reflect.Zero(r.lay.sChild.Type))
		for it := at(sc, r.lay.sSym).MapRange(); it.Next(); {
			p := it.Value().UnsafePointer()
			if p == nil {
				continue
			}
			kind := *(*uint)(unsafe.Add(p, r.lay.symKind.Offset))
			if kind != uint(r.lay.varSym) && kind != uint(r.lay.constSym) {
				continue
			}
			if i := *(*int)(unsafe.Add(p, r.lay.symIndex.Offset)); i >= 0 {
				for len(r.named) <= i {
					r.named = append(r.named, 0)
				}
				r.named[i] = r.pass
			}
		}
	}
	return scopes.Len() > 0
}

// pinFunctionBodies walks the tree at root (a *node) and pins every
// global-frame slot that a node inside a function body references: by
// symbol, by the global level, or by a level that climbs as many frames as
// the function is deep (a variable of a cell's top-level code).
func (r *cellReleaser) pinFunctionBodies(root unsafe.Pointer) {
	type item struct {
		n     unsafe.Pointer
		depth int
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, depth := it.n, it.depth
		if n == nil {
			continue
		}
		if sc := *(*unsafe.Pointer)(unsafe.Add(n, r.lay.nScope.Offset)); sc != nil {
			depth = *(*int)(unsafe.Add(sc, r.lay.sLevel.Offset))
		}
		if depth > 0 {
			findex := *(*int)(unsafe.Add(n, r.lay.nFindex.Offset))
			level := *(*int)(unsafe.Add(n, r.lay.nLevel.Offset))
			if findex >= 0 && (level == globalFrame || level == depth) {
				r.pinned[findex] = true
			}
			if sym := *(*unsafe.Pointer)(unsafe.Add(n, r.lay.nSym.Offset)); sym != nil {
				i := *(*int)(unsafe.Add(sym, r.lay.symIndex.Offset))
				global := *(*bool)(unsafe.Add(sym, r.lay.symGlobal.Offset))
				if i >= 0 && (global || level == globalFrame || level == depth) {
					r.pinned[i] = true
				}
			}
		}
		children := *(*[]unsafe.Pointer)(unsafe.Add(n, r.lay.nChild.Offset))
		for _, c := range children {
			stack = append(stack, item{c, depth})
		}
	}
}
