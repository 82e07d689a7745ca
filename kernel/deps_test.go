package kernel

import (
	"os/exec"
	"strings"
	"testing"
)

// The kernel speaks the protocol against the Interpreter interface and
// knows nothing of the interpreter behind it.
func TestKernelDoesNotImportTheInterpreter(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "superstep/kernel").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case strings.HasPrefix(dep, "github.com/traefik/yaegi"), dep == "superstep/kernel/session", dep == "superstep/kernel/cell":
			t.Errorf("package kernel imports %s", dep)
		}
	}
}

// Only superstep-worker links MPI: the kernel command, and with it the
// SDK that cells call, never loads the cgo binding.
func TestKernelDoesNotLinkMPI(t *testing.T) {
	deps, err := exec.Command("go", "list", "-deps", "superstep/kernel/cmd/superstep-kernel").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(deps)) {
		if dep == "superstep/sdk/bsp/mpi" {
			t.Errorf("the kernel command imports %s", dep)
		}
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "superstep/sdk/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		path, imports, _ := strings.Cut(line, ": ")
		if strings.Contains(" "+imports+" ", " superstep/sdk/bsp/mpi ") && path != "superstep/sdk/bsp/mpi/cmd/superstep-worker" && !strings.HasPrefix(path, "superstep/sdk/bsp/mpi/internal/") {
			t.Errorf("%s imports superstep/sdk/bsp/mpi: only the worker command may", path)
		}
	}
}
