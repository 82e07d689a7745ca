// Package mpijobtest builds the superstep-worker command for tests that
// run jobs under mpirun, once per test binary, and says what to install
// when Open MPI is missing: such a test is skipped on a machine without
// it, and fails under CI (CI set), where Open MPI must be installed.
package mpijobtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// built is the worker built for this test binary, or why not; the
// directory is left for the system's temporary files cleaner, as tests of
// several packages may share nothing else.
var built = sync.OnceValues(func() (string, error) {
	for _, tool := range []string{"mpirun", "mpicc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%s is missing: install openmpi-bin and libopenmpi-dev", tool)
		}
	}
	dir, err := os.MkdirTemp("", "superstep-worker")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "superstep-worker")
	out, err := exec.Command("go", "build", "-o", bin, "superstep/sdk/bsp/mpi/cmd/superstep-worker").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building superstep-worker: %v\n%s", err, out)
	}
	return bin, nil
})

// Worker returns the path of a freshly built superstep-worker. Without
// Open MPI it skips the test, or fails it under CI; a build error always
// fails it.
func Worker(t testing.TB) string {
	t.Helper()
	bin, err := built()
	if err != nil {
		if os.Getenv("CI") != "" || strings.Contains(err.Error(), "building") {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return bin
}
