// Command bench times algo/layout's SFDP against Graphviz's sfdp on the
// same graph in the same run, and measures both layouts' quality; with
// -big it lays out a generated million-vertex graph and reports time and
// peak memory instead. compare.sh beside it runs both.
//
// Compare (the default; needs Graphviz's sfdp on PATH, e.g. apt-get
// install graphviz):
//
//	go run ./algo/layout/bench                 # 64,000-vertex planted graph, ~800,000 edges
//	go run ./algo/layout/bench -runs 3         # three seeds, and the means
//	go run ./algo/layout/bench -n 16000 -v     # smaller, with our progress per level
//
// Random geometric graphs (datasets.RandomGeometric: points uniform in the
// unit square joined within a radius, by default the radius that gives a
// mean degree of 10), a new graph per run (seed, seed+1, …):
//
//	go run ./algo/layout/bench -gen rgg -n 30000 -runs 3
//	go run ./algo/layout/bench -gen rgg -n 30000 -radius 0.012
//
// It makes the planted-community graph (datasets.Planted, LFR-like: mean
// degree 25, degrees up to 500, communities of 50 to 2,000, mixing 0.2),
// or the random geometric graph,
// writes it as a DOT file, runs `sfdp -Gstart=<seed> -Tplain` on it and
// reads the positions, runs our SFDP on the graph in memory with the same
// seed, and prints both wall-clock and CPU times, their ratio, each
// layout's hop-distance correlation, normalised stress and neighbourhood
// preservation (algo/quality), and the Pearson correlation of the two
// layouts' pairwise distances (the thesis's correctness test). Graphviz's
// time includes reading the DOT file and writing its output (-Tplain, the
// smallest); the time of a bare read-and-write of the same file
// (`gvpr -c 'N{}'`) is printed beside it for reference. For a random
// geometric graph it also prints the correlation of each layout's pairwise
// distances with those of the points the graph was made from. -png draws
// both layouts.
//
// Memory:
//
//	go run ./algo/layout/bench -big            # 1,000,000 vertices, 10,000,000 edges (Erdős–Rényi)
//	go run ./algo/layout/bench -big -gen ba    # Barabási–Albert, m = 10
//
// prints the generation and layout times and the process's peak memory
// (the peak resident set from getrusage, and the Go runtime's Sys).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"superstep/algo/layout"
	"superstep/algo/quality"
	"superstep/datasets"
	"superstep/sdk/graph"
)

