// Command corpus runs Superstep's readers over public traces and fabric
// files that other tools wrote, and prints one row per file: the reader
// that took it, whether it opened, its figures, its warnings and the time
// it took. It is how the readers are checked against files nobody here
// made; run it before calling a reader done.
//
//	go run ./internal/corpus [-cache DIR] [-fetch] [-shared DIR]
//
// The files come from the public repositories listed in sources into a
// cache outside this repository (default $HOME/.cache/superstep-corpus):
// several of them carry no licence, so none is committed. -fetch fills
// the cache: from a local mirror of a repository when
// $SUPERSTEP_MIRROR/<owner>+<name>/repo holds one (default /work/.mirror,
// how these machines reach GitHub), else with git clone from GitHub. A
// file listed in a snapshot whose content is absent (large files often
// are) is reported as missing. -shared adds the project's own data folder
// (../shared/data beside the checkout).
//
// ibsim's example fabrics are topology inputs, not discovery output: each
// is run in ibsim and read back as ibnetdiscover prints it, which needs
// Debian's ibsim-utils and infiniband-diags (skipped without them).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"superstep/sdk"
	"superstep/topology/fattree"
	"superstep/topology/infiniband"
	"superstep/topology/torus/boxfish"
)

// source is a public repository and the folders of it the corpus takes.
type source struct {
	repo  string
	paths []string
	what  string
}

var sources = []source{
	{"hydroo/sc16-vpa-edge-bundling-for-visualizing-communication-behavior",
		[]string{"tachyon-253p", "lulesh-016p-2-iterations", "fd4-01024p"}, "the edge-bundling paper's OTF v1 traces (VampirTrace)"},
	{"hpcgroup/pipit", []string{"pipit/tests/data"}, "Pipit's test traces (Score-P OTF2, one with PAPI metrics)"},
	{"LLNL/boxfish", []string{"example-data"}, "Boxfish's Blue Gene/P torus counters"},
	{"linux-rdma/ibsim", []string{"net-examples"}, "ibsim's example fabrics"},
}

// row is one file's result.
type row struct {
	file, reader, result, figures string
	warnings                      int
	took                          time.Duration
}

func main() {
	home, _ := os.UserHomeDir()
	cache := flag.String("cache", filepath.Join(home, ".cache", "superstep-corpus"), "folder of the fetched files")
	fetch := flag.Bool("fetch", false, "fetch the sources into the cache first")
	shared := flag.String("shared", "", "also read this folder (the project's ../shared/data)")
	flag.Parse()
	if *fetch {
		for _, s := range sources {
			if err := fetchSource(*cache, s); err != nil {
				fmt.Fprintln(os.Stderr, "corpus:", err)
			}
		}
	}
	roots := []string{*cache}
	if *shared != "" {
		roots = append(roots, *shared)
	}
	var rows []row
	for _, root := range roots {
		rows = append(rows, readAll(root)...)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "file\treader\tresult\tfigures\twarnings\ttime")
	opened := 0
	for _, r := range rows {
		if r.result == "opened" {
			opened++
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", r.file, r.reader, r.result, r.figures, r.warnings, r.took.Round(time.Millisecond))
	}
	w.Flush()
	fmt.Printf("%d of %d opened\n", opened, len(rows))
}

// fetchSource copies a source's folders into cache/<owner>+<name>.
func fetchSource(cache string, s source) error {
	name := strings.ReplaceAll(s.repo, "/", "+")
	dst := filepath.Join(cache, name)
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	mirror := os.Getenv("SUPERSTEP_MIRROR")
	if mirror == "" {
		mirror = "/work/.mirror"
	}
	gitDir := filepath.Join(mirror, name, "repo")
	if _, err := os.Stat(filepath.Join(gitDir, ".git")); err == nil {
		gitDir = filepath.Join(gitDir, ".git")
	}
	if _, err := os.Stat(gitDir); err != nil {
		tmp, err := os.MkdirTemp("", "corpus-clone-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		clone := exec.Command("git", "clone", "--quiet", "--depth", "1", "--bare", "https://github.com/"+s.repo, tmp+"/repo")
		if out, err := clone.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: no mirror in %s and git clone failed: %v\n%s", s.repo, mirror, err, out)
		}
		gitDir = tmp + "/repo"
	}
	git := func(args ...string) ([]byte, error) {
		return exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...).Output()
	}
	list, err := git(append([]string{"ls-tree", "-r", "HEAD", "--"}, s.paths...)...)
	if err != nil {
		return fmt.Errorf("%s: git ls-tree: %w", s.repo, err)
	}
	missing := 0
	for _, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue
		}
		blob, err := git("cat-file", "blob", f[2])
		if err != nil {
			missing++
			fmt.Fprintf(os.Stderr, "corpus: %s: %s is missing in the snapshot\n", s.repo, path)
			continue
		}
		out := filepath.Join(dst, path)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, blob, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "corpus: %s (%s) into %s, %d files missing\n", s.repo, s.what, dst, missing)
	return nil
}

