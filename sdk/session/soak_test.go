package session

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// soakPlan is the exploratory session of issue 10, scaled: bufs cells each
// redefine a 1 MiB buffer, vars1 cells each define a new small variable,
// funcs cells each redefine a func, then vars2 more new variables.
type soakPlan struct{ bufs, vars1, funcs, vars2 int }

// soakFull is the 3,000-cell session of issue 10.
var soakFull = soakPlan{bufs: 500, vars1: 1000, funcs: 500, vars2: 1000}

// soakMem is the live heap and the resident set size, in bytes.
type soakMem struct{ heap, rss uint64 }

// readSoakMem collects garbage and returns the memory in use.
func readSoakMem() soakMem {
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory() // so that VmRSS is what is live, not what the heap kept
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return soakMem{heap: ms.HeapAlloc, rss: vmRSS()}
}

// vmRSS is VmRSS from /proc/self/status, or 0 where there is none.
func vmRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// soakResult is the memory runSoak measured at the start and after each of
// the plan's four phases.
type soakResult struct{ mem [5]soakMem }

func (r soakResult) heapGrowth() float64 { return mib(r.mem[4].heap) - mib(r.mem[0].heap) }
func (r soakResult) rssGrowth() float64  { return mib(r.mem[4].rss) - mib(r.mem[0].rss) }

// perCellKB is the live heap each cell after the buffer redefinitions added.
func (r soakResult) perCellKB(p soakPlan) float64 {
	n := p.vars1 + p.funcs + p.vars2
	if n == 0 {
		return 0
	}
	return (mib(r.mem[4].heap) - mib(r.mem[1].heap)) * 1024 / float64(n)
}

// runSoak runs the plan on a fresh session, measuring memory at each phase
// boundary if measure is set, and calling releaseCell after every cell if
// release is set (as a session that defers releaseAfterCell does anyway).
// Then it checks that every variable is still there with its last value.
func runSoak(tb testing.TB, p soakPlan, measure, release bool) soakResult {
	tb.Helper()
	ctx := context.Background()
	var r soakResult
	s, err := New(Options{})
	if err != nil {
		tb.Fatal(err)
	}
	mark := func(i int) {
		if measure {
			r.mem[i] = readSoakMem()
		}
	}
	cells := 0
	eval := func(code string) Result {
		tb.Helper()
		cells++
		res, err := s.Eval(ctx, code, cells)
		if err != nil {
			tb.Fatalf("cell %d %q: %v", cells, code, err)
		}
		if release {
			if err := s.releaser.releaseCell(s.interp); err != nil {
				tb.Fatal(err)
			}
		}
		return res
	}
	mark(0)
	for i := 0; i < p.bufs; i++ {
		// Touch every page, so that the buffer is resident.
		eval(fmt.Sprintf("buf := make([]byte, 1<<20)\nfor i := 0; i < len(buf); i += 4096 { buf[i] = %d }", i%251))
	}
	mark(1)
	for i := 0; i < p.vars1; i++ {
		eval(fmt.Sprintf("v%d := %d", i, 7*i+1))
	}
	mark(2)
	for i := 0; i < p.funcs; i++ {
		eval(fmt.Sprintf("func f() int { return %d }", 1000+i))
	}
	mark(3)
	for i := p.vars1; i < p.vars1+p.vars2; i++ {
		eval(fmt.Sprintf("v%d := %d", i, 7*i+1))
	}
	mark(4)

	// Every variable is still there, with its value.
	if nv := p.vars1 + p.vars2; nv > 0 {
		var b strings.Builder
		b.WriteString("[]int{")
		for i := 0; i < nv; i++ {
			fmt.Fprintf(&b, "v%d, ", i)
		}
		b.WriteString("}")
		res := eval(b.String())
		if !res.Shown || res.Value.Len() != nv {
			tb.Fatalf("reading the variables back: got %v", res.Value)
		}
		for i := 0; i < nv; i++ {
			if got := res.Value.Index(i).Int(); got != int64(7*i+1) {
				tb.Fatalf("v%d = %d, want %d", i, got, 7*i+1)
			}
		}
	}
	if p.bufs > 0 {
		want := (p.bufs - 1) % 251
		got := eval("[]int{len(buf), int(buf[0]), int(buf[4096]), int(buf[len(buf)-4096])}").Value.Interface().([]int)
		if got[0] != 1<<20 || got[1] != want || got[2] != want || got[3] != want {
			tb.Fatalf("buf: [len, buf[0], buf[4096], buf[len-4096]] = %v, want [%d %d %d %d]", got, 1<<20, want, want, want)
		}
	}
	if p.funcs > 0 {
		if got, want := eval("f()").Value.Int(), int64(1000+p.funcs-1); got != want {
			tb.Fatalf("f() = %d, want %d (the last definition)", got, want)
		}
	}
	runtime.KeepAlive(s)
	return r
}

