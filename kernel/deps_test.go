package kernel

import (
	"os/exec"
	"strings"
	"testing"
)

// The kernel and everything under kernel/ link the display contract and
// the protocol only: no interpreter, no algorithm, no view, no Arrow
// (internal/layers checks the whole tree's floors; this is the kernel's
// promise as a user of go list would check it).
func TestKernelLinksNoSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps ./kernel/... printed %d packages", len(deps))
	}
	for _, dep := range deps {
		for _, bad := range []string{"superstep/algo/", "superstep/display/views", "superstep/sdk", "github.com/apache/arrow", "github.com/traefik/yaegi"} {
			if strings.HasPrefix(dep, bad) {
				t.Errorf("go list -deps ./kernel/... lists %s", dep)
			}
		}
	}
}
