package layers

import (
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A rule forbids the packages under From (a path, or a path/... prefix)
// to reach any package under Forbid, directly or through others.
type rule struct {
	From   string
	Forbid []string
	Why    string
}

// rules are the floors of doc.go as what may not be reached. Commands
// (package main) are checked only by rules that name them.
var rules = []rule{
	{"superstep/display", []string{"superstep/...", "non-standard"},
		"the display contract is standard library only: the kernel links it and nothing else of Superstep"},
	{"superstep/kernel/...", []string{"superstep/algo/...", "superstep/display/views/...", "superstep/sdk/...", "superstep/topology/...", "superstep/datasets/...", "github.com/apache/arrow/...", "github.com/traefik/yaegi/..."},
		"the kernel speaks the protocol against its Interpreter interface: no interpreter, no SDK, no views, no Arrow"},
	{"superstep/kernel", []string{"superstep/kernel/cell"},
		"cells are the interpreter's business (sdk/session), not the protocol's"},
	{"superstep/internal/parallel", []string{"superstep/..."}, "the worker pool is a leaf"},
	{"superstep/internal/linereader", []string{"superstep/..."}, "the line reader is a leaf"},
	{"superstep/sdk/graph", []string{"superstep/..."}, "the graph type is a leaf"},
	{"superstep/sdk/table", []string{"superstep/..."}, "the table helpers are a leaf"},
	{"superstep/sdk/bsp/...", []string{"superstep/algo/...", "superstep/display/...", "superstep/sdk", "superstep/sdk/mpijob/...", "superstep/sdk/session/...", "superstep/sdk/symbols/...", "superstep/kernel/..."},
		"the engine is below the algorithms that run on it and the views that show it"},
	{"superstep/sdk/profile/...", []string{"superstep/algo/...", "superstep/display/...", "superstep/sdk", "superstep/sdk/bsp/...", "superstep/kernel/..."},
		"a profile is a model of what ran, below the engine that fills it"},
	{"superstep/sdk/vrecord/...", []string{"superstep/algo/...", "superstep/display/...", "superstep/sdk", "superstep/sdk/bsp/...", "superstep/kernel/..."},
		"the vertex record is a model of what ran, below the engine that fills it"},
	{"superstep/sdk/trace/...", []string{"superstep/algo/...", "superstep/display/views/...", "superstep/sdk", "superstep/sdk/bsp/...", "superstep/sdk/mpijob/...", "superstep/kernel/..."},
		"traces and their readers are models: the facade draws them"},
	{"superstep/topology/...", []string{"superstep/algo/...", "superstep/display/...", "superstep/sdk", "superstep/sdk/bsp/...", "superstep/sdk/mpijob/...", "superstep/kernel/..."},
		"network models know no algorithm and no picture"},
	{"superstep/datasets/...", []string{"superstep/algo/...", "superstep/display/...", "superstep/sdk", "superstep/sdk/bsp/...", "superstep/kernel/..."},
		"readers and generators fill the graph type, nothing above it"},
	{"superstep/algo/...", []string{"superstep/display/...", "superstep/sdk", "superstep/sdk/mpijob/...", "superstep/sdk/session/...", "superstep/sdk/symbols/...", "superstep/kernel/..."},
		"algorithms compute; the facade shows what they computed"},
	{"superstep/display/views/...", []string{"superstep/sdk/...", "superstep/topology/...", "superstep/datasets/...", "superstep/kernel/..."},
		"views draw plain data and know no domain model"},
	{"superstep/sdk/mpijob", []string{"superstep/display/...", "superstep/sdk", "superstep/sdk/session/...", "superstep/kernel/..."},
		"MPI jobs are below the facade"},
	{"superstep/sdk", []string{"superstep/sdk/session/...", "superstep/sdk/symbols/...", "superstep/kernel/..."},
		"the facade is what cells call, below what runs cells"},
	{"superstep/sdk/cmd/superstep-kernel", []string{"superstep/sdk/bsp/mpi"},
		"only superstep-worker links Open MPI (cgo): the kernel starts it as a separate process"},
}

// importers names the only packages that may import a package directly.
var importers = map[string]struct {
	Allowed []string
	Why     string
}{
	"superstep/sdk/bsp/mpi": {[]string{"superstep/sdk/bsp/mpi/cmd/superstep-worker", "superstep/sdk/bsp/mpi/internal/..."},
		"the cgo binding to Open MPI is linked by the MPI worker alone"},
	"superstep/sdk/session": {[]string{"superstep/sdk/cmd/superstep-kernel"},
		"the session is joined to the kernel by the kernel command"},
	"superstep/sdk/symbols": {[]string{"superstep/sdk/session", "superstep/sdk/mpijob/cellprog", "superstep/sdk/cmd/superstep-kernel"},
		"the symbol tables link every SDK package: only what runs cells needs them"},
}

type pkg struct {
	path     string
	main     bool
	standard bool
	imports  []string
}

func match(pattern, path string) bool {
	if p, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == p || strings.HasPrefix(path, p+"/")
	}
	return path == pattern
}