// BenchmarkSoakSession runs the 3,000-cell exploratory session of issue 10
// (500 redefinitions of a 1 MiB buffer, 1,000 new small variables, 500
// redefinitions of a func, 1,000 more variables) on a fresh session per
// iteration, as the session runs cells, and reports how much the live heap
// and the resident set grew (after GC) and the live heap each cell after
// the redefinitions added. Issue 10's budget is 100 MB. Every variable must
// still be there at the end. Run it with -benchtime=1x.
func BenchmarkSoakSession(b *testing.B) {
	var heap, rss, perCell float64
	start := time.Now()
	for i := 0; i < b.N; i++ {
		r := runSoak(b, soakFull, true, false)
		heap += r.heapGrowth()
		rss += r.rssGrowth()
		perCell += r.perCellKB(soakFull)
		b.Logf("live heap MB at the start and after each phase: %.1f %.1f %.1f %.1f %.1f; RSS MB %.1f → %.1f",
			mib(r.mem[0].heap), mib(r.mem[1].heap), mib(r.mem[2].heap), mib(r.mem[3].heap), mib(r.mem[4].heap),
			mib(r.mem[0].rss), mib(r.mem[4].rss))
	}
	n := float64(b.N)
	b.ReportMetric(heap/n, "heap-MB")
	b.ReportMetric(rss/n, "rss-MB")
	b.ReportMetric(perCell/n, "KB/cell")
	b.ReportMetric(time.Since(start).Seconds()/n, "s/session")
	if heap/n > 100 {
		b.Errorf("the live heap grew %.0f MB over the 3,000 cells: over issue 10's budget of 100 MB", heap/n)
	}
}

// TestSoakKeepsVariables runs a small soak session, as the session runs
// cells and with releaseCell after every cell, and checks that every
// variable, the last buffer and the last f survive.
func TestSoakKeepsVariables(t *testing.T) {
	plan := soakPlan{bufs: 20, vars1: 30, funcs: 20, vars2: 30}
	runSoak(t, plan, false, false)
	runSoak(t, plan, false, true)
}

