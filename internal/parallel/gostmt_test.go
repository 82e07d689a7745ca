package parallel

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestNoOtherPools: this package is the module's one worker pool. A go
// statement anywhere else starts a goroutine whose panic ends the process
// (the whole Jupyter kernel) where the kernel's recover around a cell
// cannot see it, so every go statement outside internal/parallel must be
// listed here with the reason it is not a pool over items; a loop over
// items uses For, ForErr or Ordered instead.
//
// Entries are keyed "file:Func": the file's path from the module root
// and the top-level function holding the statement ("Type.Method" for a
// method; a statement in a function literal counts for the function the
// literal is in), with the number of go statements in it. Moving a file
// is a one-line edit of its key: the test then reports the statement at
// its new place as unlisted and the old key as matching nothing.
func TestNoOtherPools(t *testing.T) {
	allowed := []struct {
		key    string
		n      int
		reason string
	}{
		{"kernel/kernel.go:Kernel.Serve", 6, "the kernel's service goroutines (heartbeat, the shell, control and stdin receive loops, the stream flush loop, the shell loop), alive as long as the kernel"},
		{"kernel/streams.go:streams.pipe", 1, "copies one captured pipe to its output stream until the pipe closes"},
		{"kernel/streams.go:Kernel.CaptureStdio", 1, "copies the process's own stdout or stderr, captured, to its stream until it closes"},
		// Formerly kernel/cmd/superstep-kernel/main.go.
		{"sdk/cmd/superstep-kernel/main.go:run", 1, "turns the process's signals into interrupts and shutdown for the kernel's life"},
		{"sdk/profile/capture.go:CaptureWriter.WriteHeader", 1, "the capture's writer goroutine: writes queued steps to disk so that WriteStep never blocks"},
		{"sdk/mpijob/launch.go:Launch", 2, "follow the job's capture file and wait for mpirun while the caller watches ctx"},
		{"sdk/mpijob/internal/mpibench/main.go:runMPI", 1, "samples the MPI workers' peak memory while the job runs"},
		{"sdk/bsp/mpi/cmd/superstep-worker/main.go:main", 1, "runs MPI_Finalize so that the rank can leave after a grace period should it never return"},
	}

	root := moduleRoot(t)
	found := map[string][]string{} // key → "file:line" of each go statement
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "testdata", ".git":
				return filepath.SkipDir
			}
			if rel == "internal/parallel" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", rel, err)
		}
		for _, decl := range f.Decls {
			name := declName(decl)
			ast.Inspect(decl, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					key := rel + ":" + name
					found[key] = append(found[key], fmt.Sprintf("%s:%d", rel, fset.Position(g.Pos()).Line))
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking the module at %s: %v", root, err)
	}

	var problems []string
	listed := map[string]bool{}
	for _, a := range allowed {
		listed[a.key] = true
		switch at := found[a.key]; {
		case len(at) == 0:
			problems = append(problems, fmt.Sprintf("allowlist entry %s (%s) matches no go statement: remove it, or give its new file or function", a.key, a.reason))
		case len(at) != a.n:
			problems = append(problems, fmt.Sprintf("%s holds %d go statements (%s), the allowlist %d: a new one there must be justified too", a.key, len(at), strings.Join(at, ", "), a.n))
		}
	}
	var keys []string
	for k := range found {
		if !listed[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fn := k[strings.LastIndex(k, ":")+1:]
		for _, at := range found[k] {
			problems = append(problems, fmt.Sprintf("%s: go statement in %s: a pool over items uses internal/parallel (For, ForErr, Ordered); anything else is listed as %q with its reason", at, fn, k))
		}
	}
	if len(problems) > 0 {
		t.Errorf("go statements outside internal/parallel:\n\t%s", strings.Join(problems, "\n\t"))
	}
}

// declName is the name of a top-level declaration: a function's, a
// method's as Type.Method, or the first name a var or const declares.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil || len(d.Recv.List) == 0 {
			return d.Name.Name
		}
		return recvType(d.Recv.List[0].Type) + "." + d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			if v, ok := s.(*ast.ValueSpec); ok && len(v.Names) > 0 {
				return v.Names[0].Name
			}
		}
	}
	return "?"
}

// recvType is a receiver's type name, without pointer or type parameters.
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// moduleRoot is the directory of the go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}
