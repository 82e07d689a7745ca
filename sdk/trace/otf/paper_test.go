package otf

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPaperTraces reads every OTF v1 trace under $SUPERSTEP_CORPUS/otf
// (the traces of the edge-bundling paper, SC16 VPA workshop: Tachyon,
// WRF, LULESH; not in the repository, as their licence is unknown) and
// checks Tachyon against the figures otfprint gives: 256 processes,
// 8,160 messages, all to rank 0 (process 1). Traces whose event files
// are absent (the paper repository's largest files are stored outside
// git) are logged, not failed.
func TestPaperTraces(t *testing.T) {
	root := os.Getenv("SUPERSTEP_CORPUS")
	if root == "" {
		t.Skip("SUPERSTEP_CORPUS is not set")
	}
	root = filepath.Join(root, "otf")
	var masters []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".otf") {
			masters = append(masters, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(masters) == 0 {
		t.Fatalf("no .otf files under %s", root)
	}
	sawTachyon := false
	for _, m := range masters {
		start := time.Now()
		tr, err := Read(context.Background(), m)
		took := time.Since(start)
		rel, _ := filepath.Rel(root, m)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				t.Logf("%s: incomplete copy: %v", rel, err)
				continue
			}
			t.Errorf("%s: %v", rel, err)
			continue
		}
		t.Logf("%s: %d processes, %d messages, %d unmatched, %d region intervals, %d warning lines, read in %v",
			rel, len(tr.Processes), len(tr.Messages), len(tr.Unmatched), len(tr.Regions), len(tr.Warnings), took.Round(time.Millisecond))
		for _, w := range tr.Warnings {
			t.Logf("  %s", w)
		}
		if err := tr.Validate(); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		if !strings.HasPrefix(filepath.Base(m), "tachyon") {
			continue
		}
		sawTachyon = true
		if len(tr.Processes) != 256 {
			t.Errorf("%s: %d processes, want 256", rel, len(tr.Processes))
		}
		toRoot := 0
		for _, msg := range tr.Messages {
			if tr.Processes[msg.Dst].Rank == 0 {
				toRoot++
			}
		}
		if len(tr.Messages) != 8160 || toRoot != 8160 || len(tr.Unmatched) != 0 {
			t.Errorf("%s: %d messages, %d to rank 0, %d unmatched; want 8,160, 8,160, 0", rel, len(tr.Messages), toRoot, len(tr.Unmatched))
		}
		// The node groups (attribute hasGroupCounters) give the hosts.
		if h := tr.Processes[0].Host; h != "n085" {
			t.Errorf("%s: rank 0 on host %q, want n085", rel, h)
		}
		// VampirTrace's power counters on the node groups: skipped,
		// with warnings of that one kind and no other.
		for _, w := range tr.Warnings {
			if !strings.Contains(w, "on process group") && !strings.HasSuffix(w, "record on a process-group stream skipped") {
				t.Errorf("%s: unexpected warning %s", rel, w)
			}
		}
		// 26,175 records (counters) follow a switch to a process group,
		// as a script over the inflated streams counts.
		if n := countWarnings(tr.Warnings, warnKinds[warnGroup]); n != 26175 {
			t.Errorf("%s: %d warnings about records on process groups, want 26,175", rel, n)
		}
	}
	if !sawTachyon {
		t.Errorf("no Tachyon trace (tachyon*.otf) under %s", root)
	}
}

// countWarnings counts the warnings of a kind in a trace.Warnings list:
// the lines kept in full ("file:line: …" whose message ends in "skipped"
// and which are not summary lines) and the "… and N more: <kind>" lines.
func countWarnings(list []string, kind string) int {
	n := 0
	for _, w := range list {
		if i := strings.Index(w, "… and "); i >= 0 {
			if strings.HasSuffix(w, " more: "+kind) {
				var more int
				if _, err := fmt.Sscanf(w[i+len("… and "):], "%d", &more); err == nil {
					n += more
				}
			}
			continue
		}
		if kindOf(w) == kind {
			n++
		}
	}
	return n
}

// kindOf tells a warning line's kind by its message.
func kindOf(w string) string {
	switch {
	case strings.Contains(w, " on process group "):
		return warnKinds[warnGroup]
	case strings.Contains(w, ": malformed "):
		return warnKinds[warnMalformed]
	case strings.Contains(w, ": unknown record "):
		return warnKinds[warnUnknown]
	}
	return ""
}
