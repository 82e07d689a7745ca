package mpishim

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// LibName is the file name Build gives the shared library.
const LibName = "libsuperstep-mpishim.so"

// Missing returns the names of the tools among mpicc, mpirun and otf2-print
// that are not on PATH (nil when all are there).
func Missing() []string {
	var out []string
	for _, t := range []string{"mpicc", "mpirun", "otf2-print"} {
		if _, err := exec.LookPath(t); err != nil {
			out = append(out, t)
		}
	}
	return out
}

// sources are the shim's C source and the example programs, embedded so
// that an installed kernel builds them anywhere.
//
//go:embed superstep_mpishim.c testdata/grid.c testdata/ring.c
var sources embed.FS

// writeSource writes the embedded file name into dir and returns its path.
func writeSource(dir, name string) (string, error) {
	b, err := sources.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("mpishim: %w", err)
	}
	path := filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "", fmt.Errorf("mpishim: %w", err)
	}
	return path, nil
}

func mpicc(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "mpicc", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("mpishim: mpicc %v: %w\n%s", args, err, out.Bytes())
	}
	return nil
}

// Build compiles the shim into dir/libsuperstep-mpishim.so with
// `mpicc -shared -fPIC -O2 ... -lopen-trace-format2` and returns its path.
func Build(dir string) (libPath string, err error) {
	src, err := writeSource(dir, "superstep_mpishim.c")
	if err != nil {
		return "", err
	}
	lib := filepath.Join(dir, LibName)
	if err := mpicc(context.Background(), "-shared", "-fPIC", "-O2", "-o", lib,
		src, "-lopen-trace-format2"); err != nil {
		return "", err
	}
	return lib, nil
}

// BuildProgram compiles testdata/<name>.c ("grid" or "ring") into dir/<name>
// and returns the executable's path.
func BuildProgram(dir, name string) (string, error) {
	if name != "grid" && name != "ring" {
		return "", fmt.Errorf("mpishim: no example program %q (grid or ring)", name)
	}
	src, err := writeSource(dir, "testdata/"+name+".c")
	if err != nil {
		return "", err
	}
	exe := filepath.Join(dir, name)
	if err := mpicc(context.Background(), "-O2", "-o", exe, src); err != nil {
		return "", err
	}
	return exe, nil
}

// Options say how Run starts a job. The zero value runs the program plainly.
type Options struct {
	// Shim is the path of the library from Build; when set the job runs
	// with LD_PRELOAD=Shim.
	Shim string
	// TraceDir is passed as SUPERSTEP_OTF2_DIR (the archive is
	// TraceDir/traces.otf2). It must not exist yet or be empty.
	TraceDir string
	// MonitorPrefix, when set, turns on Open MPI's pml_monitoring (enable 2,
	// output 3): every rank writes MonitorPrefix.<rank>.prof at the end.
	MonitorPrefix string
	// Env holds extra NAME=value pairs exported to every rank.
	Env []string
}

// Run starts np ranks of prog with args under mpirun (as root, with
// --oversubscribe and mpi_yield_when_idle so that more ranks than cores
// work) and returns the combined output.
func Run(ctx context.Context, np int, prog string, args []string, opt Options) ([]byte, error) {
	if np < 1 {
		return nil, fmt.Errorf("mpishim: np = %d, want >= 1", np)
	}
	a := []string{"--oversubscribe", "--allow-run-as-root", "--mca", "mpi_yield_when_idle", "1"}
	if opt.MonitorPrefix != "" {
		a = append(a, "--mca", "pml_monitoring_enable", "2", "--mca", "pml_monitoring_enable_output", "3",
			"--mca", "pml_monitoring_filename", opt.MonitorPrefix)
	}
	if opt.Shim != "" {
		a = append(a, "-x", "LD_PRELOAD="+opt.Shim)
	}
	if opt.TraceDir != "" {
		a = append(a, "-x", "SUPERSTEP_OTF2_DIR="+opt.TraceDir)
	}
	for _, e := range opt.Env {
		a = append(a, "-x", e)
	}
	a = append(a, "-np", strconv.Itoa(np), prog)
	a = append(a, args...)
	cmd := exec.CommandContext(ctx, "mpirun", a...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("mpishim: mpirun %v: %w\n%s", a, err, out.Bytes())
	}
	return out.Bytes(), nil
}
