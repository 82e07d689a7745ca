// Command bench is the Go half of compare.sh, which times Superstep's
// Louvain against igraph's community_multilevel on the same planted
// graph.
//
//	bench gen [flags] DIR   write DIR/graph.txt (edge list "u v", ids 0..n-1)
//	                        and DIR/planted.txt (vertex i's community on line i+1)
//	bench run [flags] DIR   time community.Louvain on DIR/graph.txt and write
//	                        DIR/ours.txt (membership as planted.txt) and
//	                        DIR/ours.json (modularity, times, NMI)
//
// Only the community detection is timed, not reading the file.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"superstep/algo/community"
	"superstep/datasets"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: bench gen [flags] DIR | bench run [flags] DIR")
	os.Exit(2)
}

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	var o datasets.PlantedOptions
	fs.IntVar(&o.N, "n", 64000, "vertices")
	fs.Float64Var(&o.AvgDegree, "k", 25, "mean degree")
	fs.IntVar(&o.MaxDegree, "maxk", 250, "largest degree")
	fs.Float64Var(&o.Mixing, "mu", 0.18, "mixing parameter")
	fs.IntVar(&o.MinCommunity, "minc", 50, "smallest community")
	fs.IntVar(&o.MaxCommunity, "maxc", 1000, "largest community")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	dir := fs.Arg(0)
	t0 := time.Now()
	g, comm, err := datasets.Planted(o)
	if err != nil {
		return err
	}
	took := time.Since(t0)
	if err := writeLines(filepath.Join(dir, "graph.txt"), func(w *bufio.Writer) {
		for u := 0; u < g.NumVertices(); u++ {
			for _, v := range g.Neighbors(u) {
				if int(v) > u {
					w.WriteString(strconv.Itoa(u))
					w.WriteByte(' ')
					w.WriteString(strconv.Itoa(int(v)))
					w.WriteByte('\n')
				}
			}
		}
	}); err != nil {
		return err
	}
	if err := writeMembership(filepath.Join(dir, "planted.txt"), comm); err != nil {
		return err
	}
	fmt.Printf("planted graph: %d vertices, %d edges, %d communities, mixing %g, degrees %g mean / %d max, communities %d..%d, seed %d; generated in %.2f s\n",
		g.NumVertices(), g.NumEdges(), slices.Max(comm)+1, o.Mixing, o.AvgDegree, o.MaxDegree, o.MinCommunity, o.MaxCommunity, o.Seed, took.Seconds())
	return nil
}

// report is what run writes to ours.json.
type report struct {
	Modularity  float64   `json:"modularity"`
	Communities int       `json:"communities"`
	Seconds     []float64 `json:"seconds"`
	Levels      []float64 `json:"level_modularity"`
	NMI         float64   `json:"nmi_planted"`
	Workers     int       `json:"workers"`
	GoVersion   string    `json:"go_version"`
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	repeat := fs.Int("repeat", 5, "timed runs")
	seed := fs.Uint64("seed", 1, "Louvain's seed")
	workers := fs.Int("workers", 0, "Options.Workers (0: GOMAXPROCS)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	dir := fs.Arg(0)
	g, err := datasets.LoadEdgeList(filepath.Join(dir, "graph.txt"), false)
	if err != nil {
		return err
	}
	planted, err := readMembership(filepath.Join(dir, "planted.txt"))
	if err != nil {
		return err
	}
	opts := community.Options{Seed: *seed, Workers: *workers}
	rep := report{Workers: *workers, GoVersion: runtime.Version()}
	if rep.Workers == 0 {
		rep.Workers = runtime.GOMAXPROCS(0)
	}
	var r community.Result
	for i := 0; i < max(1, *repeat); i++ {
		runtime.GC()
		t0 := time.Now()
		if r, err = community.Louvain(context.Background(), g, opts); err != nil {
			return err
		}
		rep.Seconds = append(rep.Seconds, time.Since(t0).Seconds())
	}
	// The reader numbers vertices by first appearance: back to file ids.
	// A vertex without edges is in no line of the file; it gets a
	// community of its own.
	ours := make([]int32, len(planted))
	for i := range ours {
		ours[i] = -1
	}
	for v, c := range r.Membership {
		ours[g.ID(v)] = c
	}
	next := int32(r.NumCommunities)
	for i, c := range ours {
		if c < 0 {
			ours[i] = next
			next++
		}
	}
	rep.Modularity = r.Modularity
	rep.Communities = r.NumCommunities
	rep.Levels = r.LevelModularity
	rep.NMI = community.NMI(ours, planted)
	if err := writeMembership(filepath.Join(dir, "ours.txt"), ours); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "ours.json"), b, 0o644)
}

func writeLines(path string, fill func(w *bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fill(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeMembership(path string, comm []int32) error {
	return writeLines(path, func(w *bufio.Writer) {
		for _, c := range comm {
			w.WriteString(strconv.Itoa(int(c)))
			w.WriteByte('\n')
		}
	})
}

func readMembership(path string) ([]int32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var comm []int32
	for i, line := range strings.Fields(string(b)) {
		c, err := strconv.ParseInt(line, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		comm = append(comm, int32(c))
	}
	return comm, nil
}