// TestReleaseLayout fails if yaegi is no longer the version whose
// unexported fields release.go reads and writes (see go.mod).
func TestReleaseLayout(t *testing.T) {
	if err := checkReleaseLayout(); err != nil {
		t.Fatalf("release.go no longer matches yaegi: %v", err)
	}
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval(context.Background(), "x := 1", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.releaser.releaseCell(s.interp); err != nil {
		t.Fatal(err)
	}
}

// TestReleaseFreesRedefinitions: redefining a 1 MiB buffer 40 times keeps
// about one buffer once releaseCell runs after each cell (yaegi alone keeps
// all 40, twice over).
func TestReleaseFreesRedefinitions(t *testing.T) {
	r := runSoak(t, soakPlan{bufs: 40}, true, true)
	if g := r.heapGrowth(); g > 8 {
		t.Fatalf("the live heap grew %.1f MB over 40 redefinitions of a 1 MiB buffer, want at most 8", g)
	}
}

// releaseCells exercise what releasing must keep: functions and closures
// that use a variable since redefined, closures over block variables,
// goroutine arguments, generics, methods, values shared between cells. The
// results are yaegi's own (without releaseCell), e.g. a function keeps
// reading the variable it was compiled against after a redefinition.
var releaseCells = []struct{ code, want string }{
	{`import ("time"; "sort"; "fmt")`, ""},
	{`x := 1`, ""},
	{`g := func() int { return x }`, ""},
	{`func h() int { return x }`, ""},
	{`x := 2`, ""},
	{`[]int{g(), h(), x}`, "[1 1 2]"},
	{"fns := []func() int{}\nfor i := 0; i < 3; i++ { j := i * 10; fns = append(fns, func() int { return j }) }", ""},
	{`z := 0`, ""},
	{`[]int{fns[0](), fns[1](), fns[2]()}`, "[0 10 20]"},
	{`ch := make(chan []byte, 1)`, ""},
	{"big := make([]byte, 1<<20)\nbig[7] = 9\ngo func(b []byte) { time.Sleep(30 * time.Millisecond); ch <- b }(big)", ""},
	{`big := 0`, ""},
	{"b := <-ch\n[]int{len(b), int(b[7]), big}", "[1048576 9 0]"},
	{`y := 5`, ""},
	{`func mk(a int) func() int { return func() int { return a + y } }`, ""},
	{`k := mk(1)`, ""},
	{`y := 100`, ""},
	{`[]int{k(), mk(2)(), y}`, "[6 7 100]"},
	{`off := 3`, ""},
	{`func Sum[T int | float64](xs []T) T { var s T; for _, v := range xs { s += v }; return s + T(off) }`, ""},
	{`Sum([]int{1, 2})`, "6"},
	{`off := 10`, ""},
	{`Sum([]int{1, 2})`, "6"},
	{`Sum([]float64{1, 2})`, "13"},
	{`base := 1`, ""},
	{`type T struct{ n int }`, ""},
	{`func (t T) Get() int { return t.n + base }`, ""},
	{`t := T{2}`, ""},
	{`base := 50`, ""},
	{`t.Get()`, "3"},
	{`func (t T) String() string { return fmt.Sprint("T", t.n+base) }`, ""},
	{`fmt.Sprint(t)`, `"T52"`},
	{`var w = []int{1, 2, 3}`, ""},
	{`w = append(w, 4)`, ""},
	{`len(w)`, "4"},
	{"m := map[string]int{\"a\": 1}\nm[\"b\"] = 2", ""},
	{`len(m)`, "2"},
	{"s := []int{3, 1, 2}\nsort.Slice(s, func(i, j int) bool { return s[i] < s[j] })\ns", "[1 2 3]"},
	{`func f() int { return 1 }`, ""},
	{`old := f`, ""},
	{`func f() int { return 2 }`, ""},
	{`[]int{old(), f()}`, "[1 2]"},
	{"acc := 0\nadd := func(n int) { acc += n }\nadd(5)\n_ = 0", ""},
	{"add(7)\n_ = 0", ""},
	{`acc`, "12"},
	{"cnt := 0\nincr := func() int { cnt++; return cnt }", ""},
	{`cnt := 100`, ""},
	{`[]int{incr(), incr(), cnt}`, "[1 2 100]"},
	{"q := []int{1}\nfunc() { q = append(q, 2) }()\nq", "[1 2]"},
	{"for i := 0; i < 2; i++ { defer func() {}() }\nr := 42\nr", "42"},
	{`r`, "42"},
	{"type P struct{ v []byte }\np := &P{v: make([]byte, 10)}\np.v[3] = 4", ""},
	{`int(p.v[3])`, "4"},
	{`const C = 7`, ""},
	{`C * 2`, "14"},
}

// TestReleaseKeepsBehaviour runs releaseCells as the session runs cells and
// with releaseCell after every cell: both must give yaegi's results, and a
// result the caller holds must not change when later cells release.
func TestReleaseKeepsBehaviour(t *testing.T) {
	for _, release := range []bool{false, true} {
		s, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		var held []Result
		for i, c := range releaseCells {
			res, err := s.Eval(context.Background(), c.code, i+1)
			if err != nil {
				t.Fatalf("release=%v: cell %q: %v", release, c.code, err)
			}
			got := ""
			if res.Shown {
				got = Plain(res.Value)
				held = append(held, res)
			}
			if got != c.want {
				t.Errorf("release=%v: cell %q = %s, want %s", release, c.code, got, c.want)
			}
			if release {
				if err := s.releaser.releaseCell(s.interp); err != nil {
					t.Fatal(err)
				}
			}
		}
		i := 0
		for _, c := range releaseCells {
			if c.want == "" {
				continue
			}
			if got := Plain(held[i].Value); got != c.want {
				t.Errorf("release=%v: the result of %q, held by the caller, became %s (was %s)", release, c.code, got, c.want)
			}
			i++
		}
	}
}
