package slurm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxLine is the longest line the readers accept. A sacct line of a job
// on many nodes is short (the node list is compressed); 64 MiB leaves room
// for uncompressed lists of a whole machine.
const maxLine = 64 << 20

// lines reads a file line by line. A trailing "\r" is removed, so CRLF
// files read like LF files, and so is a UTF-8 byte order mark at the start.
type lines struct {
	sc   *bufio.Scanner
	name string
	line int // number of the current line, 1-based
}

func newLines(r io.Reader, name string) *lines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lines{sc: sc, name: name}
}

// next advances to the next line; false at the end or on an error (see err).
func (l *lines) next() bool {
	if l.sc.Scan() {
		l.line++
		return true
	}
	return false
}

// text is the current line.
func (l *lines) text() string {
	s := l.sc.Text()
	if l.line == 1 {
		s = strings.TrimPrefix(s, "\uFEFF")
	}
	return s
}

// err returns the reading error as a *ParseError, or nil at a clean end.
func (l *lines) err() error {
	err := l.sc.Err()
	if err == nil {
		return nil
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return &ParseError{File: l.name, Line: l.line + 1, Msg: fmt.Sprintf("expected a line of at most %d MiB, found a longer one", maxLine>>20), err: err}
	}
	return &ParseError{File: l.name, Line: l.line + 1, Msg: "reading: " + err.Error(), err: err}
}

// errorf returns a *ParseError at the current line and the given column.
func (l *lines) errorf(col int, format string, args ...any) *ParseError {
	return &ParseError{File: l.name, Line: l.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// warnf returns a Warning for the job on the current line.
func (l *lines) warnf(job string, format string, args ...any) Warning {
	return Warning{File: l.name, Line: l.line, JobID: job, Msg: fmt.Sprintf(format, args...)}
}

// isBlank reports whether s holds only white space.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
