// Package mpijob runs vertex programs on MPI ranks: what a job is (Spec,
// written as JSON by whoever starts it and read by every rank), what each
// rank does with it (Work, given a bsp.Transport), and how a kernel starts
// and follows one (Launch: mpirun in its own process group, the heartbeat
// from rank 0's capture, the values and profile from its output
// directory).
//
// It is pure Go and knows no MPI call: cmd/superstep-worker wraps the cgo
// binding sdk/bsp/mpi in a bsp.Transport and calls Work, so the kernel and
// the SDK never link MPI. Tests run Work on goroutines joined by
// bsp.Loopback, and the worker under mpirun.
package mpijob

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Spec is one job on MPI ranks. Every rank reads the same Spec, the same
// graph file and the same partition, and keeps its own vertices' arcs.
type Spec struct {
	// Name names the job in its profile ("" names it after the program).
	Name string `json:"name,omitempty"`
	// Graph is a graph file that datasets.Load reads (METIS, edge list,
	// GML, Matrix Market; .gz too), or the name of a data set shipped
	// with Superstep ("4elt", "cti", "karate", …).
	Graph string `json:"graph"`
	// Program is a built-in vertex program (see Programs), or with Source
	// the name of the job's program written in a cell.
	Program string `json:"program"`
	// Source, if set, is the program: written in notebook cells and
	// interpreted by every rank.
	Source *Source `json:"source,omitempty"`
	// Params are the program's parameters by name (see Programs).
	Params map[string]float64 `json:"params,omitempty"`
	// Partition is a file holding one little-endian int32 per vertex: the
	// rank that computes it. "" partitions with Partitioner.
	Partition string `json:"partition,omitempty"`
	// Partitioner is "hash" (the default: the in-process engine's) or
	// "range", computed by every rank alike.
	Partitioner string `json:"partitioner,omitempty"`
	// MaxSupersteps caps the job (0: the program's cap, else 1000).
	MaxSupersteps int `json:"max_supersteps,omitempty"`
	// Out is the directory rank 0 writes: capture.msgpack (the profile,
	// streamed superstep by superstep), profile/ (its Parquet tables),
	// values.f64 (every vertex's value, little-endian float64) and
	// result.json (see Outcome).
	Out string `json:"out"`
}

// Files rank 0 writes in Spec.Out.
const (
	CaptureFile = "capture.msgpack"
	ProfileDir  = "profile"
	ValuesFile  = "values.f64"
	ResultFile  = "result.json"
	SpecFile    = "spec.json"
)

// Validate checks what can be checked before any rank starts.
func (s *Spec) Validate() error {
	switch {
	case s.Graph == "":
		return fmt.Errorf("mpijob: the spec names no graph")
	case s.Out == "":
		return fmt.Errorf("mpijob: the spec names no output directory")
	case s.Program == "":
		return fmt.Errorf("mpijob: the spec names no program (want one of %s)", strings.Join(Programs(), ", "))
	case s.MaxSupersteps < 0:
		return fmt.Errorf("mpijob: max supersteps %d, want 0 or more", s.MaxSupersteps)
	}
	if s.Source != nil {
		if len(s.Params) > 0 {
			return fmt.Errorf("mpijob: a program from cells takes its parameters in its value, not in params")
		}
		if err := s.Source.Validate(); err != nil {
			return err
		}
	} else if !slices.Contains(Programs(), s.Program) {
		return fmt.Errorf("mpijob: no built-in program %q; there are %s", s.Program, strings.Join(Programs(), ", "))
	}
	switch s.Partitioner {
	case "", "hash", "range":
	default:
		return fmt.Errorf("mpijob: partitioner %q: ranks compute hash or range themselves; give any other partition as a file (Partition)", s.Partitioner)
	}
	return nil
}

// Save writes the spec as JSON to path.
func (s *Spec) Save(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// LoadSpec reads a spec written by Save and validates it.
func LoadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Spec
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// WritePartition writes part as Spec.Partition expects it.
func WritePartition(path string, part []int32) error {
	b := make([]byte, 4*len(part))
	for i, p := range part {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(p), byte(p>>8), byte(p>>16), byte(p>>24)
	}
	return os.WriteFile(path, b, 0o644)
}

// readPartition reads a partition file for n vertices and k ranks.
func readPartition(path string, n, k int) ([]int32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) != 4*n {
		return nil, fmt.Errorf("partition %s: %d bytes, want 4 per vertex (%d)", filepath.Base(path), len(b), 4*n)
	}
	part := make([]int32, n)
	for v := range part {
		p := int32(uint32(b[4*v]) | uint32(b[4*v+1])<<8 | uint32(b[4*v+2])<<16 | uint32(b[4*v+3])<<24)
		if p < 0 || int(p) >= k {
			return nil, fmt.Errorf("partition %s: vertex %d on rank %d, want 0..%d", filepath.Base(path), v, p, k-1)
		}
		part[v] = p
	}
	return part, nil
}
