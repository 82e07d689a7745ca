// Package linereader is the one line reader of Superstep's text-format
// readers (edge lists and METIS graphs, Slurm logs, InfiniBand dumps,
// TreeScope files, Boxfish tables, OTF v1 traces, Open MPI monitoring
// files) and the home of the one error type of every file reader, text
// or binary: ParseError, "file:line:col: expected …, found …", which
// each reader package exports under its own name as a type alias.
//
// A Reader reads a file line by line with no allocation per line, counts
// lines from 1, drops the "\r" of CRLF files and a UTF-8 byte order mark
// before the first line, and refuses a line longer than a limit instead
// of growing without bound; its errors are ParseErrors naming the file
// and the line.
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
	file string
	line int
	max  int
}

// bom is the UTF-8 byte order mark.
const bom = "\uFEFF"

// New returns a Reader of r, the file named file (the name its errors
// give), that accepts a line of at most maxLine bytes with its line
// ending ("\n" or "\r\n"); a last line without one must be shorter than
// maxLine (bufio.Scanner's limit).
func New(r io.Reader, file string, maxLine int) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	return &Reader{sc: sc, file: file, max: maxLine}
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

// File is the file name the Reader was made with.
func (r *Reader) File() string { return r.file }

// Err is nil at a clean end of the input, else a *ParseError at the line
// that could not be read: "file:line: expected a line of at most N MiB,
// found a longer one" (unwrapping to bufio.ErrTooLong) or
// "file:line: reading: …" (unwrapping to the reader's error).
func (r *Reader) Err() error {
	err := r.sc.Err()
	if err == nil {
		return nil
	}
	e := &ParseError{File: r.file, Line: r.line + 1, Err: err}
	if errors.Is(err, bufio.ErrTooLong) {
		e.Expected, e.Found = "a line of at most "+Size(r.max), "a longer one"
	} else {
		e.Msg = "reading: " + err.Error()
	}
	return e
}

// Errorf returns a *ParseError at the current line and byte column col
// (1-based; 0 for the line as a whole) whose Msg is the formatted text,
// such as "expected …, found …".
func (r *Reader) Errorf(col int, format string, args ...any) *ParseError {
	return &ParseError{File: r.file, Line: r.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
