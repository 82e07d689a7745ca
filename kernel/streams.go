package kernel

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"superstep/display"
)

// streams collects a cell's stdout and stderr and sends them to iopub while
// the cell runs: every flushInterval, or sooner when a buffer fills. Past
// the output limit, text is counted instead of sent, and the cell ends with
// a notice of how much was cut.
type streams struct {
	k     *Kernel
	limit int

	mu      sync.Mutex
	buf     map[string][]byte
	sent    int // bytes sent for the current cell
	dropped int // bytes cut for the current cell
	noticed bool

	pipes []*capturedFD
}

const (
	flushInterval = 50 * time.Millisecond
	flushSize     = 64 << 10
)

func newStreams(k *Kernel, limit int) *streams {
	return &streams{k: k, limit: limit, buf: map[string][]byte{}}
}

type streamWriter struct {
	s    *streams
	name string
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.s.write(w.name, p)
	return len(p), nil
}

func (s *streams) writer(name string) io.Writer { return streamWriter{s, name} }

func (s *streams) write(name string, p []byte) {
	s.mu.Lock()
	room := s.limit - s.sent - len(s.buf["stdout"]) - len(s.buf["stderr"])
	if room <= 0 {
		s.dropped += len(p)
		notice := !s.noticed
		s.noticed = true
		s.mu.Unlock()
		if notice {
			s.flushAll()
			s.send("stderr", []byte(fmt.Sprintf("\n[output cut: this cell printed more than %s; the rest is counted, not shown]\n", byteSize(s.limit))))
		}
		return
	}
	if len(p) > room {
		s.dropped += len(p) - room
		p = p[:room]
	}
	s.buf[name] = append(s.buf[name], p...)
	full := len(s.buf[name]) >= flushSize
	s.mu.Unlock()
	if full {
		s.flushAll()
	}
}

// pipe returns the write end of a pipe whose text goes to the named
// stream, as the cell's os.Stdout or os.Stderr: writes keep their order
// with fmt's, which go through the same file.
func (s *streams) pipe(name string) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("creating the %s pipe: %w", name, err)
	}
	c, err := newCapturedFD(r, s.writer(name))
	if err != nil {
		return nil, fmt.Errorf("reading the %s pipe: %w", name, err)
	}
	s.mu.Lock()
	s.pipes = append(s.pipes, c)
	s.mu.Unlock()
	go c.copy()
	return w, nil
}

// sync waits until what was written to the pipes has been read, then
// sends everything: a display shows after the text printed before it.
func (s *streams) sync() {
	s.mu.Lock()
	pipes := append([]*capturedFD(nil), s.pipes...)
	s.mu.Unlock()
	for _, p := range pipes {
		p.drain()
	}
	s.flushAll()
}

// flushAll sends what is buffered, stdout first.
func (s *streams) flushAll() {
	s.mu.Lock()
	out, errb := s.buf["stdout"], s.buf["stderr"]
	s.buf["stdout"], s.buf["stderr"] = nil, nil
	s.sent += len(out) + len(errb)
	s.mu.Unlock()
	if len(out) > 0 {
		s.send("stdout", out)
	}
	if len(errb) > 0 {
		s.send("stderr", errb)
	}
}

func (s *streams) send(name string, text []byte) {
	s.k.mu.Lock()
	run := s.k.lastRun
	s.k.mu.Unlock()
	var parent []byte
	if run != nil {
		parent = run.req.RawHeader
		if run.silent {
			return
		}
	}
	s.k.publish(parent, "stream", streamContent{Name: name, Text: string(text)})
}

func (s *streams) flushLoop(done <-chan struct{}) {
	t := time.NewTicker(flushInterval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			s.flushAll()
		}
	}
}

func (s *streams) startCell() {
	s.mu.Lock()
	s.sent, s.dropped, s.noticed = 0, 0, false
	s.mu.Unlock()
}

// endCell waits for output still in the captured descriptors, sends
// everything, and reports how much was cut.
func (s *streams) endCell() {
	s.sync()
	s.mu.Lock()
	dropped, sent := s.dropped, s.sent
	s.mu.Unlock()
	if dropped > 0 {
		s.send("stderr", []byte(fmt.Sprintf("[output cut: %s of %s not shown; set SUPERSTEP_OUTPUT_LIMIT (bytes) to change the limit of %s]\n",
			byteSize(dropped), byteSize(dropped+sent), byteSize(s.limit))))
	}
}

// byteSize writes a size as every display does (display.FormatBytes).
func byteSize(n int) string { return display.FormatBytes(float64(n)) }

// capturedFD is the read end of a pipe whose text goes to a stream: the
// cell's os.Stdout or os.Stderr, or descriptor 1 or 2 redirected so that
// writes that bypass the interpreter (compiled code, a C library) reach the
// notebook too.
//
// The pipe is read without blocking, always under mu: a goroutine reads
// when poll says there is data, and drain reads whatever is there. Once
// drain returns, everything written to the pipe before it was called has
// been handed to the stream (a write to a pipe is in the pipe when it
// returns), so a display or the cell's end never overtakes printed text.
type capturedFD struct {
	r   *os.File // kept open: fd belongs to it
	fd  int
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

func newCapturedFD(r *os.File, w io.Writer) (*capturedFD, error) {
	c := &capturedFD{r: r, w: w, buf: make([]byte, 32<<10)}
	rc, err := r.SyscallConn()
	if err != nil {
		return nil, err
	}
	if err := rc.Control(func(fd uintptr) { c.fd = int(fd) }); err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(c.fd, true); err != nil {
		return nil, err
	}
	return c, nil
}

// copy hands what arrives in the pipe to the stream until the pipe is
// closed.
func (c *capturedFD) copy() {
	for {
		fds := []unix.PollFd{{Fd: int32(c.fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if c.drain() {
			return
		}
	}
}

// drain hands everything in the pipe now to the stream. It reports
// whether the pipe is closed.
func (c *capturedFD) drain() (closed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		n, err := unix.Read(c.fd, c.buf)
		if n > 0 {
			c.w.Write(c.buf[:n])
			continue
		}
		switch err {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		return true // end of file, or an error that will not go away
	}
}

// CaptureStdio redirects file descriptors 1 and 2 into the cell streams and
// returns a file that writes to the original standard error, for the
// kernel's own log. Only the kernel process calls it: it changes the
// process's descriptors.
func (k *Kernel) CaptureStdio() (*os.File, error) {
	saved, err := unix.Dup(2)
	if err != nil {
		return nil, fmt.Errorf("saving stderr: %w", err)
	}
	logFile := os.NewFile(uintptr(saved), "kernel-log")
	for fd, name := range map[int]string{1: "stdout", 2: "stderr"} {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("capturing %s: %w", name, err)
		}
		if err := unix.Dup3(int(w.Fd()), fd, 0); err != nil {
			return nil, fmt.Errorf("capturing %s: %w", name, err)
		}
		w.Close()
		c, err := newCapturedFD(r, k.streams.writer(name))
		if err != nil {
			return nil, fmt.Errorf("capturing %s: %w", name, err)
		}
		k.streams.mu.Lock()
		k.streams.pipes = append(k.streams.pipes, c)
		k.streams.mu.Unlock()
		go c.copy()
	}
	return logFile, nil
}