// violations checks rules and importers against a package graph and
// returns one line per forbidden reach, sorted.
func violations(pkgs map[string]*pkg, rules []rule) []string {
	// reach[p] is every package p reaches, memoised.
	reach := map[string]map[string]bool{}
	var walk func(p string) map[string]bool
	walk = func(p string) map[string]bool {
		if r, ok := reach[p]; ok {
			return r
		}
		r := map[string]bool{}
		reach[p] = r
		if info, ok := pkgs[p]; ok {
			for _, q := range info.imports {
				r[q] = true
				for x := range walk(q) {
					r[x] = true
				}
			}
		}
		return r
	}
	var out []string
	for _, p := range pkgs {
		if p.standard {
			continue
		}
		for _, r := range rules {
			if !match(r.From, p.path) || (p.main && r.From != p.path) {
				continue
			}
			for dep := range walk(p.path) {
				d, known := pkgs[dep]
				for _, f := range r.Forbid {
					bad := match(f, dep)
					if f == "non-standard" {
						bad = known && !d.standard && !strings.HasPrefix(dep, "superstep/")
					}
					if bad {
						out = append(out, fmt.Sprintf("%s reaches %s: %s", p.path, dep, r.Why))
					}
				}
			}
		}
		for _, q := range p.imports {
			rule, ok := importers[q]
			if !ok {
				continue
			}
			if !slices.ContainsFunc(rule.Allowed, func(a string) bool { return match(a, p.path) }) {
				out = append(out, fmt.Sprintf("%s imports %s: %s", p.path, q, rule.Why))
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// graphOf lists the module's packages and everything they import.
func graphOf(t *testing.T) map[string]*pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}|{{.Name}}|{{.Standard}}|{{join .Imports \" \"}}", "superstep/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*pkg{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "|", 4)
		if len(f) != 4 {
			t.Fatalf("go list printed %q", line)
		}
		pkgs[f[0]] = &pkg{path: f[0], main: f[1] == "main", standard: f[2] == "true", imports: strings.Fields(f[3])}
	}
	return pkgs
}

func TestImportsRunOneWay(t *testing.T) {
	pkgs := graphOf(t)
	if len(pkgs) < 50 || pkgs["superstep/display"] == nil || pkgs["superstep/kernel"] == nil {
		t.Fatalf("go list found %d packages, not the module", len(pkgs))
	}
	for _, v := range violations(pkgs, rules) {
		t.Error(v)
	}
}

// The checker finds a forbidden import, however deep: the tree as it is,
// plus one edge that breaks a floor.
func TestAForbiddenImportFails(t *testing.T) {
	pkgs := graphOf(t)
	if got := violations(pkgs, rules); len(got) > 0 {
		t.Fatalf("the tree already breaks a floor:\n%s", strings.Join(got, "\n"))
	}
	for _, c := range []struct {
		from, to string
		want     string
	}{
		// The kernel reaching views through the contract.
		{"superstep/display", "superstep/display/views", "superstep/kernel reaches superstep/display/views"},
		// A topology model importing an algorithm.
		{"superstep/topology/torus", "superstep/algo/hilbert", "superstep/topology/torus reaches superstep/algo/hilbert"},
		// The contract importing Arrow.
		{"superstep/display", "github.com/apache/arrow/go/v15/arrow", "superstep/display reaches github.com/apache/arrow/go/v15/arrow"},
		// A view importing the facade.
		{"superstep/display/views", "superstep/sdk", "superstep/display/views reaches superstep/sdk:"},
		// The facade importing the session.
		{"superstep/sdk", "superstep/sdk/session", "superstep/sdk imports superstep/sdk/session"},
	} {
		p := pkgs[c.from]
		saved := p.imports
		p.imports = append(slices.Clip(saved), c.to)
		got := violations(pkgs, rules)
		p.imports = saved
		if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, c.want) }) {
			t.Errorf("%s → %s: no violation %q among %d:\n%s", c.from, c.to, c.want, len(got), strings.Join(got, "\n"))
		}
	}
}