// readAll runs the reader each file calls for, for every file under root.
func readAll(root string) []row {
	var rows []row
	traceDirs := map[string]bool{} // folders of monitoring files already read
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		name := d.Name()
		switch {
		case strings.HasSuffix(name, ".otf2"), strings.HasSuffix(name, ".otf"):
			rows = append(rows, openTrace(rel, path))
		case strings.HasSuffix(name, ".prof") && !traceDirs[filepath.Dir(path)]:
			traceDirs[filepath.Dir(path)] = true
			rows = append(rows, openTrace(rel, path))
		case strings.HasSuffix(name, "_meta.yaml"):
			rows = append(rows, readBoxfish(rel, path))
		case strings.HasSuffix(filepath.Dir(path), "net-examples") && strings.HasPrefix(name, "net"):
			rows = append(rows, readIBSim(rel, path))
		}
		return nil
	})
	for i := range rows { // errors name files relative to the cache, as the rows do
		rows[i].result = strings.ReplaceAll(rows[i].result, root+string(filepath.Separator), "")
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.file, b.file) })
	return rows
}

func openTrace(rel, path string) row {
	r := row{file: rel, reader: "sdk.OpenTrace"}
	t0 := time.Now()
	f, err := sdk.OpenTrace(context.Background(), path)
	r.took = time.Since(t0)
	if err != nil {
		r.result = "error: " + firstLine(err.Error())
		return r
	}
	r.reader += " (" + f.Format + ")"
	r.result = "opened"
	r.warnings = len(f.Warnings())
	if f.Trace != nil {
		r.figures = fmt.Sprintf("%d processes, %d messages, %d unmatched", len(f.Trace.Processes), len(f.Trace.Messages), len(f.Trace.Unmatched))
	} else {
		msgs, _, pairs := f.Monitoring.External()
		r.figures = fmt.Sprintf("%d ranks, %d messages, %d pairs", f.Monitoring.Ranks, msgs, pairs)
	}
	return r
}

func readBoxfish(rel, path string) row {
	r := row{file: rel, reader: "boxfish.Read"}
	t0 := time.Now()
	run, err := boxfish.Read(path)
	r.took = time.Since(t0)
	if err != nil {
		r.result = "error: " + firstLine(err.Error())
		return r
	}
	defer run.Release()
	r.result = "opened"
	r.warnings = len(run.Warnings)
	r.figures = fmt.Sprintf("%s, %d link rows, %d node rows", run.Torus, rows(run.Links), rows(run.Nodes))
	return r
}

func rows(t interface{ NumRows() int64 }) int64 {
	if t == nil {
		return 0
	}
	return t.NumRows()
}

// readIBSim runs ibsim on an ibsim topology file, reads ibnetdiscover's
// view of it and infers the fat tree.
func readIBSim(rel, path string) row {
	r := row{file: rel, reader: "ibsim + ibnetdiscover → infiniband.ReadIBNetDiscover, fattree.Infer"}
	sim, _ := filepath.Glob("/usr/lib/*/umad2sim/libumad2sim.so")
	if _, err := exec.LookPath("ibsim"); err != nil || len(sim) == 0 {
		r.result = "skipped: ibsim-utils is not installed"
		return r
	}
	if _, err := exec.LookPath("ibnetdiscover"); err != nil {
		r.result = "skipped: infiniband-diags is not installed"
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	work, err := os.MkdirTemp("", "corpus-ibsim-")
	if err != nil {
		r.result = "error: " + err.Error()
		return r
	}
	defer os.RemoveAll(work)
	abs, _ := filepath.Abs(path)
	srv := exec.CommandContext(ctx, "ibsim", "-s", abs)
	srv.Dir = work
	var log bytes.Buffer
	srv.Stdout, srv.Stderr = &log, &log
	if err := srv.Start(); err != nil {
		r.result = "error: ibsim: " + err.Error()
		return r
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	time.Sleep(2 * time.Second)
	disc := exec.CommandContext(ctx, "ibnetdiscover")
	disc.Dir = work
	disc.Env = append(os.Environ(), "LD_PRELOAD="+sim[0])
	out, err := disc.Output()
	if err != nil {
		r.result = "error: ibnetdiscover: " + firstLine(err.Error()+" "+log.String())
		return r
	}
	t0 := time.Now()
	g, warns, err := infiniband.ReadIBNetDiscover(bytes.NewReader(out), rel+" (ibnetdiscover)")
	if err == nil {
		var fw []fattree.Warning
		var f *fattree.Fabric
		f, fw, err = fattree.Infer(g)
		r.warnings = len(warns) + len(fw)
		if err == nil {
			r.figures = fmt.Sprintf("%d devices, %d cables; %s", len(g.Devices), len(g.Cables), firstLine(f.Spec.String()))
		}
	}
	r.took = time.Since(t0)
	if err != nil {
		r.result = "error: " + firstLine(err.Error())
		r.figures = fmt.Sprintf("%d devices, %d cables", len(g.Devices), len(g.Cables))
		return r
	}
	r.result = "opened"
	return r
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
