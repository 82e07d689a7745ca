package otf2

import (
	"encoding/binary"
	"fmt"
	"math"

	"superstep/internal/linereader"
)

// Buffer markers and the record types that are not events or definitions.
const (
	markEndOfChunk  = 0x00
	markEndOfFile   = 0x02
	markChunkHeader = 0x03
	markTimestamp   = 0x05
	markAttrList    = 0x06

	endianLittle = 0x42
	endianBig    = 0x23
)

// ParseError is a truncated or corrupt file: which file, at which byte
// (Offset, with Binary set) and what was expected there; its text is
// "file: byte N: expected …, found …". It is the one parse error of all
// of Superstep's file readers (internal/linereader.ParseError), so
// errors.As matches every reader's.
type ParseError = linereader.ParseError

// cursor reads one file's bytes. The first error sticks: reads after it
// return zeros, so a decoder checks err once per record.
type cursor struct {
	file string
	b    []byte
	pos  int
	end  int // end of the current chunk (or of the file)
	big  bool
	err  error
}

func (c *cursor) fail(at int, format string, args ...any) {
	if c.err == nil {
		c.err = &ParseError{File: c.file, Binary: true, Offset: int64(at), Msg: fmt.Sprintf(format, args...)}
	}
}

// need reports whether n more bytes lie before the chunk's end, failing
// with "expected what" otherwise.
func (c *cursor) need(n int, what string) bool {
	if c.err != nil {
		return false
	}
	if n < 0 || c.pos+n > c.end || c.pos+n < c.pos {
		if c.end == len(c.b) {
			c.fail(c.pos, "expected %s, found end of file", what)
		} else {
			c.fail(c.pos, "expected %s, found end of chunk", what)
		}
		return false
	}
	return true
}

func (c *cursor) u8(what string) uint8 {
	if !c.need(1, what) {
		return 0
	}
	v := c.b[c.pos]
	c.pos++
	return v
}

// full reads an uncompressed 8-byte integer.
func (c *cursor) full(what string) uint64 {
	if !c.need(8, what) {
		return 0
	}
	var v uint64
	if c.big {
		v = binary.BigEndian.Uint64(c.b[c.pos:])
	} else {
		v = binary.LittleEndian.Uint64(c.b[c.pos:])
	}
	c.pos += 8
	return v
}

func (c *cursor) u32full(what string) uint32 {
	if !c.need(4, what) {
		return 0
	}
	var v uint32
	if c.big {
		v = binary.BigEndian.Uint32(c.b[c.pos:])
	} else {
		v = binary.LittleEndian.Uint32(c.b[c.pos:])
	}
	c.pos += 4
	return v
}

// comp reads a compressed integer: a length byte n, then n bytes; 0 is
// zero and 0xFF all bits set.
func (c *cursor) comp(what string) uint64 {
	if !c.need(1, what) {
		return 0
	}
	start := c.pos
	n := int(c.b[c.pos])
	c.pos++
	switch {
	case n == 0:
		return 0
	case n == 0xFF:
		return math.MaxUint64
	case n > 8:
		c.fail(start, "expected %s (a compressed integer), found length byte %d", what, n)
		return 0
	}
	if !c.need(n, what) {
		return 0
	}
	var v uint64
	p := c.b[c.pos : c.pos+n]
	if c.big {
		for _, x := range p {
			v = v<<8 | uint64(x)
		}
	} else {
		for i := n - 1; i >= 0; i-- {
			v = v<<8 | uint64(p[i])
		}
	}
	c.pos += n
	return v
}

// comp32 reads a compressed 32-bit integer; the undefined value stays all
// ones in 32 bits.
func (c *cursor) comp32(what string) uint32 {
	v := c.comp(what)
	if v == math.MaxUint64 {
		return math.MaxUint32
	}
	if v > math.MaxUint32 && c.err == nil {
		c.fail(c.pos, "%s %d does not fit 32 bits", what, v)
		return 0
	}
	return uint32(v)
}

// cstring reads a NUL-terminated string.
func (c *cursor) cstring(what string) string {
	if c.err != nil {
		return ""
	}
	for i := c.pos; i < c.end; i++ {
		if c.b[i] == 0 {
			s := string(c.b[c.pos:i])
			c.pos = i + 1
			return s
		}
	}
	c.fail(c.pos, "expected %s (a NUL-terminated string), found end of %s", what, c.where())
	return ""
}

func (c *cursor) where() string {
	if c.end == len(c.b) {
		return "file"
	}
	return "chunk"
}

// recordLen reads a record's length (a byte, or 0xFF and 8 bytes) and
// returns where the record ends.
func (c *cursor) recordLen() int {
	if !c.need(1, "a record length") {
		return c.pos
	}
	at := c.pos
	n := uint64(c.b[c.pos])
	c.pos++
	if n == 0xFF {
		n = c.full("an 8-byte record length")
	}
	if c.err != nil {
		return c.pos
	}
	if n > uint64(c.end-c.pos) {
		c.fail(at, "record length %d runs past the end of the %s (%d bytes left)", n, c.where(), c.end-c.pos)
		return c.pos
	}
	return c.pos + int(n)
}

// chunks walks a chunked file: for each chunk it sets c.end and calls
// body, which reads records until an end-of-chunk or end-of-file marker
// and reports which it saw. chunkSize 0 means the file is one buffer.
func (c *cursor) chunks(chunkSize uint64, body func() (eof bool)) {
	if chunkSize == 0 || chunkSize > uint64(len(c.b)) {
		chunkSize = uint64(len(c.b))
	}
	for start := 0; ; {
		if start >= len(c.b) {
			at := c.pos - 1
			c.pos = len(c.b)
			c.end = len(c.b)
			if start == 0 {
				c.fail(0, "expected a chunk header, found end of file")
			} else {
				c.fail(c.pos, "expected another chunk after the end-of-chunk marker at byte %d, found end of file", at)
			}
			return
		}
		c.pos = start
		c.end = len(c.b)
		if uint64(len(c.b)-start) > chunkSize {
			c.end = start + int(chunkSize)
		}
		m := c.u8("a chunk header")
		if c.err != nil {
			return
		}
		if m != markChunkHeader {
			c.fail(start, "expected a chunk header (0x03), found 0x%02x", m)
			return
		}
		e := c.u8("an endianness byte")
		switch {
		case c.err != nil:
			return
		case e == endianLittle:
			c.big = false
		case e == endianBig:
			c.big = true
		default:
			c.fail(start+1, "expected an endianness byte (0x42 or 0x23), found 0x%02x", e)
			return
		}
		c.full("the chunk's first event number")
		c.full("the chunk's last event number")
		if c.err != nil {
			return
		}
		if body() || c.err != nil {
			return
		}
		start += int(chunkSize)
	}
}
