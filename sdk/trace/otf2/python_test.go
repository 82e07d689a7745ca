package otf2

import (
	"bufio"
	"bytes"
	"context"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"superstep/sdk/trace"
)

// needLibotf2 skips the test when Debian's python3-otf2 or otf2-print is
// missing, unless CI is set: then it fails.
func needLibotf2(t testing.TB) {
	t.Helper()
	missing := ""
	if err := exec.Command("/usr/bin/python3", "-c", "import otf2").Run(); err != nil {
		missing = "/usr/bin/python3 with the otf2 module (apt install python3-otf2)"
	} else if _, err := exec.LookPath("otf2-print"); err != nil {
		missing = "otf2-print (apt install otf2-tools)"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set but %s is missing", missing)
	}
	t.Skipf("skipped: %s is missing", missing)
}

// generate writes an archive with testdata/gen_otf2.py and returns its
// anchor file.
func generate(t testing.TB, args ...string) string {
	t.Helper()
	return generateWith(t, "gen_otf2.py", args...)
}

// generateWith writes an archive with the script testdata/<script>.
func generateWith(t testing.TB, script string, args ...string) string {
	t.Helper()
	needLibotf2(t)
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/bin/python3", append([]string{abs, dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return filepath.Join(dir, "traces.otf2")
}

type printedMsg struct {
	src, dst       int32
	tag            int32
	bytes          int64
	sendNS, recvNS int64
	comm           string
}

var (
	rePrintEvent = regexp.MustCompile(`^(MPI_SEND|MPI_ISEND|MPI_RECV|MPI_IRECV|MPI_IRECV_REQUEST)\s+(\d+)\s+(\d+)\s+(.*)$`)
	rePrintPeer  = regexp.MustCompile(`(?:Receiver|Sender): \d+ \("[^"]*" <(\d+)>\), Communicator: "([^"]*)" <\d+>, Tag: (\d+), Length: (\d+)`)
	rePrintReq   = regexp.MustCompile(`Request: (\d+)`)
	rePrintClock = regexp.MustCompile(`CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+), Global Offset: (\d+)`)
)

// printedMessages runs otf2-print on the archive and matches its sends and
// receives (FIFO per communicator, sender, receiver and tag; receives in
// posting order), converting ticks to ns with math/big. Locations are
// process indices (the generated archives list them in rank order).
func printedMessages(t *testing.T, anchor string) []printedMsg {
	t.Helper()
	defs, err := exec.Command("otf2-print", "-G", anchor).Output()
	if err != nil {
		t.Fatal(err)
	}
	cm := rePrintClock.FindSubmatch(defs)
	if cm == nil {
		t.Fatal("no CLOCK_PROPERTIES in otf2-print -G")
	}
	tps, _ := new(big.Int).SetString(string(cm[1]), 10)
	off, _ := new(big.Int).SetString(string(cm[2]), 10)
	toNS := func(s string) int64 {
		v, _ := new(big.Int).SetString(s, 10)
		v.Sub(v, off).Mul(v, big.NewInt(1e9))
		q, r := new(big.Int).QuoRem(v, tps, new(big.Int))
		if r.Mul(r, big.NewInt(2)).Cmp(tps) >= 0 {
			q.Add(q, big.NewInt(1))
		}
		return q.Int64()
	}
	out, err := exec.Command("otf2-print", anchor).Output()
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		comm          string
		src, dst, tag int32
	}
	type half struct {
		ns, bytes int64
		seq       int
	}
	sends, recvs := map[key][]half{}, map[key][]half{}
	posted := map[[2]uint64]int{}
	seq := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := rePrintEvent.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		seq++
		loc, _ := strconv.ParseUint(m[2], 10, 64)
		req := uint64(0)
		if r := rePrintReq.FindStringSubmatch(m[4]); r != nil {
			req, _ = strconv.ParseUint(r[1], 10, 64)
		}
		if m[1] == "MPI_IRECV_REQUEST" {
			posted[[2]uint64{loc, req}] = seq
			continue
		}
		p := rePrintPeer.FindStringSubmatch(m[4])
		if p == nil {
			t.Fatalf("cannot parse %q", sc.Text())
		}
		peer, _ := strconv.Atoi(p[1])
		tag, _ := strconv.Atoi(p[3])
		n, _ := strconv.ParseInt(p[4], 10, 64)
		h := half{ns: toNS(m[3]), bytes: n, seq: seq}
		switch m[1] {
		case "MPI_SEND", "MPI_ISEND":
			k := key{p[2], int32(loc), int32(peer), int32(tag)}
			sends[k] = append(sends[k], h)
		case "MPI_IRECV":
			if s, ok := posted[[2]uint64{loc, req}]; ok {
				h.seq = s
			}
			fallthrough
		case "MPI_RECV":
			k := key{p[2], int32(peer), int32(loc), int32(tag)}
			recvs[k] = append(recvs[k], h)
		}
	}
	var msgs []printedMsg
	for k, ss := range sends {
		rs := recvs[k]
		slices.SortStableFunc(rs, func(a, b half) int { return a.seq - b.seq })
		for i := range min(len(ss), len(rs)) {
			msgs = append(msgs, printedMsg{src: k.src, dst: k.dst, tag: k.tag, bytes: ss[i].bytes,
				sendNS: ss[i].ns, recvNS: rs[i].ns, comm: k.comm})
		}
	}
	return msgs
}