func main() {
	n := flag.Int("n", 64000, "vertices of the planted graph")
	deg := flag.Float64("deg", 25, "mean degree of the planted graph (edges = n·deg/2)")
	mixing := flag.Float64("mixing", 0.2, "planted graph: fraction of each vertex's edges leaving its community")
	seed := flag.Uint64("seed", 1, "seed of the graph and of our layout")
	workers := flag.Int("workers", 0, "our SFDP's workers (0: GOMAXPROCS)")
	sfdp := flag.String("sfdp", "sfdp", "Graphviz sfdp command")
	gvArgs := flag.String("gvargs", "", "extra sfdp arguments, space-separated (e.g. -Goverlap=true)")
	dir := flag.String("dir", "", "directory for the DOT and output files (default: a temporary one)")
	sources := flag.Int("sources", 64, "BFS sources for hop correlation and stress")
	sample := flag.Int("sample", 10000, "vertices sampled for neighbourhood preservation")
	big := flag.Bool("big", false, "lay out a generated 1,000,000-vertex, 10,000,000-edge graph and report time and peak memory")
	bigN := flag.Int("bign", 1_000_000, "-big: vertices")
	bigM := flag.Int("bigm", 10_000_000, "-big: edges")
	runs := flag.Int("runs", 1, "layouts per program, with seeds seed, seed+1, …")
	pngDir := flag.String("png", "", "directory to draw both layouts into (graphviz.png, superstep.png)")
	verbose := flag.Bool("v", false, "print our SFDP's progress per level")
	gen := flag.String("gen", "", "generator: planted (default) or rgg (random geometric); with -big er (default) or ba (Barabási–Albert, m = bigm/bign)")
	radius := flag.Float64("radius", 0, "-gen rgg: radius (0: √(10/(π·n)), a mean degree of about 10)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	log.SetFlags(0)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}

	if *big {
		if *gen == "" {
			*gen = "er"
		}
		runBig(*bigN, *bigM, *gen, *seed, *workers, *sources, *sample, *verbose)
		return
	}

	// makeGraph makes the graph of a run, and for a random geometric one
	// the points it came from.
	makeGraph := func(seed uint64) (*graph.Graph, []float64) {
		start := time.Now()
		var g *graph.Graph
		var truth []float64
		var err error
		var what string
		switch *gen {
		case "", "planted":
			what = "planted communities (LFR-like)"
			g, _, err = datasets.Planted(datasets.PlantedOptions{
				N: *n, AvgDegree: *deg, MaxDegree: max(int(20**deg), 2), Mixing: *mixing,
				MinCommunity: max(int(2**deg), 1), MaxCommunity: max(int(80**deg), 2), Seed: seed,
			})
		case "rgg":
			r := *radius
			if r == 0 {
				r = math.Sqrt(10 / (math.Pi * float64(*n)))
			}
			what = fmt.Sprintf("random geometric, radius %.5f, seed %d", r, seed)
			g, err = datasets.RandomGeometric(*n, r, seed)
			truth = datasets.RandomGeometricPoints(*n, seed)
		default:
			err = fmt.Errorf("unknown generator %q (planted or rgg)", *gen)
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("graph: %s, %v (mean degree %.2f), made in %v\n", what, g,
			2*float64(g.NumEdges())/float64(g.NumVertices()), time.Since(start).Round(time.Millisecond))
		return g, truth
	}

	if *dir == "" {
		d, err := os.MkdirTemp("", "sfdp-bench-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	dot := filepath.Join(*dir, "graph.dot")
	var g *graph.Graph
	var truth []float64
	var ioTime time.Duration
	w := *workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}

	// Graphviz, then ours, in the same run on the same graph; with -runs,
	// several times with different seeds (Graphviz's start=seed), on one
	// planted graph or on a random geometric graph per seed.
	var gv, us []result
	var ioTimes []time.Duration
	for r := 0; r < *runs; r++ {
		s := *seed + uint64(r)
		if g == nil || *gen == "rgg" {
			g, truth = makeGraph(s)
			if err := writeDOT(g, dot); err != nil {
				log.Fatal(err)
			}
			ioTime = 0
			if path, err := exec.LookPath("gvpr"); err == nil {
				start := time.Now()
				c := exec.Command(path, "-c", "N{}", "-o", filepath.Join(*dir, "copy.dot"), dot)
				if c.Run() == nil {
					ioTime = time.Since(start)
				}
			}
		}
		plain := filepath.Join(*dir, fmt.Sprintf("graph%d.plain", s))
		args := append(strings.Fields(*gvArgs), fmt.Sprintf("-Gstart=%d", s), "-Tplain", "-o", plain, dot)
		fmt.Printf("\nrun %d: %s %s\n", r+1, *sfdp, strings.Join(args, " "))
		start := time.Now()
		cmd := exec.Command(*sfdp, args...)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("graphviz sfdp: %v", err)
		}
		gvTime := time.Since(start)
		gvCPU := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		gvPos, err := readPlain(g, plain)
		if err != nil {
			log.Fatal(err)
		}

		opts := layout.Options{Seed: s, Workers: *workers}
		if *verbose {
			opts.Log = logLine
		}
		cpu0 := cpuTime()
		start = time.Now()
		ours, err := layout.SFDP(context.Background(), g, opts)
		if err != nil {
			log.Fatal(err)
		}
		ourTime := time.Since(start)
		ourCPU := cpuTime() - cpu0

		cor := quality.PairwiseCorrelation(gvPos, ours, 0.1, 7)
		measure := func(t, cpu time.Duration, p []float64) result {
			res := result{time: t, cpu: cpu,
				hop:    quality.HopCorrelation(g, p, *sources, 7),
				stress: quality.Stress(g, p, *sources, 7),
				np:     quality.NeighbourhoodPreservation(g, p, *sample, 7),
				cor:    cor,
				truth:  math.NaN(),
			}
			if truth != nil {
				res.truth = quality.PairwiseCorrelation(truth, p, 0.1, 7)
			}
			return res
		}
		gv = append(gv, measure(gvTime, gvCPU, gvPos))
		us = append(us, measure(ourTime, ourCPU, ours))
		printTable(gv[r:], us[r:], ioTime, w)
		ioTimes = append(ioTimes, ioTime)
		if *pngDir != "" && r == 0 {
			for name, p := range map[string][]float64{"graphviz": gvPos, "superstep": ours} {
				if err := writePNG(g, p, filepath.Join(*pngDir, name+".png"), 900); err != nil {
					log.Fatal(err)
				}
			}
		}
	}
	if *runs > 1 {
		fmt.Printf("\nper run:\n%-4s %10s %10s %7s | %-15s | %-15s | %-15s\n", "run", "graphviz", "superstep", "speed-up",
			"neighbourhood", "stress", "hop corr")
		for r := range gv {
			fmt.Printf("%-4d %10s %10s %6.1f× | %.4f  %.4f | %.4f  %.4f | %.4f  %.4f\n", r+1,
				gv[r].time.Round(time.Millisecond), us[r].time.Round(time.Millisecond), gv[r].time.Seconds()/us[r].time.Seconds(),
				gv[r].np, us[r].np, gv[r].stress, us[r].stress, gv[r].hop, us[r].hop)
		}
		var io time.Duration
		for _, t := range ioTimes {
			io += t
		}
		fmt.Printf("\nmean of %d runs:\n", *runs)
		printTable(gv, us, io/time.Duration(len(ioTimes)), w)
	}
}

// result is one layout's time and quality (cor: its pairwise-distance
// correlation with Graphviz's layout of the same run).
type result struct {
	time, cpu            time.Duration
	hop, stress, np, cor float64
	truth                float64 // correlation with the generating points (NaN: none)
}

// printTable prints the mean times and qualities of the runs.
func printTable(gv, us []result, ioTime time.Duration, workers int) {
	mean := func(rs []result) result {
		var m result
		for _, r := range rs {
			m.time += r.time
			m.cpu += r.cpu
			m.hop += r.hop
			m.stress += r.stress
			m.np += r.np
			m.cor += r.cor
			m.truth += r.truth
		}
		k := float64(len(rs))
		m.time = time.Duration(float64(m.time) / k)
		m.cpu = time.Duration(float64(m.cpu) / k)
		m.hop /= k
		m.stress /= k
		m.np /= k
		m.cor /= k
		m.truth /= k
		return m
	}
	a, b := mean(gv), mean(us)
	fmt.Printf("%-26s %12s %12s\n", "", "graphviz", "superstep")
	fmt.Printf("%-26s %12s %12s\n", "time (wall clock)", a.time.Round(time.Millisecond), b.time.Round(time.Millisecond))
	fmt.Printf("%-26s %12s %12s\n", "CPU time (user+system)", a.cpu.Round(time.Millisecond), b.cpu.Round(time.Millisecond))
	if ioTime > 0 {
		fmt.Printf("%-26s %12s %12s\n", "  of which DOT I/O ≈", ioTime.Round(time.Millisecond), "-")
	}
	fmt.Printf("%-26s %12s %12d\n", "workers", "1", workers)
	fmt.Printf("%-26s %12.4f %12.4f\n", "hop correlation (higher)", a.hop, b.hop)
	fmt.Printf("%-26s %12.4f %12.4f\n", "stress (lower)", a.stress, b.stress)
	fmt.Printf("%-26s %12.4f %12.4f\n", "neighbourhood pres. (higher)", a.np, b.np)
	if !math.IsNaN(a.truth) {
		fmt.Printf("%-26s %12.4f %12.4f\n", "r with the points (higher)", a.truth, b.truth)
	}
	fmt.Printf("speed-up: %.1f× in wall-clock time (%.1f× in CPU time)", a.time.Seconds()/b.time.Seconds(), a.cpu.Seconds()/b.cpu.Seconds())
	if ioTime > 0 {
		fmt.Printf("; %.1f× without graphviz's DOT I/O", (a.time-ioTime).Seconds()/b.time.Seconds())
	}
	fmt.Println()
	fmt.Printf("pairwise-distance correlation of the two layouts (thesis test, 10%% of pairs, at most %d): %.4f\n", quality.MaxPairs, b.cor)
}

func writeDOT(g *graph.Graph, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "graph G {")
	fmt.Fprintln(w, "node [shape=point];")
	for v := 0; v < g.NumVertices(); v++ {
		fmt.Fprintf(w, "%d;\n", v)
	}
	for v := 0; v < g.NumVertices(); v++ {
		for _, u := range g.Neighbors(v) {
			if int(u) > v || (g.Directed() && int(u) != v) {
				fmt.Fprintf(w, "%d -- %d;\n", v, u)
			}
		}
	}
	fmt.Fprintln(w, "}")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readPlain reads the node positions of Graphviz's -Tplain output
// ("node name x y width height …" lines).
func readPlain(g *graph.Graph, path string) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pos := make([]float64, 2*g.NumVertices())
	seen := make([]bool, g.NumVertices())
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || fields[0] != "node" {
			continue
		}
		id, err1 := strconv.Atoi(strings.Trim(fields[1], `"`))
		x, err2 := strconv.ParseFloat(fields[2], 64)
		y, err3 := strconv.ParseFloat(fields[3], 64)
		if err1 != nil || err2 != nil || err3 != nil || id < 0 || id >= len(seen) {
			return nil, fmt.Errorf("%s:%d: want node <id> <x> <y>, got %q", path, line, sc.Text())
		}
		pos[2*id], pos[2*id+1] = x, y
		seen[id] = true
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for v, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%s: no position for vertex %d", path, v)
		}
	}
	return pos, nil
}

