package sdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"superstep/sdk/trace"
)

// TestOpenTraceEveryFormat opens each format by file and by folder: the
// real Score-P ping-pong (OTF2: 2 processes), the hand-made OTF v1 trace
// of sdk/trace/otf, a trace saved as Parquet, and the ring of Open MPI
// monitoring files (8 ranks, each sending to the next).
func TestOpenTraceEveryFormat(t *testing.T) {
	ctx := context.Background()
	parquet := t.TempDir()
	hand := trace.HandMade()
	if err := hand.SaveParquet(parquet); err != nil {
		t.Fatal(err)
	}
	pingpong := filepath.Join("..", "..", "shared", "data", "otf2-pingpong")
	if _, err := os.Stat(pingpong); err != nil {
		t.Fatalf("the real OTF2 trace: %v", err)
	}
	for _, c := range []struct {
		path, format string
		procs        int
	}{
		{filepath.Join(pingpong, "traces.otf2"), FormatOTF2, 2},
		{pingpong, FormatOTF2, 2},
		{"trace/otf/testdata/h/h.otf", FormatOTF, -1},
		{"trace/otf/testdata/h", FormatOTF, -1},
		{parquet, FormatParquet, len(hand.Processes)},
		{filepath.Join(parquet, trace.MessagesFile), FormatParquet, len(hand.Processes)},
		{"trace/ompimon/testdata/ring8/ring.3.prof", FormatMonitoring, 8},
		{"trace/ompimon/testdata/ring8", FormatMonitoring, 8},
	} {
		f, err := OpenTrace(ctx, c.path)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if f.Format != c.format {
			t.Errorf("%s: format %q, want %q", c.path, f.Format, c.format)
		}
		switch {
		case c.format == FormatMonitoring:
			if f.Trace != nil || f.Monitoring == nil || f.Monitoring.Ranks != c.procs {
				t.Errorf("%s: monitoring data %+v, want %d ranks and no trace", c.path, f.Monitoring, c.procs)
			}
		case f.Trace == nil || f.Monitoring != nil:
			t.Errorf("%s: want a trace and no monitoring data", c.path)
		case c.procs >= 0 && len(f.Trace.Processes) != c.procs:
			t.Errorf("%s: %d processes, want %d", c.path, len(f.Trace.Processes), c.procs)
		}
		if len(f.Pairs()) == 0 {
			t.Errorf("%s: no sender-receiver pairs", c.path)
		}
		if txt := f.MIMEBundle().Text(); !strings.Contains(txt, c.format) {
			t.Errorf("%s: the summary does not name the format:\n%s", c.path, txt)
		}
	}
}

// TestOpenTraceErrors checks that OpenTrace names what it looked for,
// and the candidates when a folder holds several.
func TestOpenTraceErrors(t *testing.T) {
	ctx := context.Background()
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("hello\n"), 0o644)
	two := t.TempDir()
	os.WriteFile(filepath.Join(two, "a.otf"), []byte("1:1\n"), 0o644)
	os.WriteFile(filepath.Join(two, "traces.otf2"), []byte{}, 0o644)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(empty, "notes.txt"), "expected an OTF2 anchor file (*.otf2), an OTF master file (*.otf)"},
		{empty, "folder " + empty + ": not a trace"},
		{two, "holds 2 traces (a.otf, traces.otf2)"},
		{filepath.Join(empty, "missing.otf2"), "no such file"},
	} {
		_, err := OpenTrace(ctx, c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.path, err, c.want)
		}
	}
}

// OpenTrace takes a file or a folder and finds the reader itself; here
// the Open MPI monitoring files of a ring of 8 ranks, each exchanging
// with both neighbours.
func ExampleOpenTrace() {
	f, err := OpenTrace(context.Background(), "trace/ompimon/testdata/ring8")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Format, "with", f.Monitoring.Ranks, "ranks")
	for _, p := range f.Pairs()[:3] {
		fmt.Printf("%d → %d: %d messages\n", p.Src, p.Dst, p.Messages)
	}
	// Output:
	// Open MPI monitoring with 8 ranks
	// 0 → 1: 100 messages
	// 0 → 7: 50 messages
	// 1 → 0: 60 messages
}
