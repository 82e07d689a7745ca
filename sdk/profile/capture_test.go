package profile

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"superstep/topology/cluster"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtureProfile is 3 workers on 2 hosts (in 2 racks), 4 supersteps with known
// numbers: worker 0 and 1 on host "hA" in rack "r0", worker 2 on "hB" in
// "r1".
func fixtureProfile() *Profile {
	c := &cluster.Cluster{
		Racks:   []cluster.Rack{{Name: "r0"}, {Name: "r1"}},
		Hosts:   []cluster.Host{{Name: "hA", Rack: 0}, {Name: "hB", Rack: 1}},
		Workers: []cluster.Worker{{Name: "w0", Host: 0}, {Name: "w1", Host: 0}, {Name: "w2", Host: 1}},
	}
	p := &Profile{Job: "sssp-small", Program: "*algo.SSSP", Cluster: c, Vertices: []int64{4, 3, 5}}
	ms := time.Millisecond
	// Per superstep: compute, wait, comm (ns exact), active, processed.
	stats := [4][3]WorkerStats{
		{{3 * ms, 1 * ms, 0, 1, 1}, {0, 4 * ms, 0, 0, 0}, {2*ms + 17, 2*ms - 17, 0, 0, 0}},
		{{5 * ms, 0, 250 * time.Microsecond, 4, 4}, {2 * ms, 3 * ms, 0, 3, 3}, {1234567, 3765433, 0, 2, 2}},
		{{7 * ms, 1, 0, 4, 3}, {7*ms + 1, 0, 0, 3, 3}, {6 * ms, ms + 1, 0, 5, 5}},
		{{1, 2, 3, 0, 0}, {0, 0, 0, 0, 0}, {999, 0, 0, 1, 1}},
	}
	// messages[s][src][dst]; bytes are 12 per message except one pair.
	msgs := [4][3][3]int64{
		{{0, 3, 0}, {0, 0, 0}, {0, 0, 0}},
		{{2, 5, 1}, {4, 0, 6}, {0, 7, 8}},
		{{1, 0, 0}, {0, 0, 9}, {3, 0, 0}},
		{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
	}
	for i := range 4 {
		s := NewStep(i, 3)
		copy(s.Workers, stats[i][:])
		for src := range 3 {
			for dst := range 3 {
				s.Messages[src*3+dst] = msgs[i][src][dst]
				s.Bytes[src*3+dst] = 12 * msgs[i][src][dst]
			}
		}
		p.Steps = append(p.Steps, s)
	}
	p.Steps[2].Bytes[1*3+2] = 100 // 9 messages, 100 bytes
	p.Steps[3].Bytes[0*3+1] = 40  // bytes without messages (a header-only frame)
	return p
}

// synthProfile is a deterministic profile of w workers (2 per host, 2
// hosts per rack) and n supersteps, every pair talking.
func synthProfile(w, n int) *Profile {
	c, err := cluster.New((w+3)/4, 2, 2)
	if err != nil {
		panic(err)
	}
	c.Workers = c.Workers[:w]
	r := rand.New(rand.NewPCG(1, 2))
	p := &Profile{Job: "synthetic", Program: "pagerank", Cluster: c, Vertices: make([]int64, w)}
	for i := range p.Vertices {
		p.Vertices[i] = 100000 + r.Int64N(1000)
	}
	for i := range n {
		s := NewStep(i, w)
		var slowest time.Duration
		for k := range s.Workers {
			s.Workers[k].Compute = time.Duration(5e6 + r.Int64N(2e6))
			s.Workers[k].Comm = time.Duration(r.Int64N(3e5))
			s.Workers[k].Active = p.Vertices[k]
			s.Workers[k].Processed = p.Vertices[k]
			slowest = max(slowest, s.Workers[k].Compute+s.Workers[k].Comm)
		}
		for k := range s.Workers {
			s.Workers[k].Wait = slowest - s.Workers[k].Compute - s.Workers[k].Comm
		}
		for k := range s.Messages {
			s.Messages[k] = 20000 + r.Int64N(5000)
			s.Bytes[k] = 16 * s.Messages[k]
		}
		p.Steps = append(p.Steps, s)
	}
	return p
}

// captureBytes writes p through a CaptureWriter and also returns the end
// offset of every record (ends[0] is the header's).
func captureBytes(t testing.TB, p *Profile) ([]byte, []int) {
	t.Helper()
	var buf bytes.Buffer
	c := NewCaptureWriter(&buf)
	if err := c.WriteHeader(Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}); err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Steps {
		c.WriteStep(s)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// Record boundaries, by encoding each record on its own.
	var ends []int
	var rb bytes.Buffer
	e := msgpack.NewEncoder(&rb)
	must(t, encodeHeader(e, Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}))
	ends = append(ends, rb.Len())
	for _, s := range p.Steps {
		must(t, encodeStep(e, s, p.NumWorkers()))
		ends = append(ends, rb.Len())
	}
	must(t, encodeEnd(e, len(p.Steps)))
	ends = append(ends, rb.Len())
	if !bytes.Equal(rb.Bytes(), buf.Bytes()) {
		t.Fatal("the writer's bytes differ from the records encoded one by one")
	}
	return buf.Bytes(), ends
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCaptureRoundTrip(t *testing.T) {
	for _, p := range []*Profile{fixtureProfile(), synthProfile(8, 50), synthProfile(5, 3)} {
		data, _ := captureBytes(t, p)
		got, err := ReadCapture(bytes.NewReader(data), "x.capture")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("%s: read back differs\ngot  %+v\nwant %+v", p.Job, got, p)
		}
	}
}