func runBig(n, m int, gen string, seed uint64, workers, sources, sample int, verbose bool) {
	start := time.Now()
	var g *graph.Graph
	var err error
	switch gen {
	case "er":
		g, err = datasets.ErdosRenyi(n, m, false, seed)
	case "ba":
		g, err = datasets.BarabasiAlbert(n, max(m/n, 1), seed)
	default:
		err = fmt.Errorf("unknown generator %q (er or ba)", gen)
	}
	if err != nil {
		log.Fatal(err)
	}
	genTime := time.Since(start)
	fmt.Printf("graph: %s, %v, made in %v\n", gen, g, genTime.Round(time.Millisecond))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("after generation: heap in use %.0f MiB, Sys %.0f MiB\n", mib(ms.HeapInuse), mib(ms.Sys))

	start = time.Now()
	opts := layout.Options{Seed: seed, Workers: workers}
	if verbose {
		opts.Log = logLine
	}
	cpu0 := cpuTime()
	pos, err := layout.SFDP(context.Background(), g, opts)
	if err != nil {
		log.Fatal(err)
	}
	lay := time.Since(start)
	layCPU := cpuTime() - cpu0
	runtime.ReadMemStats(&ms)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	w := workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	fmt.Printf("layout: %v wall clock, %v CPU, %d workers\n", lay.Round(time.Millisecond), layCPU.Round(time.Millisecond), w)
	fmt.Printf("peak memory: max RSS %.0f MiB, Go Sys %.0f MiB (limit 4096 MiB)\n", float64(ru.Maxrss)/1024, mib(ms.Sys))
	start = time.Now()
	fmt.Printf("quality: hop correlation %.3f, stress %.3f, neighbourhood preservation %.3f (%v)\n",
		quality.HopCorrelation(g, pos, sources/8+1, 7), quality.Stress(g, pos, sources/8+1, 7),
		quality.NeighbourhoodPreservation(g, pos, sample, 7), time.Since(start).Round(time.Millisecond))
}

func logLine(format string, args ...any) { fmt.Printf("  sfdp: "+format+"\n", args...) }

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
