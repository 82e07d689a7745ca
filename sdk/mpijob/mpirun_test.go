package mpijob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"superstep/algo/community"
	"superstep/algo/partition"
	"superstep/algo/sequential"
	"superstep/algo/vertex"
	"superstep/datasets"
	"superstep/sdk/bsp"
	"superstep/sdk/mpijob/mpijobtest"
	"superstep/sdk/profile"
	"superstep/topology/cluster"
)

func needWorker(t *testing.T) string { return mpijobtest.Worker(t) }

// launch runs spec under mpirun with n ranks.
func launch(t *testing.T, ctx context.Context, spec *Spec, n int, opt Options) (*Result, error) {
	t.Helper()
	opt.Worker = needWorker(t)
	opt.Ranks = n
	if spec.Out == "" {
		spec.Out = t.TempDir()
	}
	return Launch(ctx, spec, opt)
}

// TestMPIPageRank: PageRank on the 4elt mesh on 2, 4 and 8 MPI ranks with
// the in-process engine's partition: 91,756 messages in every full
// superstep, the same count for every ordered pair of ranks in every
// superstep, values within 1e-12 (in fact equal: the same messages are
// summed in the same order), and a live heartbeat.
func TestMPIPageRank(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("%d-ranks", n), func(t *testing.T) {
			var beats int
			res, err := launch(t, context.Background(), &Spec{Graph: "4elt", Program: "pagerank", Params: map[string]float64{"iterations": 8}}, n,
				Options{OnStep: func(p *profile.Profile, s profile.Step) { beats++ }})
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Output)
			}
			want := inProcess(t, "4elt", vertex.PageRank{Iterations: 8}, n)
			if res.Supersteps != want.Supersteps || beats != want.Supersteps {
				t.Fatalf("%d supersteps, %d heartbeats; in-process %d", res.Supersteps, beats, want.Supersteps)
			}
			worst := 0.0
			for i, x := range want.Values {
				worst = math.Max(worst, math.Abs(res.Values[i]-x)/x)
			}
			if worst > 1e-12 {
				t.Errorf("values differ by up to %g relative", worst)
			}
			for s, st := range res.Profile.Steps {
				var total int64
				for i, m := range st.Messages {
					total += m
					if w := want.Profile.Steps[s].Messages[i]; m != w {
						t.Fatalf("superstep %d, ranks %d→%d: %d messages, in-process %d", s, i/n, i%n, m, w)
					}
				}
				if s < 8 && total != 91756 {
					t.Errorf("superstep %d: %d messages, want 91,756", s, total)
				}
				for w, ws := range st.Workers {
					if ws.Compute <= 0 || ws.Wait < 0 || ws.Comm <= 0 {
						t.Errorf("superstep %d rank %d: compute %v wait %v comm %v, want measured times", s, w, ws.Compute, ws.Wait, ws.Comm)
					}
				}
			}
			host, _ := os.Hostname()
			if h := res.Profile.Cluster.Hosts; len(h) != 1 || !strings.HasPrefix(host, h[0].Name) {
				t.Errorf("hosts %+v on %s", h, host)
			}
		})
	}
}

// TestMPISSSP: SSSP from vertex 0 on the cti mesh on 4 ranks equals
// sequential Dijkstra; the buggy SSSP reaches the same distances.
func TestMPISSSP(t *testing.T) {
	g, _ := datasets.Open("cti")
	want := sequential.Dijkstra(g, 0)
	for _, prog := range []string{"sssp", "buggy-sssp"} {
		spec := &Spec{Graph: "cti", Program: prog, MaxSupersteps: 200}
		res, err := launch(t, context.Background(), spec, 4, Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", prog, err, res.Output)
		}
		for v, d := range want {
			if res.Values[v] != d {
				t.Fatalf("%s: vertex %d at %v, Dijkstra %v", prog, v, res.Values[v], d)
			}
		}
		if prog == "sssp" && !res.Halted {
			t.Errorf("sssp did not halt in %d supersteps", res.Supersteps)
		}
	}
}

