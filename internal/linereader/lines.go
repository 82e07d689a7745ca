// Package linereader is the one line reader of Superstep's text-format readers
// (edge lists and METIS graphs, Slurm logs, InfiniBand dumps, TreeScope
// files): it reads a file line by line with no allocation per line,
// counts lines from 1, drops the "\r" of CRLF files and a UTF-8 byte order
// mark before the first line, and refuses a line longer than a limit
// instead of growing without bound. Each reader turns Err's *Error into
// its own parse error, "file:line: expected …".
package linereader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Reader reads lines from an io.Reader.
type Reader struct {
	sc   *bufio.Scanner
	line int
	max  int
}

// bom is the UTF-8 byte order mark.
const bom = "\uFEFF"

// New returns a Reader of r that accepts a line of at most maxLine bytes
// with its line ending ("\n" or "\r\n"); a last line without one must be
// shorter than maxLine (bufio.Scanner's limit).
func New(r io.Reader, maxLine int) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	return &Reader{sc: sc, max: maxLine}
}

// Next advances to the next line; false at the end or on an error (Err
// tells which).
func (r *Reader) Next() bool {
	if r.sc.Scan() {
		r.line++
		return true
	}
	return false
}

// Bytes is the current line without its line ending, valid until the
// next call of Next.
func (r *Reader) Bytes() []byte {
	b := r.sc.Bytes()
	if r.line == 1 && bytes.HasPrefix(b, []byte(bom)) {
		b = b[len(bom):]
	}
	return b
}

// Text is the current line as a string.
func (r *Reader) Text() string { return string(r.Bytes()) }

// Line is the number of the current line, from 1 (0 before the first).
func (r *Reader) Line() int { return r.line }

// Err is nil at a clean end of the input, else an *Error.
func (r *Reader) Err() error {
	err := r.sc.Err()
	if err == nil {
		return nil
	}
	return &Error{Line: r.line + 1, TooLong: errors.Is(err, bufio.ErrTooLong), Max: r.max, Err: err}
}

// Error is why reading stopped at line Line: a line longer than Max bytes
// (TooLong), or the error of the underlying reader.
type Error struct {
	Line    int
	TooLong bool
	Max     int
	Err     error
}

// Error says what stopped the reading at which line.
func (e *Error) Error() string {
	if e.TooLong {
		return fmt.Sprintf("line %d: longer than %d bytes", e.Line, e.Max)
	}
	return fmt.Sprintf("line %d: reading: %v", e.Line, e.Err)
}

// Explain is the message a parse error gives for e: tooLong for a long
// line, else "reading: " and the reader's error.
func (e *Error) Explain(tooLong string) string {
	if e.TooLong {
		return tooLong
	}
	return "reading: " + e.Err.Error()
}

// Unwrap returns the underlying error (bufio.ErrTooLong for a long line).
func (e *Error) Unwrap() error { return e.Err }
