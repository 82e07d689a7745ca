package otf

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"superstep/sdk/trace"
)

// needLibotf skips the test when a C compiler, Debian's
// libopen-trace-format-dev or otfprint (otf-trace) is missing, unless CI
// is set: then it fails.
func needLibotf(t testing.TB) {
	t.Helper()
	missing := ""
	if _, err := exec.LookPath("cc"); err != nil {
		missing = "cc (apt install gcc)"
	} else if _, err := os.Stat("/usr/include/open-trace-format/otf.h"); err != nil {
		missing = "the OTF headers (apt install libopen-trace-format-dev)"
	} else if _, err := exec.LookPath("otfprint"); err != nil {
		missing = "otfprint (apt install otf-trace)"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set but %s is missing", missing)
	}
	t.Skipf("skipped: %s is missing", missing)
}

// buildGen compiles testdata/gen_otf.c against the reference library.
func buildGen(t testing.TB) string {
	t.Helper()
	needLibotf(t)
	src, err := filepath.Abs(filepath.Join("testdata", "gen_otf.c"))
	if err != nil {
		t.Fatal(err)
	}
	flags := []string{"-I/usr/include/open-trace-format", "-lopen-trace-format"}
	if out, err := exec.Command("otfconfig", "--includes", "--libs").Output(); err == nil {
		flags = strings.Fields(string(out))
	}
	bin := filepath.Join(t.TempDir(), "gen_otf")
	args := append([]string{"-o", bin, src}, flags...)
	if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// generate writes a trace with gen_otf (variant "all" or "vt",
// compression "compressed" or "plain", format "short" or "long") and
// returns its master file.
func generate(t testing.TB, gen, variant, compression, format string) string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "t")
	if out, err := exec.Command(gen, prefix, variant, compression, format).CombinedOutput(); err != nil {
		t.Fatalf("gen_otf %s %s %s: %v\n%s", variant, compression, format, err, out)
	}
	return prefix + ".otf"
}

// printed is what otfprint shows of a trace.
type printed struct {
	procs    []uint64          // process ids, in id order
	names    map[uint64]string // process names
	groups   map[uint64]string // process group names
	tps      uint64
	msgs     []printedMsg
	leaves   int
	minTicks uint64
}

type printedMsg struct {
	src, dst, group, tag, bytes uint64
	send, recv                  uint64 // ticks
}

var (
	rePrintProc  = regexp.MustCompile(`DefProcess: stream \d+, process (\d+), name "([^"]*)"`)
	rePrintGroup = regexp.MustCompile(`DefProcessGroup: stream \d+, group (\d+), name "([^"]*)"`)
	rePrintTPS   = regexp.MustCompile(`DefTimerResolution: stream \d+, TicksPerSecond (\d+)`)
	rePrintEvent = regexp.MustCompile(`^\(#\d+\) \t(\d+) (\w+): (.*)$`)
	rePrintSend  = regexp.MustCompile(`^sender (\d+), receiver (\d+), group (\d+), type (\d+), length (\d+)`)
	rePrintRecv  = regexp.MustCompile(`^receiver (\d+), sender (\d+), group (\d+), type (\d+), length (\d+)`)
)

// plainCopy copies the trace beside master into a new directory,
// inflating its compressed files, and returns the copy's master file.
// otfprint (OTF 1.12.5) reads no events from some compressed traces that
// it wrote itself ("An error occurred while reading events"), so it is
// given the same text uncompressed.
func plainCopy(t *testing.T, master string) string {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(strings.TrimSuffix(master, ".otf") + ".*")
	if err != nil {
		t.Fatal(err)
	}
	var in inflater
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if strings.HasSuffix(name, ".z") {
			if data, err = in.inflate(name, data); err != nil {
				t.Fatal(err)
			}
			name = strings.TrimSuffix(name, ".z")
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, filepath.Base(master))
}

