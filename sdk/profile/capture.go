package profile

// The live capture stream.
//
// While a job runs, the engine hands every finished superstep to a
// CaptureWriter, which encodes and writes it on its own goroutine, so the
// engine never waits on the disk and a crash keeps every superstep written
// before it. The stream is a sequence of msgpack records, each one msgpack
// array (so each is self-delimiting), whose first element is the record
// kind:
//
//	header  [1, "superstep.capture", version, job, program,
//	         racks [name...], hosts [[name, rack]...], workers [[name, host]...],
//	         vertices [n...]]
//	step    [2, superstep,
//	         workers [compute, wait, comm, active, processed, ...]   5 per worker
//	         pairs   [src, dst, messages, bytes, ...]]               4 per non-zero pair
//	end     [3, number of step records]
//
// Times are int64 nanoseconds. A pair is listed when its messages or its
// bytes are not zero; the pairs of a step are in row-major order. The end
// record, written by Close, tells a finished capture from one cut short.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"superstep/topology/cluster"
)

// CaptureVersion is the version of the capture format this package writes
// and the only one it reads.
const CaptureVersion = 1

// captureMagic is the second element of a header record.
const captureMagic = "superstep.capture"

// Record kinds.
const (
	recHeader = 1
	recStep   = 2
	recEnd    = 3
)

// Elements of each record kind, the kind included.
const (
	headerLen = 9
	stepLen   = 4
	endLen    = 2
)

// captureQueue is the capacity of the channel between WriteStep and the
// writing goroutine. Beyond it steps wait in an unbounded overflow list, so
// WriteStep never blocks.
const captureQueue = 1024

// Header is the first record of a capture: what is known when the job
// starts.
type Header struct {
	// Version is the capture format version; 0 means CaptureVersion, the
	// only one WriteHeader accepts.
	Version  int
	Job      string
	Program  string
	Cluster  *cluster.Cluster
	Vertices []int64 // graph vertices per worker
}

// ErrUnfinished is wrapped by ReadCapture's error when a capture stops at a
// record boundary without its end record: the job crashed, is still
// running, or the writer was never closed. The profile returned with it
// holds every superstep the capture has.
var ErrUnfinished = errors.New("capture ends without its end record (the job did not finish or the writer was not closed)")

// CaptureError is a problem with one record of a capture.
type CaptureError struct {
	Name   string // the file (or whatever name ReadCapture was given)
	Record int    // 1-based; the header is record 1
	Err    error
}

func (e *CaptureError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("record %d: %v", e.Record, e.Err)
	}
	return fmt.Sprintf("%s: record %d: %v", e.Name, e.Record, e.Err)
}

func (e *CaptureError) Unwrap() error { return e.Err }

// CaptureWriter streams a profile to an io.Writer while the job runs.
//
// Call WriteHeader once, then WriteStep for every superstep in order, then
// Close. WriteHeader and Close do I/O on the caller's goroutine; WriteStep
// never does. The methods are safe to call from several goroutines, but
// steps are written in the order WriteStep is called.
type CaptureWriter struct {
	closer io.Closer // the file CreateCapture opened, or nil
	bw     *bufio.Writer
	enc    *msgpack.Encoder

	ch   chan Step
	wake chan struct{} // capacity 1: "look at the overflow or at closed"
	done chan struct{} // closed when the goroutine has finished

	mu       sync.Mutex
	overflow []Step // steps that found ch full, in order; while not empty, every step goes here
	started  bool   // WriteHeader succeeded and the goroutine runs
	closed   bool
	err      error // the first error

	// Owned by the writing goroutine (and by Close once it has finished).
	workers int
	steps   int
	last    int
	wfailed bool // a write failed: later records are dropped
}

// NewCaptureWriter returns a writer that streams a capture to w. It
// buffers; Close flushes. If w is an io.Closer, Close does not close it
// (CreateCapture's writer closes its file).
func NewCaptureWriter(w io.Writer) *CaptureWriter {
	bw := bufio.NewWriterSize(w, 64<<10)
	return &CaptureWriter{
		bw:   bw,
		enc:  msgpack.NewEncoder(bw),
		ch:   make(chan Step, captureQueue),
		wake: make(chan struct{}, 1),
		done: make(chan struct{}),
		last: -1,
	}
}

