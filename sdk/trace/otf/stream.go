package otf

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"io"
	"io/fs"
	"math"
	"path"

	"superstep/sdk/trace"
)

// regEv is an enter or leave of a function (fn: region index).
type regEv struct {
	t     uint64
	fn    int32
	leave bool
}

// msgEv is a send or receive; peer is the other side's process index.
type msgEv struct {
	t     uint64
	bytes uint64
	peer  int32
	tag   int32
	group uint32
	recv  bool
}

// procEvents are one process's events from one stream, in stream order.
type procEvents struct {
	proc int32
	id   uint64
	regs chunked[regEv]
	msgs chunked[msgEv]
	// nSend and nRecv count the messages, nLeave the region intervals.
	nSend, nRecv, nLeave int
	stack                []int32
}

// streamResult is what one stream holds.
type streamResult struct {
	file       string
	procs      []*procEvents
	n          int    // events kept (enter, leave, send, receive)
	skipped    int    // records skipped (collectives, counters, …)
	minT, maxT uint64 // over the events kept
	// warn holds the warnings of the stream's files (events, then
	// snapshots, summaries and markers).
	warn *trace.Warnings
}

// inflater is a reusable zlib reader and output buffer.
type inflater struct {
	zr  io.ReadCloser
	buf []byte
	raw []byte // compressed input
}

// inflate decompresses a zlib stream. The streams carry no end marker, so
// io.ErrUnexpectedEOF at the end of the input is normal; the parser
// reports text cut mid-record. The result is valid until the next call.
func (in *inflater) inflate(file string, data []byte) ([]byte, error) {
	r := bytes.NewReader(data)
	if in.zr == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return nil, &ParseError{File: file, Msg: fmt.Sprintf("not a zlib stream: %v", err)}
		}
		in.zr = zr
	} else if err := in.zr.(zlib.Resetter).Reset(r, nil); err != nil {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("not a zlib stream: %v", err)}
	}
	if cap(in.buf) == 0 {
		in.buf = make([]byte, 0, 4*len(data)+4096)
	}
	out := in.buf[:0]
	for {
		if len(out) == cap(out) {
			out = append(out, 0)[:len(out)]
		}
		n, err := in.zr.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			in.buf = out
			return nil, &ParseError{File: file, Msg: fmt.Sprintf("corrupt zlib stream after %d bytes of text: %v", len(out), err)}
		}
	}
	in.buf = out
	return out, nil
}