// printTrace runs otfprint on the trace's events and definitions and
// matches sends with receives (FIFO per sender, receiver, group, tag).
func printTrace(t *testing.T, master string) printed {
	t.Helper()
	out, err := exec.Command("otfprint", "--nostat", "--nosnap", "--nomarker", "--nokeyvalue", plainCopy(t, master)).Output()
	if err != nil {
		t.Fatalf("otfprint %s: %v", master, err)
	}
	p := printed{names: map[uint64]string{}, groups: map[uint64]string{}, minTicks: ^uint64(0)}
	u := func(s string) uint64 {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	type key struct{ src, dst, group, tag uint64 }
	sends := map[key][]printedMsg{}
	var recvs []printedMsg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if m := rePrintProc.FindStringSubmatch(l); m != nil {
			p.procs = append(p.procs, u(m[1]))
			p.names[u(m[1])] = m[2]
		} else if m := rePrintGroup.FindStringSubmatch(l); m != nil {
			p.groups[u(m[1])] = m[2]
		} else if m := rePrintTPS.FindStringSubmatch(l); m != nil {
			p.tps = u(m[1])
		} else if m := rePrintEvent.FindStringSubmatch(l); m != nil {
			ticks := u(m[1])
			p.minTicks = min(p.minTicks, ticks)
			switch m[2] {
			case "Leave":
				p.leaves++
			case "SendMessage":
				s := rePrintSend.FindStringSubmatch(m[3])
				msg := printedMsg{src: u(s[1]), dst: u(s[2]), group: u(s[3]), tag: u(s[4]), bytes: u(s[5]), send: ticks}
				k := key{msg.src, msg.dst, msg.group, msg.tag}
				sends[k] = append(sends[k], msg)
			case "ReceiveMessage":
				r := rePrintRecv.FindStringSubmatch(m[3])
				recvs = append(recvs, printedMsg{src: u(r[2]), dst: u(r[1]), group: u(r[3]), tag: u(r[4]), bytes: u(r[5]), recv: ticks})
			}
		}
	}
	slices.Sort(p.procs)
	for _, r := range recvs {
		k := key{r.src, r.dst, r.group, r.tag}
		if len(sends[k]) == 0 {
			t.Fatalf("otfprint: receive %+v without a send", r)
		}
		s := sends[k][0]
		sends[k] = sends[k][1:]
		if s.bytes != r.bytes {
			t.Fatalf("otfprint: send %+v received as %+v", s, r)
		}
		s.recv = r.recv
		p.msgs = append(p.msgs, s)
	}
	return p
}

// ns converts ticks since start to nanoseconds with math/big, rounding
// down.
func ns(ticks, start, tps uint64) int64 {
	v := new(big.Int).SetUint64(ticks - start)
	v.Mul(v, big.NewInt(1e9))
	v.Quo(v, new(big.Int).SetUint64(tps))
	return v.Int64()
}

// checkAgainstPrint compares a trace read by this package with otfprint's
// view of it: processes, every message's ends, tag, size, times and
// communicator, and the number of region intervals.
func checkAgainstPrint(t *testing.T, tr *trace.Trace, p printed) {
	t.Helper()
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tr.Processes) != len(p.procs) {
		t.Fatalf("%d processes, otfprint %d", len(tr.Processes), len(p.procs))
	}
	index := map[uint64]int32{}
	for i, id := range p.procs {
		index[id] = int32(i)
		if tr.Processes[i].Name != p.names[id] {
			t.Errorf("process %d named %q, otfprint %q", i, tr.Processes[i].Name, p.names[id])
		}
	}
	if tr.TicksPerSecond != p.tps {
		t.Errorf("%d ticks per second, otfprint %d", tr.TicksPerSecond, p.tps)
	}
	if len(tr.Unmatched) != 0 {
		t.Errorf("%d unmatched events", len(tr.Unmatched))
	}
	if len(tr.Messages) != len(p.msgs) || len(p.msgs) == 0 {
		t.Fatalf("%d messages, otfprint %d", len(tr.Messages), len(p.msgs))
	}
	type row struct {
		src, dst, tag  int32
		bytes          int64
		sendNS, recvNS int64
		comm           string
	}
	var got, want []row
	for _, m := range tr.Messages {
		got = append(got, row{m.Src, m.Dst, m.Tag, m.Bytes, m.SendNS, m.RecvNS, tr.Comms[m.Comm]})
	}
	for _, m := range p.msgs {
		want = append(want, row{index[m.src], index[m.dst], int32(uint32(m.tag)), int64(m.bytes),
			ns(m.send, p.minTicks, p.tps), ns(m.recv, p.minTicks, p.tps), p.groups[m.group]})
	}
	order := func(a, b row) int {
		return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.dst, b.dst), cmp.Compare(a.sendNS, b.sendNS),
			cmp.Compare(a.tag, b.tag), cmp.Compare(a.recvNS, b.recvNS))
	}
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d: got %+v, otfprint %+v", i, got[i], want[i])
		}
	}
	if len(tr.Regions) != p.leaves {
		t.Errorf("%d region intervals, otfprint %d leaves", len(tr.Regions), p.leaves)
	}
}