func TestCaptureGolden(t *testing.T) {
	data, _ := captureBytes(t, fixtureProfile())
	golden := filepath.Join("testdata", "hand.capture")
	if *update {
		must(t, os.WriteFile(golden, data, 0o644))
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update to create it)", err)
	}
	if !bytes.Equal(data, want) {
		t.Fatalf("the capture format changed: %s differs (bump CaptureVersion, keep reading the old one, then -update)", golden)
	}
	p, err := LoadCapture(golden)
	must(t, err)
	if !reflect.DeepEqual(p, fixtureProfile()) {
		t.Fatal("golden capture reads back wrong")
	}
}

func TestCaptureFiles(t *testing.T) {
	p := fixtureProfile()
	path := filepath.Join(t.TempDir(), "job.capture")
	c, err := CreateCapture(path)
	must(t, err)
	must(t, c.WriteHeader(Header{Version: CaptureVersion, Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}))
	for _, s := range p.Steps {
		c.WriteStep(s)
	}
	must(t, c.Close())
	must(t, c.Close()) // twice is fine
	got, err := LoadCapture(path)
	must(t, err)
	if !reflect.DeepEqual(got, p) {
		t.Fatal("file round trip differs")
	}
	if _, err := LoadCapture(filepath.Join(t.TempDir(), "missing.capture")); err == nil {
		t.Fatal("missing file: no error")
	}
}

// The engine's Recorder interface: the header comes from the profile on the
// first step.
func TestCaptureRecordStep(t *testing.T) {
	p := fixtureProfile()
	var buf bytes.Buffer
	c := NewCaptureWriter(&buf)
	live := &Profile{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}
	for _, s := range p.Steps {
		live.Steps = append(live.Steps, s)
		c.RecordStep(live, s)
	}
	must(t, c.Close())
	got, err := ReadCapture(&buf, "rec")
	must(t, err)
	if !reflect.DeepEqual(got, p) {
		t.Fatal("RecordStep round trip differs")
	}
}