// CreateCapture creates (or truncates) the file at path and returns a
// writer streaming a capture to it; Close closes the file.
func CreateCapture(path string) (*CaptureWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	c := NewCaptureWriter(f)
	c.closer = f
	return c, nil
}

// WriteHeader validates h, writes the header record and flushes it, so the
// file names its job and cluster from the start. It must be called once,
// before any WriteStep.
func (c *CaptureWriter) WriteHeader(h Header) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return errors.New("capture: WriteHeader after Close")
	case c.started:
		return errors.New("capture: WriteHeader called twice")
	case c.err != nil:
		return c.err
	}
	if err := h.validate(); err != nil {
		return fmt.Errorf("capture header: %w", err)
	}
	if err := encodeHeader(c.enc, h); err != nil {
		c.err = err
		return err
	}
	if err := c.bw.Flush(); err != nil {
		c.err = err
		return err
	}
	c.workers = h.Cluster.NumWorkers()
	c.started = true
	go c.run()
	return nil
}

// WriteStep queues s to be written and returns at once: it never blocks,
// whatever the disk does (steps the writing goroutine has not reached yet
// wait in memory).
//
// The caller gives up ownership of s: s is not copied, so its Workers,
// Messages and Bytes slices must not be modified or reused after the call.
// The engine allocates each superstep's slices afresh (NewStep).
//
// Problems (a step before the header or after Close, a step whose sizes
// disagree with the cluster, supersteps out of order, negative counts, a
// write error) are not reported here: Err and Close return the first one.
// A bad step is skipped; a write error makes later steps be dropped.
func (c *CaptureWriter) WriteStep(s Step) {
	c.mu.Lock()
	if !c.started || c.closed {
		if c.err == nil {
			if c.closed {
				c.err = fmt.Errorf("capture: superstep %d written after Close", s.Superstep)
			} else {
				c.err = fmt.Errorf("capture: superstep %d written before the header", s.Superstep)
			}
		}
		c.mu.Unlock()
		return
	}
	if len(c.overflow) == 0 {
		select {
		case c.ch <- s:
			c.mu.Unlock()
			return
		default:
		}
	}
	c.overflow = append(c.overflow, s)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// RecordStep makes a CaptureWriter an engine Recorder (sdk/bsp): on the
// first call it writes the header from p (job, program, cluster,
// vertices), then it hands s to WriteStep. The engine does not modify a
// step after recording it, which is what WriteStep needs.
func (c *CaptureWriter) RecordStep(p *Profile, s Step) {
	c.mu.Lock()
	need := !c.started && !c.closed && c.err == nil
	c.mu.Unlock()
	if need {
		// The error is kept for Close; WriteStep then drops the step.
		c.setErr(c.WriteHeader(Header{Job: p.Job, Program: p.Program, Cluster: p.Cluster, Vertices: p.Vertices}))
	}
	c.WriteStep(s)
}

// Err returns the first error so far, without waiting for queued steps.
func (c *CaptureWriter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close waits until every queued step is written, writes the end record,
// flushes, closes the file if CreateCapture opened it, and returns the
// first error of the writer's life. Calling Close again returns the same
// error.
func (c *CaptureWriter) Close() error {
	c.mu.Lock()
	if c.closed {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.closed = true
	started := c.started
	if !started && c.err == nil {
		c.err = errors.New("capture: closed without a header")
	}
	c.mu.Unlock()
	if started {
		select {
		case c.wake <- struct{}{}:
		default:
		}
		<-c.done
		// The goroutine has finished: its state is ours.
		if !c.wfailed {
			if err := encodeEnd(c.enc, c.steps); err != nil {
				c.setErr(err)
			} else if err := c.bw.Flush(); err != nil {
				c.setErr(err)
			}
		}
	}
	if c.closer != nil {
		if err := c.closer.Close(); err != nil {
			c.setErr(err)
		}
	}
	return c.Err()
}

func (c *CaptureWriter) setErr(err error) {
	if err == nil {
		return
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
}

// run is the writing goroutine.
func (c *CaptureWriter) run() {
	defer close(c.done)
	for {
		// Everything in the channel was queued before anything in the
		// overflow list.
		select {
		case s := <-c.ch:
			c.write(s)
			continue
		default:
		}
		c.mu.Lock()
		if len(c.ch) > 0 { // filled up since we looked: keep the order
			c.mu.Unlock()
			continue
		}
		batch := c.overflow
		c.overflow = nil
		closed := c.closed
		c.mu.Unlock()
		for _, s := range batch {
			c.write(s)
		}
		if len(batch) > 0 {
			continue
		}
		if closed {
			return
		}
		// Idle: hand what we have to the OS, so a crash keeps it.
		c.flush()
		select {
		case s := <-c.ch:
			c.write(s)
		case <-c.wake:
		}
	}
}

func (c *CaptureWriter) flush() {
	if c.wfailed || c.bw.Buffered() == 0 {
		return
	}
	if err := c.bw.Flush(); err != nil {
		c.wfailed = true
		c.setErr(err)
	}
}

// write encodes one step on the writing goroutine.
func (c *CaptureWriter) write(s Step) {
	if c.wfailed {
		return
	}
	if err := c.checkStep(s); err != nil {
		c.setErr(fmt.Errorf("capture: superstep %d skipped: %w", s.Superstep, err))
		return
	}
	if err := encodeStep(c.enc, s, c.workers); err != nil {
		c.wfailed = true
		c.setErr(err)
		return
	}
	c.steps++
	c.last = s.Superstep
}

func (c *CaptureWriter) checkStep(s Step) error {
	w := c.workers
	if len(s.Workers) != w || len(s.Messages) != w*w || len(s.Bytes) != w*w {
		return fmt.Errorf("%d workers and %d/%d pair counts, want %d and %d", len(s.Workers), len(s.Messages), len(s.Bytes), w, w*w)
	}
	if s.Superstep < 0 || s.Superstep > math.MaxInt32 {
		return fmt.Errorf("superstep number outside 0…%d", math.MaxInt32)
	}
	if s.Superstep <= c.last {
		return fmt.Errorf("follows superstep %d", c.last)
	}
	for i, ws := range s.Workers {
		if ws.Active < 0 || ws.Processed < 0 {
			return fmt.Errorf("worker %d: negative vertex count", i)
		}
	}
	for i := range s.Messages {
		if s.Messages[i] < 0 || s.Bytes[i] < 0 {
			return fmt.Errorf("pair (%d, %d): negative count", i/w, i%w)
		}
	}
	return nil
}

func (h *Header) validate() error {
	if h.Version != 0 && h.Version != CaptureVersion {
		return fmt.Errorf("format version %d: this package writes version %d", h.Version, CaptureVersion)
	}
	if h.Cluster == nil {
		return errors.New("no cluster")
	}
	if err := h.Cluster.Validate(); err != nil {
		return err
	}
	if w := h.Cluster.NumWorkers(); len(h.Vertices) != w {
		return fmt.Errorf("%d vertex counts for %d workers", len(h.Vertices), w)
	}
	for i, v := range h.Vertices {
		if v < 0 {
			return fmt.Errorf("worker %d has %d vertices", i, v)
		}
	}
	return nil
}

// encoder writes msgpack values and keeps the first error.
type encoder struct {
	e   *msgpack.Encoder
	err error
}

func (e *encoder) arr(n int) {
	if e.err == nil {
		e.err = e.e.EncodeArrayLen(n)
	}
}

func (e *encoder) int(v int64) {
	if e.err == nil {
		e.err = e.e.EncodeInt(v)
	}
}

func (e *encoder) str(s string) {
	if e.err == nil {
		e.err = e.e.EncodeString(s)
	}
}

func encodeHeader(me *msgpack.Encoder, h Header) error {
	e := &encoder{e: me}
	c := h.Cluster
	e.arr(headerLen)
	e.int(recHeader)
	e.str(captureMagic)
	e.int(CaptureVersion)
	e.str(h.Job)
	e.str(h.Program)
	e.arr(len(c.Racks))
	for _, r := range c.Racks {
		e.str(r.Name)
	}
	e.arr(len(c.Hosts))
	for _, hs := range c.Hosts {
		e.arr(2)
		e.str(hs.Name)
		e.int(int64(hs.Rack))
	}
	e.arr(len(c.Workers))
	for _, w := range c.Workers {
		e.arr(2)
		e.str(w.Name)
		e.int(int64(w.Host))
	}
	e.arr(len(h.Vertices))
	for _, v := range h.Vertices {
		e.int(v)
	}
	return e.err
}

func encodeStep(me *msgpack.Encoder, s Step, w int) error {
	e := &encoder{e: me}
	e.arr(stepLen)
	e.int(recStep)
	e.int(int64(s.Superstep))
	e.arr(5 * w)
	for _, ws := range s.Workers {
		e.int(int64(ws.Compute))
		e.int(int64(ws.Wait))
		e.int(int64(ws.Comm))
		e.int(ws.Active)
		e.int(ws.Processed)
	}
	pairs := 0
	for i := range s.Messages {
		if s.Messages[i] != 0 || s.Bytes[i] != 0 {
			pairs++
		}
	}
	e.arr(4 * pairs)
	for i := range s.Messages {
		if s.Messages[i] != 0 || s.Bytes[i] != 0 {
			e.int(int64(i / w))
			e.int(int64(i % w))
			e.int(s.Messages[i])
			e.int(s.Bytes[i])
		}
	}
	return e.err
}

func encodeEnd(me *msgpack.Encoder, steps int) error {
	e := &encoder{e: me}
	e.arr(endLen)
	e.int(recEnd)
	e.int(int64(steps))
	return e.err
}

// LoadCapture reads the capture file at path (see ReadCapture).
func LoadCapture(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCapture(bufio.NewReaderSize(f, 64<<10), path)
}

// ReadCapture reads a capture back into the profile that was written. name
// is used in errors (normally the file name), which are *CaptureError
// values naming the record: "profile.capture: record 17: pair (3, 12)
// outside 8 workers".
//
// A capture without its end record is an error wrapping ErrUnfinished, a
// capture cut inside a record one wrapping io.ErrUnexpectedEOF. On any
// error after a good header, ReadCapture also returns the profile of the
// complete supersteps before the bad record, so what a crashed job
// measured can still be looked at; before that the profile is nil.
func ReadCapture(r io.Reader, name string) (*Profile, error) {
	return FollowCapture(r, name, nil)
}

// FollowCapture is ReadCapture for a capture still being written: it calls
// onStep (unless nil) with the profile so far and each superstep as soon
// as its record has been read, which is how a live view follows a job
// running in other processes. r must block (or wait and retry) at the
// end of what has been written rather than return io.EOF early.
func FollowCapture(r io.Reader, name string, onStep func(p *Profile, s Step)) (*Profile, error) {
	d := &decoder{d: msgpack.NewDecoder(r)}
	fail := func(rec int, err error) error { return &CaptureError{Name: name, Record: rec, Err: err} }

	// Record 1: the header.
	p, err := d.header()
	if err != nil {
		return nil, fail(1, err)
	}
	w := p.NumWorkers()
	for rec := 2; ; rec++ {
		kind, n, err := d.recordStart()
		if err == io.EOF {
			return p, fail(rec, ErrUnfinished)
		}
		if err != nil {
			return p, fail(rec, err)
		}
		switch kind {
		case recStep:
			if n != stepLen {
				return p, fail(rec, fmt.Errorf("step record has %d elements, want %d", n, stepLen))
			}
			last := -1
			if len(p.Steps) > 0 {
				last = p.Steps[len(p.Steps)-1].Superstep
			}
			s, err := d.step(w, last)
			if err != nil {
				return p, fail(rec, err)
			}
			p.Steps = append(p.Steps, s)
			if onStep != nil {
				onStep(p, s)
			}
		case recEnd:
			if n != endLen {
				return p, fail(rec, fmt.Errorf("end record has %d elements, want %d", n, endLen))
			}
			count, err := d.int()
			if err != nil {
				return p, fail(rec, err)
			}
			if count != int64(len(p.Steps)) {
				return p, fail(rec, fmt.Errorf("end record counts %d steps, the capture has %d", count, len(p.Steps)))
			}
			if _, err := d.d.PeekCode(); err != io.EOF {
				if err != nil {
					return p, fail(rec+1, err)
				}
				return p, fail(rec+1, errors.New("data after the end record"))
			}
			return p, nil
		case recHeader:
			return p, fail(rec, errors.New("a second header record"))
		default:
			return p, fail(rec, fmt.Errorf("unknown record kind %d", kind))
		}
	}
}

// decoder reads msgpack values, turning a stream that ends inside a record
// into io.ErrUnexpectedEOF and malformed values into plain errors.
type decoder struct{ d *msgpack.Decoder }

func (d *decoder) fix(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("truncated: %w", io.ErrUnexpectedEOF)
	}
	return err
}

func (d *decoder) int() (int64, error) {
	v, err := d.d.DecodeInt64()
	return v, d.fix(err)
}

func (d *decoder) str() (string, error) {
	s, err := d.d.DecodeString()
	return s, d.fix(err)
}

func (d *decoder) arr(what string) (int, error) {
	n, err := d.d.DecodeArrayLen()
	if err != nil {
		return 0, d.fix(err)
	}
	if n < 0 {
		return 0, fmt.Errorf("%s: nil, want an array", what)
	}
	return n, nil
}

// recordStart reads a record's array length and kind. It returns io.EOF
// itself when the stream ends cleanly before the record.
func (d *decoder) recordStart() (kind int64, n int, err error) {
	if _, err := d.d.PeekCode(); err == io.EOF {
		return 0, 0, io.EOF
	}
	n, err = d.arr("record")
	if err != nil {
		return 0, 0, err
	}
	if n < 1 {
		return 0, 0, errors.New("empty record")
	}
	kind, err = d.int()
	return kind, n, err
}

// index reads an index in [0, n).
func (d *decoder) index(what string, n int) (int, error) {
	v, err := d.int()
	if err != nil {
		return 0, err
	}
	if v < 0 || v >= int64(n) {
		return 0, fmt.Errorf("%s %d outside 0…%d", what, v, n-1)
	}
	return int(v), nil
}

func (d *decoder) header() (*Profile, error) {
	kind, n, err := d.recordStart()
	if err == io.EOF {
		return nil, errors.New("empty stream, want a capture header")
	}
	if err != nil {
		return nil, fmt.Errorf("not a superstep capture: %w", err)
	}
	if kind != recHeader {
		return nil, fmt.Errorf("not a superstep capture: record kind %d, want a header (%d)", kind, recHeader)
	}
	if n != headerLen {
		return nil, fmt.Errorf("header has %d elements, want %d", n, headerLen)
	}
	magic, err := d.str()
	if err != nil {
		return nil, err
	}
	if magic != captureMagic {
		return nil, fmt.Errorf("not a superstep capture: header says %q", magic)
	}
	version, err := d.int()
	if err != nil {
		return nil, err
	}
	if version != CaptureVersion {
		return nil, fmt.Errorf("capture format version %d, this reader knows version %d", version, CaptureVersion)
	}
	p := &Profile{Cluster: &cluster.Cluster{}}
	if p.Job, err = d.str(); err != nil {
		return nil, err
	}
	if p.Program, err = d.str(); err != nil {
		return nil, err
	}
	c := p.Cluster
	// Racks, hosts and workers; lengths are not trusted for allocation.
	nr, err := d.arr("racks")
	if err != nil {
		return nil, err
	}
	for i := 0; i < nr; i++ {
		name, err := d.str()
		if err != nil {
			return nil, err
		}
		c.Racks = append(c.Racks, cluster.Rack{Name: name})
	}
	nh, err := d.arr("hosts")
	if err != nil {
		return nil, err
	}
	for i := 0; i < nh; i++ {
		if m, err := d.arr("host"); err != nil {
			return nil, err
		} else if m != 2 {
			return nil, fmt.Errorf("host %d has %d fields, want 2 (name, rack)", i, m)
		}
		name, err := d.str()
		if err != nil {
			return nil, err
		}
		rack, err := d.index(fmt.Sprintf("host %d (%s) is in rack", i, name), len(c.Racks))
		if err != nil {
			return nil, err
		}
		c.Hosts = append(c.Hosts, cluster.Host{Name: name, Rack: rack})
	}
	nw, err := d.arr("workers")
	if err != nil {
		return nil, err
	}
	if nw == 0 {
		return nil, errors.New("cluster has no workers")
	}
	for i := 0; i < nw; i++ {
		if m, err := d.arr("worker"); err != nil {
			return nil, err
		} else if m != 2 {
			return nil, fmt.Errorf("worker %d has %d fields, want 2 (name, host)", i, m)
		}
		name, err := d.str()
		if err != nil {
			return nil, err
		}
		host, err := d.index(fmt.Sprintf("worker %d (%s) is on host", i, name), len(c.Hosts))
		if err != nil {
			return nil, err
		}
		c.Workers = append(c.Workers, cluster.Worker{Name: name, Host: host})
	}
	nv, err := d.arr("vertices")
	if err != nil {
		return nil, err
	}
	if nv != nw {
		return nil, fmt.Errorf("%d vertex counts for %d workers", nv, nw)
	}
	p.Vertices = make([]int64, nw)
	for i := range p.Vertices {
		if p.Vertices[i], err = d.int(); err != nil {
			return nil, err
		}
		if p.Vertices[i] < 0 {
			return nil, fmt.Errorf("worker %d has %d vertices", i, p.Vertices[i])
		}
	}
	return p, nil
}

// step reads the rest of a step record for w workers; last is the previous
// superstep (-1 for none).
func (d *decoder) step(w, last int) (Step, error) {
	ss, err := d.int()
	if err != nil {
		return Step{}, err
	}
	if ss < 0 || ss > math.MaxInt32 {
		return Step{}, fmt.Errorf("superstep %d outside 0…%d", ss, math.MaxInt32)
	}
	if int(ss) <= last {
		return Step{}, fmt.Errorf("superstep %d follows superstep %d", ss, last)
	}
	n, err := d.arr("worker stats")
	if err != nil {
		return Step{}, err
	}
	if n != 5*w {
		return Step{}, fmt.Errorf("superstep %d: %d worker values, want 5 for each of %d workers", ss, n, w)
	}
	s := NewStep(int(ss), w)
	for i := range s.Workers {
		var v [5]int64
		for j := range v {
			if v[j], err = d.int(); err != nil {
				return Step{}, err
			}
		}
		if v[3] < 0 || v[4] < 0 {
			return Step{}, fmt.Errorf("superstep %d: worker %d has a negative vertex count (active %d, processed %d)", ss, i, v[3], v[4])
		}
		s.Workers[i] = WorkerStats{Compute: time.Duration(v[0]), Wait: time.Duration(v[1]), Comm: time.Duration(v[2]), Active: v[3], Processed: v[4]}
	}
	n, err = d.arr("pairs")
	if err != nil {
		return Step{}, err
	}
	if n%4 != 0 {
		return Step{}, fmt.Errorf("superstep %d: %d pair values, not a multiple of 4 (src, dst, messages, bytes)", ss, n)
	}
	prev := -1
	for k := 0; k < n/4; k++ {
		var v [4]int64
		for j := range v {
			if v[j], err = d.int(); err != nil {
				return Step{}, err
			}
		}
		src, dst, m, b := v[0], v[1], v[2], v[3]
		if src < 0 || src >= int64(w) || dst < 0 || dst >= int64(w) {
			return Step{}, fmt.Errorf("pair (%d, %d) outside %d workers", src, dst, w)
		}
		if m < 0 || b < 0 {
			return Step{}, fmt.Errorf("pair (%d, %d): negative count (%d messages, %d bytes)", src, dst, m, b)
		}
		i := int(src)*w + int(dst)
		if i <= prev {
			return Step{}, fmt.Errorf("pair (%d, %d) repeated or out of row-major order", src, dst)
		}
		prev = i
		s.Messages[i], s.Bytes[i] = m, b
	}
	return s, nil
}
