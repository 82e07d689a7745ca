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