// readFile reads a whole file into the inflater's reusable input buffer.
func (in *inflater) readFile(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > 0 && st.Size() < 1<<40 && int64(cap(in.raw)) < st.Size()+1 {
		in.raw = make([]byte, 0, st.Size()+1)
	}
	buf := in.raw[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	in.raw = buf
	return buf, nil
}

// readStream reads and parses the event file of one stream.
func readStream(fsys fs.FS, prefix string, id uint64, tb *tables, in *inflater) (*streamResult, error) {
	name := fmt.Sprintf("%s.%x.events.z", prefix, id)
	data, err := in.readFile(fsys, name)
	compressed := true
	if errors.Is(err, fs.ErrNotExist) {
		name = fmt.Sprintf("%s.%x.events", prefix, id)
		data, err = in.readFile(fsys, name)
		compressed = false
		if errors.Is(err, fs.ErrNotExist) {
			// Neither form exists: name both, not only the last tried.
			return nil, fmt.Errorf("otf: stream %x: the master file lists it but neither %s.z nor %s exists: %w", id, path.Base(name), path.Base(name), fs.ErrNotExist)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("otf: stream %x: %w", id, err)
	}
	file := path.Base(name)
	if compressed {
		if data, err = in.inflate(file, data); err != nil {
			return nil, err
		}
	}
	res, err := parseStream(file, data, tb)
	if err != nil {
		return nil, err
	}
	// The stream's snapshots, summaries and markers: read to check them,
	// not used. The event text is parsed, so its buffers can be reused.
	for _, aux := range auxFiles {
		if err := readAux(fsys, fmt.Sprintf("%s.%x.%s", prefix, id, aux.ext), aux.kind, tb, in, res.warn); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// auxFiles are the files of a stream beside its events.
var auxFiles = []struct {
	ext  string
	kind fileKind
}{{"snaps", kindSnaps}, {"stats", kindStats}, {"marker", kindMarkers}}

// readAux reads name+".z" or name, if either exists, and checks its
// records, adding warnings to w.
func readAux(fsys fs.FS, name string, kind fileKind, tb *tables, in *inflater, w *trace.Warnings) error {
	file := name + ".z"
	data, err := in.readFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		file = name
		data, err = in.readFile(fsys, file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	} else if err == nil {
		data, err = in.inflate(path.Base(file), data)
	}
	if err != nil {
		return fmt.Errorf("otf: %w", err)
	}
	return parseAux(path.Base(file), kind, data, tb, w)
}

// parseAux checks a snapshot, summary or marker file: time stamps,
// process switches (to a defined process or process group) and records
// of the file's kind, each skipped by its layout.
func parseAux(file string, kind fileKind, data []byte, tb *tables, w *trace.Warnings) error {
	wr := warner{file: file}
	err := eachRecord(file, data, func(line int, rec []byte) string {
		c := cursor{b: rec}
		switch {
		case isHex(rec[0]):
			if _, ok := c.hex(); !ok || !c.done() {
				return fmt.Sprintf("expected a hex timestamp, found %s", quote(rec))
			}
		case rec[0] == '*':
			c.i++
			id, ok := c.hex()
			if !ok || !c.done() {
				return fmt.Sprintf("expected *<hex process id>, found %s", quote(rec))
			}
			if _, ok := tb.proc.get(id); !ok {
				if _, ok := tb.group.get(id); !ok {
					return fmt.Sprintf("process %x is not defined (neither a process nor a process group)", id)
				}
			}
		default:
			return skipRecord(kind, &wr, line, rec)
		}
		return ""
	})
	if err != nil {
		return err
	}
	w.Merge(&wr.w)
	return nil
}

// parseStream parses the text of one event stream with a byte cursor.
func parseStream(file string, data []byte, tb *tables) (*streamResult, error) {
	res := &streamResult{file: file, minT: math.MaxUint64}
	wr := &warner{file: file}
	var cur *procEvents
	// onGroup: the current process is the process group group (cur nil).
	onGroup, group := false, uint64(0)
	var now uint64
	haveTime := false
	line := 0
	ferr := func(format string, args ...any) error {
		return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	for pos := 0; pos < len(data); {
		line++
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			// The last line has no newline: the text was cut mid-record
			// (a stream always ends its last record with one).
			return nil, ferr("stream cut mid-record: %s has no end of line", quote(data[pos:]))
		}
		rec := data[pos : pos+end]
		pos += end + 1
		if len(rec) == 0 {
			continue
		}
		c := cursor{b: rec}
		ch := rec[0]
		if isHex(ch) {
			v, ok := c.hex()
			if !ok || !c.done() {
				return nil, ferr("expected a hex timestamp, found %s", quote(rec))
			}
			if v < tb.start {
				return nil, ferr("timestamp %x lies before the trace's start %x (the streams' first timestamps): the stream is not in time order", v, tb.start)
			}
			now, haveTime = v, true
			continue
		}
		if ch == '*' {
			c.i++
			id, ok := c.hex()
			if !ok || !c.done() {
				return nil, ferr("expected *<hex process id>, found %s", quote(rec))
			}
			if cur == nil || cur.id != id {
				cur, onGroup = nil, false
				for _, p := range res.procs {
					if p.id == id {
						cur = p
						break
					}
				}
				if cur == nil {
					idx, ok := tb.proc.get(id)
					if !ok {
						if _, ok := tb.group.get(id); ok {
							// VampirTrace writes per-node counters on
							// process groups: skipped record by record.
							onGroup, group = true, id
							continue
						}
						return nil, ferr("process %x is not defined (neither a process nor a process group)", id)
					}
					cur = &procEvents{proc: idx, id: id}
					if tb.pool != nil {
						cur.regs.free, cur.msgs.free = tb.pool.regs, tb.pool.msgs
					}
					res.procs = append(res.procs, cur)
				}
			}
			continue
		}
		// An event record: E, L, S, R followed by a hex digit (L also
		// alone); other records are skipped.
		next := byte(0)
		if len(rec) > 1 {
			next = rec[1]
		}
		known := false
		switch ch {
		case 'E', 'S', 'R':
			known = isHex(next)
			if !known && !isUpper(next) {
				return nil, ferr("expected a hex id after %q, found %s", ch, quote(rec))
			}
		case 'L':
			known = isHex(next) || next == 0 || next == 'X'
			if !known && !isUpper(next) {
				return nil, ferr("expected a hex function id after 'L', found %s", quote(rec))
			}
		default:
			if ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' {
				return nil, ferr("expected a hex timestamp, found %s", quote(rec))
			}
			if !isUpper(ch) && ch != '#' {
				return nil, ferr("expected a record, found %s", quote(rec))
			}
		}
		if !known || cur == nil {
			if msg := res.skip(wr, line, rec, onGroup, group); msg != "" {
				return nil, ferr("%s", msg)
			}
			if known && !onGroup {
				return nil, ferr("event %s before any process switch (*)", quote(rec))
			}
			continue
		}
		if !haveTime {
			return nil, ferr("event %s before any timestamp", quote(rec))
		}
		c.i = 1
		switch ch {
		case 'E':
			id, ok := c.hex()
			if !ok {
				return nil, ferr("expected a hex function id, found %s", quote(rec))
			}
			fn, ok := tb.fn.get(id)
			if !ok {
				return nil, ferr("function %x is not defined", id)
			}
			if !c.done() && !isUpper(c.peek()) {
				return nil, ferr("unexpected %s after enter", quote(c.rest()))
			}
			cur.stack = append(cur.stack, fn)
			cur.regs.add(regEv{t: now, fn: fn})
		case 'L':
			var id uint64
			if isHex(c.peek()) {
				id, _ = c.hex()
			}
			if !c.done() && !isUpper(c.peek()) {
				return nil, ferr("unexpected %s after leave", quote(c.rest()))
			}
			n := len(cur.stack)
			if n == 0 {
				return nil, ferr("leave on process %x, which is in no function", cur.id)
			}
			top := cur.stack[n-1]
			if id != 0 {
				fn, ok := tb.fn.get(id)
				if !ok {
					return nil, ferr("function %x is not defined", id)
				}
				if fn != top {
					return nil, ferr("leave of function %x on process %x, but the innermost function is %x", id, cur.id, topID(tb, top))
				}
			}
			cur.stack = cur.stack[:n-1]
			cur.regs.add(regEv{t: now, fn: top, leave: true})
			cur.nLeave++
		case 'S', 'R':
			peerID, _ := c.hex()
			peer, ok := tb.proc.get(peerID)
			if !ok {
				return nil, ferr("process %x is not defined", peerID)
			}
			if !c.eat('L') {
				return nil, ferr("expected L<length>, found %s", quote(c.rest()))
			}
			length, ok := c.hex()
			if !ok {
				return nil, ferr("expected a hex length, found %s", quote(c.rest()))
			}
			if !c.eat('T') {
				return nil, ferr("expected T<tag>, found %s", quote(c.rest()))
			}
			tag, ok := c.hex()
			if !ok || tag > math.MaxUint32 {
				return nil, ferr("expected a 32-bit hex tag, found %s", quote(c.rest()))
			}
			if !c.eat('C') {
				return nil, ferr("expected C<communicator>, found %s", quote(c.rest()))
			}
			group, ok := c.hex()
			if !ok || group > math.MaxUint32 {
				return nil, ferr("expected a 32-bit hex communicator, found %s", quote(c.rest()))
			}
			if !c.done() && !isUpper(c.peek()) {
				return nil, ferr("unexpected %s after message", quote(c.rest()))
			}
			if length > math.MaxInt64 {
				return nil, ferr("message length %x out of range", length)
			}
			if ch == 'R' {
				cur.nRecv++
			} else {
				cur.nSend++
			}
			cur.msgs.add(msgEv{t: now, bytes: length, peer: peer, tag: int32(uint32(tag)), group: uint32(group), recv: ch == 'R'})
		}
		res.n++
		res.minT = min(res.minT, now)
		res.maxT = max(res.maxT, now)
	}
	for _, p := range res.procs {
		p.stack = nil
	}
	res.warn = &wr.w
	return res, nil
}

// skip passes over a record the stream parser does not use: on a process,
// by its layout (warning when it is unknown or malformed); on a process
// group, with a warning, as the reader keeps no per-group data. It
// returns an error message for a record in OTF's long format.
func (res *streamResult) skip(wr *warner, line int, rec []byte, onGroup bool, group uint64) string {
	res.skipped++
	if !onGroup {
		return skipRecord(kindEvents, wr, line, rec)
	}
	name, c := classify(kindEvents, rec)
	switch c {
	case recLong:
		return longFormatMsg(rec)
	case recKeyValue:
		return "" // belongs to the next record
	case recKnown:
		if wr.full(warnGroup) {
			wr.add(warnGroup, line, "%s on process group %x skipped", name, group)
		} else {
			wr.count(warnGroup, line)
		}
		return ""
	}
	return skipRecord(kindEvents, wr, line, rec)
}

// topID is the OTF id of a region index, for messages.
func topID(tb *tables, fn int32) uint64 {
	for id, v := range tb.fn.dense {
		if v == fn {
			return uint64(id)
		}
	}
	for id, v := range tb.fn.sparse {
		if v == fn {
			return id
		}
	}
	return 0
}

func isUpper(ch byte) bool { return ch >= 'A' && ch <= 'Z' }

// chunkSize is the number of events per block of a chunked list.
const chunkSize = 1 << 13

// chunked is an append-only list kept in fixed blocks, so growing it never
// copies what it holds. Blocks come from, and go back to, a free list.
type chunked[T any] struct {
	blocks [][]T
	free   chan []T // nil: allocate
}

func (c *chunked[T]) add(v T) {
	if nb := len(c.blocks); nb == 0 || len(c.blocks[nb-1]) == chunkSize {
		var blk []T
		select {
		case blk = <-c.free:
		default:
			blk = make([]T, 0, chunkSize)
		}
		c.blocks = append(c.blocks, blk[:0])
	}
	b := &c.blocks[len(c.blocks)-1]
	*b = append(*b, v)
}

// release hands the blocks back to the free list.
func (c *chunked[T]) release() {
	for _, b := range c.blocks {
		select {
		case c.free <- b:
		default:
		}
	}
	c.blocks = nil
}

// blockPool holds the free lists of one read.
type blockPool struct {
	regs chan []regEv
	msgs chan []msgEv
}

func newBlockPool(n int) *blockPool {
	return &blockPool{regs: make(chan []regEv, n), msgs: make(chan []msgEv, n)}
}

// traceStart is the earliest first timestamp of the streams: time 0. OTF
// streams are in time order, so a stream's first timestamp is its earliest
// (parseStream rejects events before the start). Streams it cannot read
// are left to parseStream to report.
// It also records each stream's file size in streams.
func traceStart(fsys fs.FS, prefix string, streams []streamInfo) (uint64, bool) {
	start, found := uint64(math.MaxUint64), false
	buf := make([]byte, 256)
	for k, s := range streams {
		var r io.Reader
		f, err := fsys.Open(fmt.Sprintf("%s.%x.events.z", prefix, s.id))
		if err == nil {
			if st, err := f.Stat(); err == nil {
				streams[k].size = st.Size()
			}
			zr, zerr := zlib.NewReader(bufio.NewReaderSize(f, 512))
			if zerr != nil {
				f.Close()
				continue
			}
			r = zr
		} else if f, err = fsys.Open(fmt.Sprintf("%s.%x.events", prefix, s.id)); err == nil {
			if st, err := f.Stat(); err == nil {
				streams[k].size = st.Size()
			}
			r = f
		} else {
			continue
		}
		n, _ := io.ReadFull(r, buf)
		f.Close()
		text := buf[:n]
		// The first line that is all hex digits.
		for len(text) > 0 {
			i := bytes.IndexByte(text, '\n')
			if i < 0 {
				break
			}
			c := cursor{b: text[:i]}
			if v, ok := c.hex(); ok && c.done() {
				start, found = min(start, v), true
				break
			}
			text = text[i+1:]
		}
	}
	return start, found
}