func cmpPrinted(a, b printedMsg) int {
	for _, d := range []int64{int64(a.src - b.src), int64(a.dst - b.dst), a.sendNS - b.sendNS,
		int64(a.tag - b.tag), a.recvNS - b.recvNS, a.bytes - b.bytes} {
		if d != 0 {
			return int(d>>63 | 1)
		}
	}
	return 0
}

// TestLibotf2Archive reads an archive written by Debian's libotf2 3.x and
// checks every message against otf2-print's view of the same archive.
func TestLibotf2Archive(t *testing.T) {
	anchor := generate(t)
	if st, err := os.Stat(filepath.Join(filepath.Dir(anchor), "traces", "0.evt")); err != nil || st.Size() <= 1<<20 {
		t.Fatalf("location 0's events should exceed 1 MiB: %v %v", st, err)
	}
	tr, err := Read(context.Background(), anchor)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tr.Unmatched) != 0 {
		t.Errorf("unmatched: %v", tr.Unmatched)
	}
	// Hand count: 30,000 blocking 0→1, 4 isends 3→2, 1 on the
	// sub-communicator 1→3.
	if len(tr.Messages) != 30005 {
		t.Errorf("%d messages, want 30,005", len(tr.Messages))
	}
	wantProcs := []trace.Process{
		{Name: "Master thread", Rank: 0, Host: "node0"}, {Name: "Master thread", Rank: 1, Host: "node0"},
		{Name: "Master thread", Rank: 2, Host: "node1"}, {Name: "Master thread", Rank: 3, Host: "node1"},
	}
	if !slices.Equal(tr.Processes, wantProcs) {
		t.Errorf("processes %v, want %v", tr.Processes, wantProcs)
	}
	var got []printedMsg
	for _, m := range tr.Messages {
		got = append(got, printedMsg{src: m.Src, dst: m.Dst, tag: m.Tag, bytes: m.Bytes, sendNS: m.SendNS, recvNS: m.RecvNS, comm: tr.Comms[m.Comm]})
		switch {
		case m.Tag == 44 && (m.Src != 1 || m.Dst != 3 || tr.Comms[m.Comm] != "SUB_COMM"):
			t.Errorf("sub-communicator message %+v, want 1→3 on SUB_COMM", m)
		case m.Src == 3 && m.Kind != trace.Isend:
			t.Errorf("message %+v should be an isend", m)
		}
	}
	// The tag-3 irecvs completed in reverse order: the first isend (111 B)
	// matches the first posted request, which completed last.
	var t3 []trace.Message
	for _, m := range tr.Messages {
		if m.Tag == 3 {
			t3 = append(t3, m)
		}
	}
	if len(t3) != 2 || t3[0].Bytes != 111 || t3[0].RecvNS <= t3[1].RecvNS {
		t.Errorf("tag 3 messages %+v: the 111 B one should be received last", t3)
	}
	want := printedMessages(t, anchor)
	slices.SortFunc(got, cmpPrinted)
	slices.SortFunc(want, cmpPrinted)
	if len(got) != len(want) {
		t.Fatalf("%d messages, otf2-print has %d", len(got), len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad++; bad < 5 {
				t.Errorf("message %d: read %+v, otf2-print %+v", i, got[i], want[i])
			}
		}
	}
	// One warning: the 4 barriers' collective records are not messages.
	if len(tr.Warnings) != 1 || !regexp.MustCompile(`^traces/0\.evt:\d+: 4 MPI collective operations .* not as messages$`).MatchString(tr.Warnings[0]) {
		t.Errorf("warnings %q, want one for the 4 collectives", tr.Warnings)
	}
	// Regions: 30,000 MPI_Send and MPI_Recv each, main ×4, barrier ×4.
	if len(tr.Regions) != 60008 {
		t.Errorf("%d region intervals, want 60,008", len(tr.Regions))
	}
}
