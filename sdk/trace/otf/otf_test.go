package otf

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"superstep/sdk/trace"
)

func readH(t *testing.T) *trace.Trace {
	t.Helper()
	tr, err := Read(context.Background(), filepath.Join("testdata", "h"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestReadH checks the hand-made trace H (see gen_test.go) against its
// hand-counted totals.
func TestReadH(t *testing.T) {
	tr := readH(t)
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %q, want none", tr.Warnings)
	}
	// Processes in id order; ranks from MPI_COMM_WORLD's member order
	// (2,1,3,4); hosts from the node groups.
	want := []trace.Process{
		{Name: "Process 0", Rank: 1, Host: "node-a"},
		{Name: "Process 1", Rank: 0, Host: "node-a"},
		{Name: "Process 2", Rank: 2, Host: "node-b"},
		{Name: "Process 3", Rank: 3, Host: "node-b"},
	}
	if len(tr.Processes) != len(want) {
		t.Fatalf("%d processes, want %d", len(tr.Processes), len(want))
	}
	for i, p := range want {
		if tr.Processes[i] != p {
			t.Errorf("process %d = %+v, want %+v", i, tr.Processes[i], p)
		}
	}
	if len(tr.Messages) != 16 || len(tr.Unmatched) != 0 {
		t.Fatalf("%d messages, %d unmatched; want 16, 0", len(tr.Messages), len(tr.Unmatched))
	}
	var bytes int64
	pairs := map[[2]int32]int{}
	for _, m := range tr.Messages {
		bytes += m.Bytes
		pairs[[2]int32{m.Src, m.Dst}]++
		if m.Kind != trace.Send {
			t.Errorf("message %+v: kind %v, want send", m, m.Kind)
		}
	}
	if bytes != 10336 {
		t.Errorf("%d bytes, want 10,336", bytes)
	}
	if pairs[[2]int32{0, 3}] != 10 || pairs[[2]int32{1, 2}] != 5 || pairs[[2]int32{2, 1}] != 1 || len(pairs) != 3 {
		t.Errorf("pairs %v, want 0→3: 10, 1→2: 5, 2→1: 1", pairs)
	}
	// Times: 400 ns per tick, time 0 at tick 100.
	if tr.TicksPerSecond != 2500000 || tr.OffsetTicks != 100 {
		t.Errorf("clock %d ticks/s, offset %d; want 2,500,000, 100", tr.TicksPerSecond, tr.OffsetTicks)
	}
	if tr.DurationNS != 2360000 {
		t.Errorf("duration %d ns, want 2,360,000", tr.DurationNS)
	}
	for i, m := range tr.Messages[:10] { // process 0's sends: A
		if m.Src != 0 || m.Dst != 3 || m.Tag != 1 || m.Bytes != 1000 || tr.Comms[m.Comm] != "MPI_COMM_WORLD" {
			t.Fatalf("message %d = %+v, want A", i, m)
		}
		if ws, wr := 360000+4000*int64(i), 760000+4000*int64(i); m.SendNS != ws || m.RecvNS != wr {
			t.Errorf("A[%d]: %d → %d ns, want %d → %d", i, m.SendNS, m.RecvNS, ws, wr)
		}
	}
	d := tr.Messages[15] // process 2's send: D
	if d.Src != 2 || d.Dst != 1 || d.Bytes != 256 || d.Tag != 7 || tr.Comms[d.Comm] != "MPI Communicator 0" || d.SendNS != 1960000 || d.RecvNS != 2000000 {
		t.Errorf("D = %+v (comm %q), want 2→1, 256 B, tag 7, MPI Communicator 0, 1,960,000 → 2,000,000 ns", d, tr.Comms[d.Comm])
	}
	// Regions: 4 main + 16 sends + 16 receives, nested one deep.
	if len(tr.Regions) != 36 {
		t.Fatalf("%d region intervals, want 36", len(tr.Regions))
	}
	count := map[string]int{}
	perProc := map[int32]int{}
	for _, r := range tr.Regions {
		name := tr.RegionNames[r.Region]
		count[name]++
		perProc[r.Process]++
		wantDepth := int32(1)
		if name == "main" {
			wantDepth = 0
			if r.EnterNS != 0 || r.LeaveNS != 2360000 {
				t.Errorf("main on %d: %d–%d ns, want 0–2,360,000", r.Process, r.EnterNS, r.LeaveNS)
			}
		}
		if r.Depth != wantDepth {
			t.Errorf("%s on %d at depth %d, want %d", name, r.Process, r.Depth, wantDepth)
		}
		if name == "MPI_Send" && r.LeaveNS-r.EnterNS != 800 {
			t.Errorf("MPI_Send on %d lasts %d ns, want 800 (2 ticks)", r.Process, r.LeaveNS-r.EnterNS)
		}
	}
	if count["main"] != 4 || count["MPI_Send"] != 16 || count["MPI_Recv"] != 16 {
		t.Errorf("region counts %v, want main 4, MPI_Send 16, MPI_Recv 16", count)
	}
	if perProc[0] != 11 || perProc[1] != 7 || perProc[2] != 7 || perProc[3] != 11 {
		t.Errorf("intervals per process %v, want 11, 7, 7, 11", perProc)
	}
}

// TestReadFSPaths reads H through ReadFS, from a sub-directory, with one
// stream uncompressed and the definitions compressed.
func TestReadFSPaths(t *testing.T) {
	s1, s2 := hStreams()
	fsys := fstest.MapFS{
		"x/h.otf":        {Data: []byte(hMaster)},
		"x/h.0.def.z":    {Data: zlibClosed(hDefs)},
		"x/h.1.events":   {Data: []byte(s1)},
		"x/h.2.events.z": {Data: zlibNoEnd(s2)},
	}
	tr, err := ReadFS(context.Background(), fsys, "x/h.otf")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Processes) != 4 || len(tr.Messages) != 16 || len(tr.Regions) != 36 {
		t.Errorf("got %v, want 4 processes, 16 messages, 36 region intervals", tr)
	}
	if _, err := Read(context.Background(), filepath.Join("testdata", "h", "h.otf")); err != nil {
		t.Errorf("Read of the .otf file: %v", err)
	}
	if _, err := ReadFS(context.Background(), fsys, "x/h.0.def.z"); err == nil {
		t.Error("ReadFS of a non-.otf name: no error")
	}
}

// TestProcessSwitching: events of two processes interleaved record by
// record in one stream land on the right processes.
func TestProcessSwitching(t *testing.T) {
	stream := "64\n*1\nE1\n*2\nE1\n*1\nS2L8T0C3b9aca00\n*2\nR1L8T0C3b9aca00\n" +
		"c8\n*2\nS1L4T0C3b9aca00\n*1\nR2L4T0C3b9aca00\n*1\nL\n*2\nL1\n"
	fsys := fstest.MapFS{
		"s.otf":        {Data: []byte("1:1,2\n")},
		"s.0.def":      {Data: []byte("DTR3e8\nDP1NM\"a\"\nDP2NM\"b\"\nDPG3b9aca00M1,2,NM\"MPI_COMM_WORLD\"\nDF1NM\"f\"\n")},
		"s.1.events.z": {Data: zlibNoEnd(stream)},
	}
	tr, err := ReadFS(context.Background(), fsys, "s.otf")
	if err != nil {
		t.Fatal(err)
	}
	// 1000 ticks/s: tick 0x64 = 100 is time 0, tick 0xc8 = 200 is 0.1 s.
	if len(tr.Messages) != 2 {
		t.Fatalf("%d messages, want 2", len(tr.Messages))
	}
	m0, m1 := tr.Messages[0], tr.Messages[1]
	if m0.Src != 0 || m0.Dst != 1 || m0.Bytes != 8 || m0.SendNS != 0 || m0.RecvNS != 0 {
		t.Errorf("first message %+v, want a→b, 8 B, 0 → 0 ns", m0)
	}
	if m1.Src != 1 || m1.Dst != 0 || m1.Bytes != 4 || m1.SendNS != 1e8 || m1.RecvNS != 1e8 {
		t.Errorf("second message %+v, want b→a, 4 B, 0.1 s → 0.1 s", m1)
	}
	if len(tr.Regions) != 2 || tr.Regions[0].Process != 0 || tr.Regions[1].Process != 1 || tr.Regions[0].LeaveNS != 1e8 {
		t.Errorf("regions %+v, want f on a and on b, 0–0.1 s", tr.Regions)
	}
}

// TestTicksToNS checks the exact conversion against big-number arithmetic
// and hand-computed values.
func TestTicksToNS(t *testing.T) {
	cases := []struct {
		d, tps uint64
		want   int64
	}{
		{1, 2500000, 400},
		{1, 3, 333333333},             // ⌊1e9/3⌋
		{2613512832, 2613512832, 1e9}, // FD4's resolution: one second
		{0, 1000, 0},
		{math.MaxUint64, 1, math.MaxInt64}, // saturates
	}
	for _, c := range cases {
		if got := ticksToNS(c.d, c.tps); got != c.want {
			t.Errorf("ticksToNS(%d, %d) = %d, want %d", c.d, c.tps, got, c.want)
		}
	}
	// FD4's length: 253.73 s at 2,613,512,832 ticks/s overflows 64 bits
	// when multiplied by 1e9 naively.
	tps := uint64(2613512832)
	for _, d := range []uint64{663129868471, 663129868472, 1 << 40, 123456789012345} {
		want := new(big.Int).Mul(new(big.Int).SetUint64(d), big.NewInt(1e9))
		want.Quo(want, new(big.Int).SetUint64(tps))
		if got := ticksToNS(d, tps); got != want.Int64() {
			t.Errorf("ticksToNS(%d, %d) = %d, want %s", d, tps, got, want)
		}
	}
}

// streamFS is trace H's definitions with one hand-written stream.
func streamFS(text string) fstest.MapFS {
	return fstest.MapFS{
		"h.otf":        {Data: []byte("1:1,2,3,4\n")},
		"h.0.def":      {Data: []byte(hDefs)},
		"h.1.events.z": {Data: zlibNoEnd(text)},
	}
}

// TestParseErrors: bad input gives a ParseError naming the file, line
// and what was expected.
func TestParseErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"64\n*1\nE1\nzz\n", `h.1.events.z:4: expected a hex timestamp, found "zz"`},
		{"64\n*1\nE1\nL\nL\n", `h.1.events.z:5: leave on process 1, which is in no function`},
		{"64\n*1\nE1\nE2\nL3\n", `h.1.events.z:5: leave of function 3 on process 1, but the innermost function is 2`},
		{"64\n*9\n", `h.1.events.z:2: process 9 is not defined`},
		{"64\nE1\n", `h.1.events.z:2: event "E1" before any process switch (*)`},
		{"*1\nE1\n", `h.1.events.z:2: event "E1" before any timestamp`},
		{"64\n*1\nE9\n", `h.1.events.z:3: function 9 is not defined`},
		{"64\n*1\nS4L3e8T1\n", `h.1.events.z:3: expected C<communicator>, found ""`},
		{"64\n*1\nS4T1C0\n", `h.1.events.z:3: expected L<length>, found "T1C0"`},
		{"64\n*1\nS9L1T1C0\n", `h.1.events.z:3: process 9 is not defined`},
		{"64\n*1\nE1\nS4L3e8", `h.1.events.z:4: stream cut mid-record: "S4L3e8" has no end of line`},
		{"64\n*1\nE1\n32\n", `h.1.events.z:4: timestamp 32 lies before the trace's start 64`},
		{"64\n*1\nE1!\n", `h.1.events.z:3: unexpected "!" after enter`},
		{"64\n*1\nS\n", `h.1.events.z:3: expected a hex id after 'S'`},
	}
	for _, c := range cases {
		_, err := ReadFS(context.Background(), streamFS(c.text), "h.otf")
		var fe *ParseError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error %v, want a ParseError", c.text, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

// TestBadFiles: broken zlib data, definitions and master files.
func TestBadFiles(t *testing.T) {
	fsys := streamFS("64\n*1\nE1\n")
	fsys["h.1.events.z"] = &fstest.MapFile{Data: []byte("not zlib at all")}
	_, err := ReadFS(context.Background(), fsys, "h.otf")
	if err == nil || !strings.HasPrefix(err.Error(), "h.1.events.z: not a zlib stream") {
		t.Errorf("bad zlib: %v", err)
	}

	z := zlibClosed(strings.Repeat("64\n*1\nE1\nL\n", 200))
	z[len(z)/2] ^= 0xff // corrupt the middle
	fsys["h.1.events.z"] = &fstest.MapFile{Data: z}
	if _, err := ReadFS(context.Background(), fsys, "h.otf"); err == nil {
		t.Error("corrupt zlib: no error")
	}

	// Cutting the compressed stream anywhere never panics; text cut
	// mid-record is reported.
	full := zlibNoEnd(strings.Repeat("64\n*1\nS4L3e8T1C3b9aca00\n", 50))
	cutMid := 0
	for n := 2; n < len(full); n++ {
		fsys["h.1.events.z"] = &fstest.MapFile{Data: full[:n]}
		_, err := ReadFS(context.Background(), fsys, "h.otf")
		if err != nil && strings.Contains(err.Error(), "cut mid-record") {
			cutMid++
		}
	}
	if cutMid == 0 {
		t.Error("no cut of the compressed stream reported a record cut mid-way")
	}

	noDTR := streamFS("64\n*1\nE1\nL\n")
	noDTR["h.0.def"] = &fstest.MapFile{Data: []byte(strings.Replace(hDefs, "DTR2625a0\n", "", 1))}
	if _, err := ReadFS(context.Background(), noDTR, "h.otf"); err == nil || !strings.Contains(err.Error(), "no timer resolution") {
		t.Errorf("no DTR: %v", err)
	}

	badDef := streamFS("64\n*1\nE1\nL\n")
	badDef["h.0.def"] = &fstest.MapFile{Data: []byte("DTR3e8\nDP1NM\"a\nDF1NM\"f\"\n")}
	if _, err := ReadFS(context.Background(), badDef, "h.otf"); err == nil || err.Error() != `h.0.def:2: expected NM"<name>" in process 1, found "NM\"a"` {
		t.Errorf("bad DP: %v", err)
	}

	badMaster := streamFS("64\n*1\nE1\nL\n")
	badMaster["h.otf"] = &fstest.MapFile{Data: []byte("1:1,2\nx:3\n")}
	if _, err := ReadFS(context.Background(), badMaster, "h.otf"); err == nil || err.Error() != `h.otf:2: expected <stream>:<process>,…, found "x:3"` {
		t.Errorf("bad master: %v", err)
	}

	missing := streamFS("64\n*1\nE1\nL\n")
	delete(missing, "h.1.events.z")
	if _, err := ReadFS(context.Background(), missing, "h.otf"); err == nil || !errors.Is(err, fs.ErrNotExist) ||
		err.Error() != "otf: stream 1: the master file lists it but neither h.1.events.z nor h.1.events exists: file does not exist" {
		t.Errorf("missing stream: %v", err)
	}
}

// TestSkippedRecords: records the reader does not know are skipped, not
// taken for events (RMA records start with R, like receives).
func TestSkippedRecords(t *testing.T) {
	text := "64\n*1\nE1\nCOP1C3b9aca00RT0S0R0D1\nCNT1V5\nRMAPUT1\nPB\n#x\nKV1\nL\n"
	tr, err := ReadFS(context.Background(), streamFS(text), "h.otf")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Messages) != 0 || len(tr.Unmatched) != 0 || len(tr.Regions) != 1 {
		t.Errorf("got %v, want 1 region interval and nothing else", tr)
	}
	// COP, CNT, PB and the comment are OTF records; "RMAPUT1" is not
	// (OTF's RMA put is "T…") and "KV1" is no key-value pair ("K1Y…").
	want := []string{
		`h.1.events.z:6: unknown record "RMAPUT1" skipped`,
		`h.1.events.z:9: malformed key-value pair (K) record "KV1" skipped`,
	}
	if !slices.Equal(tr.Warnings, want) {
		t.Errorf("warnings %q, want %q", tr.Warnings, want)
	}
}

