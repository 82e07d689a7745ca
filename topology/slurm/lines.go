package slurm

import (
	"fmt"
	"io"
	"strings"

	"superstep/internal/linereader"
)

// maxLine is the longest line the readers accept. A sacct line of a job
// on many nodes is short (the node list is compressed); 64 MiB leaves room
// for uncompressed lists of a whole machine.
const maxLine = 64 << 20

// lines reads a file line by line (internal/linereader: CRLF files read
// like LF files, a UTF-8 byte order mark at the start is dropped).
type lines struct {
	*linereader.Reader
	name string
}

func newLines(r io.Reader, name string) *lines {
	return &lines{linereader.New(r, name, maxLine), name}
}

// err returns the reading error as a *ParseError ("file:line: expected a
// line of at most 64 MiB, found a longer one", "file:line: reading: …"),
// or nil at a clean end.
func (l *lines) err() error { return l.Err() }

// errorf returns a *ParseError at the current line and the given column.
func (l *lines) errorf(col int, format string, args ...any) *ParseError {
	return &ParseError{File: l.name, Line: l.Line(), Col: col, Msg: fmt.Sprintf(format, args...)}
}

// warnf returns a Warning for the job on the current line.
func (l *lines) warnf(job string, format string, args ...any) Warning {
	return Warning{File: l.name, Line: l.Line(), JobID: job, Msg: fmt.Sprintf(format, args...)}
}

// isBlank reports whether s holds only white space.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