// TestLibotfAllRecords reads a trace the reference library wrote with
// every record type its writer API offers (definitions, events,
// snapshots, summaries, markers, key-value lists), compressed and not,
// and compares it with otfprint's reading. The only warnings are for the
// two counters on process-group streams: every other record is known.
func TestLibotfAllRecords(t *testing.T) {
	gen := buildGen(t)
	for _, compression := range []string{"compressed", "plain"} {
		t.Run(compression, func(t *testing.T) {
			master := generate(t, gen, "all", compression, "short")
			for _, ext := range []string{".1.snaps", ".2.stats", ".0.marker"} {
				name := strings.TrimSuffix(master, ".otf") + ext
				if compression == "compressed" {
					name += ".z"
				}
				if _, err := os.Stat(name); err != nil {
					t.Fatalf("the writer wrote no %s: %v", filepath.Base(name), err)
				}
			}
			tr, err := Read(context.Background(), master)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstPrint(t, tr, printTrace(t, master))
			if len(tr.Messages) != 17 {
				t.Errorf("%d messages, want 17 (gen_otf.c)", len(tr.Messages))
			}
			// Hosts from the groups with attribute hasGroupCounters,
			// ranks from MPI_COMM_WORLD (2,1,3,4).
			for i, want := range []trace.Process{
				{Name: "Process 0", Rank: 1, Host: "node-a"}, {Name: "Process 1", Rank: 0, Host: "node-a"},
				{Name: "Process 2", Rank: 2, Host: "node-b"}, {Name: "Process 3", Rank: 3, Host: "node-b"},
			} {
				if tr.Processes[i] != want {
					t.Errorf("process %d = %+v, want %+v", i, tr.Processes[i], want)
				}
			}
			if len(tr.Warnings) != 2 {
				t.Fatalf("warnings %q, want the two counters on process groups", tr.Warnings)
			}
			for i, g := range []string{"10", "11"} {
				if w := tr.Warnings[i]; !strings.Contains(w, "counter (CNT) on process group "+g+" skipped") {
					t.Errorf("warning %q, want one about the counter on process group %s", w, g)
				}
			}
		})
	}
}

// TestLibotfVampirTrace reads a trace written like VampirTrace 5.13
// writes them: a time range (DTRG) beside the timer resolution,
// per-node power counters on process-group streams switched to 600
// times, key-value lists before sends, an "All" group beside the node
// groups.
func TestLibotfVampirTrace(t *testing.T) {
	gen := buildGen(t)
	master := generate(t, gen, "vt", "compressed", "short")
	tr, err := Read(context.Background(), master)
	if err != nil {
		t.Fatal(err)
	}
	p := printTrace(t, master)
	checkAgainstPrint(t, tr, p)
	if len(tr.Messages) != 300 {
		t.Errorf("%d messages, want 300", len(tr.Messages))
	}
	for _, m := range tr.Messages {
		if tr.Processes[m.Dst].Rank != 0 {
			t.Fatalf("message %+v not to rank 0", m)
		}
	}
	if tr.Processes[0].Host != "node-a" || tr.Processes[3].Host != "node-b" {
		t.Errorf("hosts %q, %q; want node-a, node-b (the groups with counters, not \"All\")", tr.Processes[0].Host, tr.Processes[3].Host)
	}
	if n := countWarnings(tr.Warnings, warnKinds[warnGroup]); n != 600 || len(tr.Warnings) != trace.WarningLimit+1 {
		t.Errorf("%d warnings about process groups in %q; want 600, in 5 lines and a count", n, tr.Warnings)
	}
}

// TestLibotfLongFormat: a trace in OTF's long format is refused with an
// error that names the long format and the file and line.
func TestLibotfLongFormat(t *testing.T) {
	gen := buildGen(t)
	master := generate(t, gen, "all", "plain", "short")
	long := generate(t, gen, "all", "plain", "long")
	_, err := Read(context.Background(), long)
	if err == nil || !strings.Contains(err.Error(), "t.0.def:1: record \"DEFVERSION") || !strings.Contains(err.Error(), "long format") {
		t.Errorf("long format: error %v, want one naming t.0.def:1 and the long format", err)
	}
	// Short definitions with long events.
	events := strings.TrimSuffix(long, ".otf") + ".1.events"
	data, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(master, ".otf")+".1.events", data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Read(context.Background(), master)
	if err == nil || !strings.Contains(err.Error(), "t.1.events:3: record \"PROCESSBEGIN") || !strings.Contains(err.Error(), "long format") {
		t.Errorf("long events: error %v, want one naming t.1.events:3 and the long format", err)
	}
}