// TestCancel: a cancelled context stops the read.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, filepath.Join("testdata", "h")); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestEmptyStream: a stream without events gives the processes and
// nothing else, lasting 0 s.
func TestEmptyStream(t *testing.T) {
	tr, err := ReadFS(context.Background(), streamFS("64\n*1\nCOP1C3b9aca00RT0S0R0D1\n"), "h.otf")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Processes) != 4 || len(tr.Messages) != 0 || len(tr.Regions) != 0 || tr.DurationNS != 0 {
		t.Errorf("got %v, want 4 processes, nothing else, 0 s", tr)
	}
}

// TestWarnings: records the reader does not know, known records it skips
// that are malformed, and records on a process-group stream are warnings
// naming file:line; the trace still reads. A process switch to an id
// that is neither a process nor a group, and the long format, are errors.
func TestWarnings(t *testing.T) {
	fsys := streamFS("64\n*1\nE1\nXYZ1\nCNT1\nK1Y8V5\nS4L8T1C3b9aca00\n*10\nCNT5V7\nE1\n*1\nL\n")
	fsys["h.0.def"] = &fstest.MapFile{Data: []byte(strings.Replace(hDefs, "DTR2625a0\n", "DTR2625a0\nDTRG64T1770\nDQQ1\nDFG5\n", 1))}
	tr, err := ReadFS(context.Background(), fsys, "h.otf")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`h.0.def:6: unknown record "DQQ1" skipped`,
		`h.0.def:7: malformed function group (DFG) record "DFG5" skipped`,
		`h.1.events.z:4: unknown record "XYZ1" skipped`,
		`h.1.events.z:5: malformed counter (CNT) record "CNT1" skipped`,
		`h.1.events.z:9: counter (CNT) on process group 10 skipped`,
		`h.1.events.z:10: enter (E) on process group 10 skipped`,
	}
	got := slices.Clone(tr.Warnings)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%q\nwant\n%q", got, want)
	}
	if len(tr.Regions) != 1 || len(tr.Unmatched) != 1 {
		t.Errorf("got %v, want 1 region interval and 1 unmatched send", tr)
	}

	for _, c := range []struct{ text, want string }{
		{"64\n*12\nE1\n", `h.1.events.z:2: process 12 is not defined (neither a process nor a process group)`},
		{"64\n*1\nENTER 1\n", `h.1.events.z:3: record "ENTER 1" is in OTF's long format`},
	} {
		_, err := ReadFS(context.Background(), streamFS(c.text), "h.otf")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %s", c.text, err, c.want)
		}
	}
	long := streamFS("64\n*1\nE1\nL\n")
	long["h.0.def"] = &fstest.MapFile{Data: []byte("DEFTIMERRESOLUTION 3e8\n")}
	if _, err := ReadFS(context.Background(), long, "h.otf"); err == nil || !strings.HasPrefix(err.Error(), `h.0.def:1: record "DEFTIMERRESOLUTION 3e8" is in OTF's long format`) {
		t.Errorf("long definitions: error %v", err)
	}
}

// TestTimeRange: VampirTrace's DTRG (time range) beside DTR is not taken
// for a timer resolution (Tachyon's "expected a non-zero hex timer
// resolution, found "G0T252733043e9"").
func TestTimeRange(t *testing.T) {
	for _, defs := range []string{"DTRG0T252733043e9\nDTR2625a0\n", "DTR2625a0\nDTRG0T252733043e9\n"} {
		fsys := streamFS("64\n*1\nE1\nL\n")
		fsys["h.0.def"] = &fstest.MapFile{Data: []byte(strings.Replace(hDefs, "DTR2625a0\n", defs, 1))}
		tr, err := ReadFS(context.Background(), fsys, "h.otf")
		if err != nil {
			t.Fatalf("%q: %v", defs, err)
		}
		if tr.TicksPerSecond != 0x2625a0 || len(tr.Warnings) != 0 {
			t.Errorf("%q: %d ticks/s, warnings %q; want 2,500,000, none", defs, tr.TicksPerSecond, tr.Warnings)
		}
	}
}
