// Package cellprog makes a vertex program from the source a notebook
// shipped (mpijob.Source): it interprets the cells' declarations with the
// Go interpreter the kernel uses (yaegi), the standard library and the
// SDK's symbols, makes the program's type from its JSON value and returns
// it as a bsp.Program the engine runs on a rank.
//
// The worker command passes Program to mpijob.Work; nothing else needs
// it. It knows nothing of MPI, of the kernel's sessions or of how the
// source was gathered.
package cellprog

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"superstep/sdk/bsp"
	"superstep/sdk/mpijob"
	"superstep/sdk/symbols"
)

// Names the glue code imports its packages by: not names a cell would
// give them.
const (
	jsonName = "superstepShipJSON"
	bspName  = "superstepShipBSP"
)

// Program interprets src and returns its program, with the cells' output
// (fmt.Println in a method) going to standard output and error.
func Program(src *mpijob.Source) (bsp.Program, error) {
	return ProgramTo(src, os.Stdout, os.Stderr)
}

// ProgramTo is Program writing the program's output to stdout and stderr.
func ProgramTo(src *mpijob.Source, stdout, stderr io.Writer) (prog bsp.Program, err error) {
	if err := src.Validate(); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("the interpreter failed: %v", r)
		}
	}()
	in := interp.New(interp.Options{Stdout: stdout, Stderr: stderr, Env: os.Environ()})
	if err := in.Use(stdlib.Symbols); err != nil {
		return nil, fmt.Errorf("loading the standard library symbols: %w", err)
	}
	if err := in.Use(symbols.Symbols); err != nil {
		return nil, fmt.Errorf("loading the SDK symbols: %w", err)
	}
	var imports strings.Builder
	imports.WriteString("import (\n")
	names := make([]string, 0, len(src.Imports))
	for name := range src.Imports {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&imports, "\t%s %q\n", name, src.Imports[name])
	}
	fmt.Fprintf(&imports, "\t%s %q\n\t%s %q\n)\n", jsonName, "encoding/json", bspName, "superstep/sdk/bsp")
	if _, err := in.Eval(imports.String()); err != nil {
		return nil, fmt.Errorf("importing the cells' packages: %w", err)
	}
	if _, err := in.Eval(src.Decls); err != nil {
		return nil, fmt.Errorf("the cells' declarations: %w (the ranks get the cells' types, functions and constants, not their variables)", err)
	}
	amp := ""
	if src.Pointer {
		amp = "&"
	}
	glue := fmt.Sprintf(`func superstepShipMake() (%[1]s.Program, error) {
	var v %[2]s
	if err := %[3]s.Unmarshal([]byte(%[4]q), &v); err != nil {
		return nil, err
	}
	return %[5]sv, nil
}`, bspName, src.Type, jsonName, string(src.Value), amp)
	if _, err := in.Eval(glue); err != nil {
		return nil, fmt.Errorf("making a %s%s: %w", amp, src.Type, err)
	}
	v, err := in.Eval("superstepShipMake")
	if err != nil {
		return nil, fmt.Errorf("making a %s%s: %w", amp, src.Type, err)
	}
	make, ok := v.Interface().(func() (bsp.Program, error))
	if !ok {
		return nil, fmt.Errorf("making a %s%s: the interpreter gave %s", amp, src.Type, v.Type())
	}
	if prog, err = make(); err != nil {
		return nil, fmt.Errorf("reading the %s value: %w", src.Type, err)
	}
	return prog, nil
}
