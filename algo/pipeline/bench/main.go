// Command bench compares the community-seeded pipeline with plain SFDP on
// planted-community graphs, the way issue 4 asks: for each graph and
// seed, both run in the same process one after the other, with the same
// energy model (-attraction, default the pipeline's); it prints the time
// ratio, the thesis's correlation test (pipeline against plain SFDP with
// the same seed, next to two plain runs that differ only in seed), both
// layouts' share of a vertex's 10 nearest drawn neighbours in its planted
// community (quality.GroupShare), and the paired differences of their
// quality, with standard errors over graphs × seeds.
//
//	go run ./algo/pipeline/bench                    # 20,000 vertices, μ 0.1–0.3
//	go run ./algo/pipeline/bench -attraction 3      # Hu's model, as the thesis
//	go run ./algo/pipeline/bench -n 64000 -deg 25 -maxdeg 250 -mu 0.18 -minc 50 -maxc 1000
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"
	"time"

	"superstep/algo/layout"
	"superstep/algo/pipeline"
	"superstep/algo/quality"
	"superstep/datasets"
	"superstep/sdk/graph"
)

type scores struct{ ms, hop, stress, np, share float64 }

func measure(g *graph.Graph, planted []int32, pos []float64, d time.Duration) scores {
	return scores{float64(d.Microseconds()) / 1000, quality.HopCorrelation(g, pos, 30, 7),
		quality.Stress(g, pos, 30, 7), quality.NeighbourhoodPreservation(g, pos, 3000, 7),
		quality.GroupShare(pos, planted, 10, 3000, 7)}
}

// meanSE is a sample's mean and the standard error of that mean.
func meanSE(x []float64) (float64, float64) {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	if len(x) < 2 {
		return m, math.NaN()
	}
	return m, math.Sqrt(ss/float64(len(x)-1)) / math.Sqrt(float64(len(x)))
}

func main() {
	n := flag.Int("n", 20000, "vertices")
	deg := flag.Float64("deg", 15, "mean degree")
	maxdeg := flag.Int("maxdeg", 225, "largest degree")
	mus := flag.String("mu", "0.1,0.2,0.3", "mixing parameters, comma separated")
	minc := flag.Int("minc", 30, "smallest community")
	maxc := flag.Int("maxc", 800, "largest community")
	graphs := flag.Int("graphs", 3, "graphs (generator seeds) per mixing parameter")
	seeds := flag.Int("seeds", 3, "layout seeds per graph")
	attraction := flag.Float64("attraction", pipeline.DefaultAttraction, "energy model of both (layout.Options.Attraction)")
	flag.Parse()
	ctx := context.Background()
	fmt.Printf("%-5s %9s %9s %6s | %-14s %-14s | %-11s %-11s | %-16s %-16s %-16s\n", "mu", "plain ms", "pipe ms", "ratio",
		"r(pipe,plain)", "r(plain,plain')", "share plain", "share pipe", "Δhop corr", "Δstress", "Δneighbourhood")
	for _, field := range strings.Split(*mus, ",") {
		mu, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
		if err != nil {
			log.Fatalf("-mu: %v", err)
		}
		var tPlain, tPipe float64
		var rPipe, rPlain, dHop, dStress, dNP, sPlain, sPipe []float64
		for gs := 1; gs <= *graphs; gs++ {
			g, planted, err := datasets.Planted(datasets.PlantedOptions{N: *n, AvgDegree: *deg, MaxDegree: *maxdeg,
				Mixing: mu, MinCommunity: *minc, MaxCommunity: *maxc, Seed: uint64(gs)})
			if err != nil {
				log.Fatal(err)
			}
			var plains, pipes [][]float64
			for s := 1; s <= *seeds; s++ {
				t0 := time.Now()
				plain, err := layout.SFDP(ctx, g, layout.Options{Seed: uint64(s), Attraction: *attraction})
				if err != nil {
					log.Fatal(err)
				}
				a := measure(g, planted, plain, time.Since(t0))
				t0 = time.Now()
				res, err := pipeline.Layout(ctx, g, pipeline.Options{Seed: uint64(s), Attraction: *attraction})
				if err != nil {
					log.Fatal(err)
				}
				b := measure(g, planted, res.Positions, time.Since(t0))
				sPlain = append(sPlain, a.share)
				sPipe = append(sPipe, b.share)
				tPlain += a.ms
				tPipe += b.ms
				dHop = append(dHop, b.hop-a.hop)
				dStress = append(dStress, b.stress-a.stress)
				dNP = append(dNP, b.np-a.np)
				plains = append(plains, plain)
				pipes = append(pipes, res.Positions)
			}
			for i := range plains {
				rPipe = append(rPipe, quality.PairwiseCorrelation(pipes[i], plains[i], 0.1, 7))
				if len(plains) > 1 {
					rPlain = append(rPlain, quality.PairwiseCorrelation(plains[i], plains[(i+1)%len(plains)], 0.1, 7))
				}
			}
		}
		runs := float64(len(dHop))
		pm := func(x []float64, f string) string {
			m, se := meanSE(x)
			return fmt.Sprintf(f+"±%.4f", m, se)
		}
		mean := func(x []float64) string { m, _ := meanSE(x); return fmt.Sprintf("%.3f", m) }
		fmt.Printf("%-5.2f %9.1f %9.1f %6.3f | %-14s %-14s | %-11s %-11s | %-16s %-16s %-16s\n", mu, tPlain/runs, tPipe/runs, tPipe/tPlain,
			pm(rPipe, "%.3f"), pm(rPlain, "%.3f"), mean(sPlain), mean(sPipe), pm(dHop, "%+.4f"), pm(dStress, "%+.4f"), pm(dNP, "%+.4f"))
	}
	fmt.Println("Δ = pipeline − plain, paired by graph and seed (mean ± standard error); higher hop correlation and")
	fmt.Println("neighbourhood preservation are better, lower stress is better.")
}