func TestCaptureTruncatedEverywhere(t *testing.T) {
	data, ends := captureBytes(t, fixtureProfile())
	for n := 0; n < len(data); n++ {
		p, err := ReadCapture(bytes.NewReader(data[:n]), "hand.capture")
		var ce *CaptureError
		if !errors.As(err, &ce) {
			t.Fatalf("cut at %d of %d: error %v, want a *CaptureError", n, len(data), err)
		}
		// The record the cut falls in (or the one that should follow).
		want := 1
		for want-1 < len(ends) && ends[want-1] <= n {
			want++
		}
		if ce.Record != want {
			t.Fatalf("cut at %d: error names record %d, want %d: %v", n, ce.Record, want, err)
		}
		if !strings.HasPrefix(err.Error(), "hand.capture: record ") {
			t.Fatalf("cut at %d: %q does not name the file and record", n, err)
		}
		atBoundary := want > 1 && ends[want-2] == n
		switch {
		case atBoundary && !errors.Is(err, ErrUnfinished):
			t.Fatalf("cut at record boundary %d: %v, want ErrUnfinished", n, err)
		case !atBoundary && n > 0 && !errors.Is(err, io.ErrUnexpectedEOF):
			t.Fatalf("cut inside a record at %d: %v, want io.ErrUnexpectedEOF", n, err)
		}
		// What was measured before the cut survives.
		if want > 1 {
			if p == nil || len(p.Steps) != want-2 {
				t.Fatalf("cut at %d: profile %v, want %d steps", n, p, want-2)
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// rec encodes one record from Go values.
func rec(t testing.TB, vals ...any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(vals)
	must(t, err)
	return b
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestCaptureMalformed(t *testing.T) {
	// A valid header for 8 workers, 4 hosts in 2 racks.
	hdr8 := func(version int) []byte {
		return rec(t, 1, "superstep.capture", version, "j", "prog",
			[]string{"r0", "r1"},
			[][]any{{"h0", 0}, {"h1", 0}, {"h2", 1}, {"h3", 1}},
			[][]any{{"w0", 0}, {"w1", 0}, {"w2", 1}, {"w3", 1}, {"w4", 2}, {"w5", 2}, {"w6", 3}, {"w7", 3}},
			[]int64{1, 1, 1, 1, 1, 1, 1, 1})
	}
	workers8 := make([]int64, 40)
	step := func(ss int, pairs ...int64) []byte { return rec(t, 2, ss, workers8, append([]int64{}, pairs...)) }
	// Records 2..16 are good steps, so that the bad one is record 17.
	var good [][]byte
	for i := range 15 {
		good = append(good, step(i, 0, 1, 5, 60))
	}
	goodSteps := join(good...)
	end := func(n int) []byte { return rec(t, 3, n) }
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"pair outside", join(hdr8(1), goodSteps, step(15, 3, 12, 1, 1), end(16)), "profile.capture: record 17: pair (3, 12) outside 8 workers"},
		{"negative messages", join(hdr8(1), goodSteps, step(15, 1, 2, -1, 0)), "record 17: pair (1, 2): negative count (-1 messages, 0 bytes)"},
		{"negative active", join(hdr8(1), rec(t, 2, 0, append([]int64{0, 0, 0, -3, 0}, workers8[5:]...), []int64{})), "record 2: superstep 0: worker 0 has a negative vertex count"},
		{"unknown version", join(hdr8(2), end(0)), "profile.capture: record 1: capture format version 2, this reader knows version 1"},
		{"wrong record kind", join(hdr8(1), goodSteps, rec(t, 9, 1)), "record 17: unknown record kind 9"},
		{"step first", step(0), "record 1: not a superstep capture: record kind 2, want a header (1)"},
		{"second header", join(hdr8(1), hdr8(1)), "record 2: a second header record"},
		{"not msgpack", []byte("superstep,worker\n0,1\n"), "record 1: not a superstep capture: msgpack: invalid code"},
		{"wrong magic", rec(t, 1, "giraph", 1, "", "", []string{}, []any{}, []any{}, []int64{}), `record 1: not a superstep capture: header says "giraph"`},
		{"no workers", rec(t, 1, "superstep.capture", 1, "", "", []string{}, []any{}, []any{}, []int64{}), "record 1: cluster has no workers"},
		{"host outside racks", rec(t, 1, "superstep.capture", 1, "", "", []string{"r"}, [][]any{{"h", 1}}, [][]any{{"w", 0}}, []int64{1}), "record 1: host 0 (h) is in rack 1 outside 0…0"},
		{"vertex counts", rec(t, 1, "superstep.capture", 1, "", "", []string{"r"}, [][]any{{"h", 0}}, [][]any{{"w", 0}}, []int64{1, 2}), "record 1: 2 vertex counts for 1 workers"},
		{"short worker values", join(hdr8(1), rec(t, 2, 0, []int64{1, 2, 3}, []int64{})), "record 2: superstep 0: 3 worker values, want 5 for each of 8 workers"},
		{"pair values", join(hdr8(1), step(0, 1, 2, 3)), "record 2: superstep 0: 3 pair values, not a multiple of 4"},
		{"repeated pair", join(hdr8(1), step(0, 1, 2, 3, 4, 1, 2, 3, 4)), "record 2: pair (1, 2) repeated or out of row-major order"},
		{"superstep order", join(hdr8(1), step(3), step(3)), "record 3: superstep 3 follows superstep 3"},
		{"negative superstep", join(hdr8(1), step(-1)), "record 2: superstep -1 outside"},
		{"step record length", join(hdr8(1), rec(t, 2, 0)), "record 2: step record has 2 elements, want 4"},
		{"end count", join(hdr8(1), step(0), end(5)), "record 3: end record counts 5 steps, the capture has 1"},
		{"after end", join(hdr8(1), end(0), step(0)), "record 3: data after the end record"},
		{"unfinished", join(hdr8(1), step(0)), "record 3: capture ends without its end record"},
		{"empty", nil, "record 1: empty stream"},
		{"string for int", join(hdr8(1), rec(t, 2, "zero", workers8, []int64{})), "record 2: msgpack: invalid code"},
		{"nil array", join(hdr8(1), rec(t, 2, 0, nil, []int64{})), "record 2: worker stats: nil, want an array"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCapture(bytes.NewReader(tc.data), "profile.capture")
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

func (w *failWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(b)
	return len(b), nil
}

func TestCaptureWriterErrors(t *testing.T) {
	p := fixtureProfile()
	h := Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}

	t.Run("step before header", func(t *testing.T) {
		c := NewCaptureWriter(io.Discard)
		c.WriteStep(p.Steps[0])
		if err := c.Close(); err == nil || !strings.Contains(err.Error(), "before the header") {
			t.Fatalf("Close: %v", err)
		}
	})
	t.Run("bad header", func(t *testing.T) {
		c := NewCaptureWriter(io.Discard)
		bad := h
		bad.Vertices = []int64{1}
		if err := c.WriteHeader(bad); err == nil || !strings.Contains(err.Error(), "1 vertex counts for 3 workers") {
			t.Fatalf("WriteHeader: %v", err)
		}
		bad = h
		bad.Version = 7
		if err := c.WriteHeader(bad); err == nil || !strings.Contains(err.Error(), "version 7") {
			t.Fatalf("WriteHeader: %v", err)
		}
		must(t, c.WriteHeader(h))
		if err := c.WriteHeader(h); err == nil {
			t.Fatal("second WriteHeader: no error")
		}
		must(t, c.Close())
	})
	t.Run("bad steps skipped", func(t *testing.T) {
		var buf bytes.Buffer
		c := NewCaptureWriter(&buf)
		must(t, c.WriteHeader(h))
		c.WriteStep(p.Steps[0])
		c.WriteStep(NewStep(1, 2)) // wrong size
		c.WriteStep(p.Steps[0])    // out of order
		neg := NewStep(5, 3)
		neg.Messages[4] = -1
		c.WriteStep(neg)
		c.WriteStep(p.Steps[1])
		err := c.Close()
		if err == nil || !strings.Contains(err.Error(), "superstep 1 skipped: 2 workers") {
			t.Fatalf("Close: %v", err)
		}
		got, err := ReadCapture(&buf, "skip")
		must(t, err)
		if len(got.Steps) != 2 || got.Steps[1].Superstep != 1 {
			t.Fatalf("steps %v", got.Steps)
		}
		c.WriteStep(p.Steps[2]) // after Close: ignored, no panic
	})
	t.Run("write error", func(t *testing.T) {
		for _, n := range []int{0, 10, 200} {
			c := NewCaptureWriter(&failWriter{n: n})
			err := c.WriteHeader(h)
			if n < 100 {
				if err == nil {
					t.Fatalf("n=%d: WriteHeader: no error", n)
				}
			} else {
				must(t, err)
			}
			big := synthProfile(3, 2000) // more than the buffer holds
			for _, s := range big.Steps {
				c.WriteStep(s)
			}
			if err := c.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Fatalf("n=%d: Close: %v", n, err)
			}
		}
	})
	t.Run("closed without header", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "x")
		c, err := CreateCapture(path)
		must(t, err)
		if err := c.Close(); err == nil {
			t.Fatal("no error")
		}
	})
}

// gateWriter blocks every Write while stalled: a stalled disk.
type gateWriter struct {
	mu      sync.Mutex
	cond    *sync.Cond
	stalled bool
	buf     bytes.Buffer
}

func newGateWriter() *gateWriter {
	g := &gateWriter{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gateWriter) Write(b []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.stalled {
		g.cond.Wait()
	}
	return g.buf.Write(b)
}

func (g *gateWriter) stall(on bool) {
	g.mu.Lock()
	g.stalled = on
	g.mu.Unlock()
	g.cond.Broadcast()
}

// The engine never waits on the disk: with the disk stalled, far more
// steps than the channel holds are queued at once, and come out in order.
func TestCaptureStalledDisk(t *testing.T) {
	p := synthProfile(4, 5000)
	g := newGateWriter()
	c := NewCaptureWriter(g)
	must(t, c.WriteHeader(Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}))
	g.stall(true)
	done := make(chan struct{})
	go func() {
		for _, s := range p.Steps {
			c.WriteStep(s)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("WriteStep blocked on a stalled disk")
	}
	g.stall(false)
	must(t, c.Close())
	got, err := ReadCapture(&g.buf, "stalled")
	must(t, err)
	if !reflect.DeepEqual(got, p) {
		t.Fatal("steps lost or reordered")
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// A job that dies leaves a capture holding every superstep handed over
// before the writer went idle.
func TestCaptureCrashKeepsSteps(t *testing.T) {
	p := fixtureProfile()
	var out syncBuffer
	c := NewCaptureWriter(&out)
	must(t, c.WriteHeader(Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}))
	for _, s := range p.Steps[:3] {
		c.WriteStep(s)
	}
	// No Close: the job "crashed". The writer flushes when idle.
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := ReadCapture(bytes.NewReader(out.Bytes()), "crashed.capture")
		if errors.Is(err, ErrUnfinished) && len(got.Steps) == 3 {
			want := *p
			want.Steps = p.Steps[:3]
			if !reflect.DeepEqual(got, &want) {
				t.Fatal("partial profile differs")
			}
			if !strings.Contains(err.Error(), "crashed.capture: record 5: capture ends without its end record") {
				t.Fatalf("error %q", err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s the capture still reads %v", err)
		}
		time.Sleep(time.Millisecond)
	}
	must(t, c.Close())
}

func BenchmarkWriteStep(b *testing.B) {
	p := synthProfile(8, 1)
	h := Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}
	base := p.Steps[0]
	const batch = captureQueue // within the channel: no overflow list
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(batch, b.N-done)
		b.StopTimer()
		c := NewCaptureWriter(io.Discard)
		if err := c.WriteHeader(h); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for i := range n {
			s := base // the slices are shared read-only: never modified
			s.Superstep = i
			c.WriteStep(s)
		}
		b.StopTimer()
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		done += n
	}
}

// notifyWriter signals every Write: the writing goroutine has flushed.
type notifyWriter chan struct{}

func (w notifyWriter) Write(b []byte) (int, error) { w <- struct{}{}; return len(b), nil }

// BenchmarkWriteStepIdle is WriteStep as a running job sees it: the writing
// goroutine is idle (parked) when each superstep arrives, so each call
// also wakes it. Only the WriteStep call is timed (ns/call).
func BenchmarkWriteStepIdle(b *testing.B) {
	p := synthProfile(8, 1)
	h := Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}
	base := p.Steps[0]
	w := make(notifyWriter, 1)
	c := NewCaptureWriter(w)
	go func() { <-w }() // the header's flush
	if err := c.WriteHeader(h); err != nil {
		b.Fatal(err)
	}
	var spent time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := base
		s.Superstep = i
		t0 := time.Now()
		c.WriteStep(s)
		spent += time.Since(t0)
		<-w // written and flushed: the goroutine goes idle again
	}
	b.StopTimer()
	b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N), "ns/call")
	go func() {
		for range w {
		}
	}()
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	close(w)
}

// BenchmarkCaptureEncode is the writing goroutine's cost per step of 8
// workers with every pair talking.
func BenchmarkCaptureEncode(b *testing.B) {
	p := synthProfile(8, 1)
	var buf bytes.Buffer
	e := msgpack.NewEncoder(&buf)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := encodeStep(e, p.Steps[0], 8); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