// TestMPILouvain: Louvain's local moving on cti, 4 ranks, reaches the
// in-process modularity within 0.001 (0.374 for seed 1: one level of
// local moving, no aggregation).
func TestMPILouvain(t *testing.T) {
	g, _ := datasets.Open("cti")
	opts := vertex.LouvainOptions{Seed: 1}
	in := vertex.NewLouvain(g, opts)
	cl, _ := cluster.Single(4)
	if _, err := bsp.Run(context.Background(), g, in, in.Config(bsp.Config{Cluster: cl, Partition: partition.Hash(g, 4)})); err != nil {
		t.Fatal(err)
	}
	want := in.Modularity()
	res, err := launch(t, context.Background(), &Spec{Graph: "cti", Program: "louvain", Params: map[string]float64{"seed": 1}}, 4, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Output)
	}
	member := make([]int32, len(res.Values))
	for v, c := range res.Values {
		member[v] = int32(c)
	}
	got := community.Modularity(g, member, 1)
	t.Logf("modularity on 4 ranks %.6f, in process %.6f", got, want)
	if math.Abs(got-want) > 0.001 || want < 0.3 {
		t.Errorf("modularity %.6f on 4 ranks, %.6f in process", got, want)
	}
}

// ranksOf lists the live (not zombie) processes whose command line
// mentions spec: mpirun and its ranks.
func ranksOf(spec string) []string {
	var live []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err != nil || !bytes.Contains(cmdline, []byte(spec)) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + d.Name() + "/stat")
		if bytes.Contains(stat, []byte(") Z ")) {
			continue
		}
		live = append(live, d.Name()+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return live
}

// waitNoRanks fails unless every process of spec is gone within limit.
func waitNoRanks(t *testing.T, spec string, limit time.Duration) {
	t.Helper()
	start := time.Now()
	for {
		live := ranksOf(spec)
		if len(live) == 0 {
			return
		}
		if time.Since(start) > limit {
			t.Fatalf("processes left %v after the job ended:\n%s", limit, strings.Join(live, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMPIKilledRank: a rank killed with SIGKILL in the middle of a job
// ends it with an error naming the rank, and leaves no mpirun or worker.
func TestMPIKilledRank(t *testing.T) {
	out := t.TempDir()
	specPath := filepath.Join(out, SpecFile)
	var once sync.Once
	killed := -1
	spec := &Spec{Graph: "cti", Program: "pagerank", Params: map[string]float64{"iterations": 100000}, MaxSupersteps: 100000, Out: out}
	res, err := launch(t, context.Background(), spec, 4, Options{OnStep: func(p *profile.Profile, s profile.Step) {
		if s.Superstep < 3 {
			return
		}
		once.Do(func() {
			// The last rank's worker process: the highest pid of the job's
			// workers, mpirun's children.
			for _, line := range ranksOf(specPath) {
				f := strings.Fields(line)
				if len(f) > 1 && strings.HasSuffix(f[1], "superstep-worker") {
					pid, _ := strconv.Atoi(f[0])
					if pid > killed {
						killed = pid
					}
				}
			}
			if killed > 0 {
				_ = syscall.Kill(killed, syscall.SIGKILL)
			}
		})
	}})
	if killed <= 0 {
		t.Fatalf("no worker to kill; job: %v", err)
	}
	if err == nil {
		t.Fatal("the job succeeded with a killed rank")
	}
	if !strings.Contains(err.Error(), "rank") || !strings.Contains(err.Error(), "signal 9") {
		t.Errorf("error does not name the killed rank: %v\noutput:\n%s", err, res.Output)
	}
	t.Logf("killed pid %d: %v", killed, err)
	waitNoRanks(t, specPath, 5*time.Second)
}

// TestMPIInterrupt: cancelling the context (a notebook interrupt) ends
// every rank and mpirun, and the error wraps context.Canceled.
func TestMPIInterrupt(t *testing.T) {
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spec := &Spec{Graph: "cti", Program: "pagerank", Params: map[string]float64{"iterations": 100000}, MaxSupersteps: 100000, Out: out}
	start := time.Now()
	var stopped time.Time
	_, err := launch(t, ctx, spec, 4, Options{OnStep: func(p *profile.Profile, s profile.Step) {
		if s.Superstep == 3 {
			stopped = time.Now()
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	t.Logf("stopped %v after the interrupt (job ran %v)", time.Since(stopped).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	waitNoRanks(t, filepath.Join(out, SpecFile), 5*time.Second)
}

// TestLaunchWithoutMPI: with no mpirun on PATH, Launch says what to
// install.
func TestLaunchWithoutMPI(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Launch(context.Background(), &Spec{Graph: "karate", Program: "pagerank", Out: t.TempDir()}, Options{})
	if !errors.Is(err, ErrNoMPI) || !strings.Contains(err.Error(), "apt-get install openmpi-bin") {
		t.Errorf("got %v", err)
	}
}
