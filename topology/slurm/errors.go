package slurm

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseError is the one error type of this package: the file (the name the
// caller gave), the 1-based line, the 1-based byte column at which the bad
// field starts, and what was expected there and what was found.
//
// Line is 0 when the error concerns the file as a whole (no header line, an
// I/O error before the first line); Col is 0 when it concerns a line as a
// whole (a header without a required column). ExpandHostlist, which reads no
// file, returns a ParseError with File "" and Line 0 whose Col is the column
// in the hostlist string.
type ParseError struct {
	File string
	Line int
	Col  int
	Msg  string
	err  error // the underlying error (I/O, or the hostlist error), if any
}

// Error returns "file:line:col: msg", leaving out a zero line or column.
// Without a file and a line (an error of ExpandHostlist) it returns
// "msg (column col)".
func (e *ParseError) Error() string {
	if e.File == "" && e.Line == 0 {
		if e.Col > 0 {
			return fmt.Sprintf("%s (column %d)", e.Msg, e.Col)
		}
		return e.Msg
	}
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":")
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the I/O error that stopped reading, if that was the cause.
func (e *ParseError) Unwrap() error { return e.err }

// Warning reports input that was read but is incomplete or inconsistent:
// a job without nodes or without an end time, a node count that disagrees
// with the node list, a node name that MapNodes does not know. The job is
// kept; the warning says what the picture will lack.
type Warning struct {
	File  string // the file name the caller gave ("" from MapNodes)
	Line  int    // the 1-based line of the job
	JobID string // the job's ID as the file writes it
	Msg   string // what is missing or inconsistent
}

// String returns "file:line: job ID: msg".
func (w Warning) String() string {
	var b strings.Builder
	switch {
	case w.File != "" && w.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", w.File, w.Line)
	case w.File != "":
		b.WriteString(w.File + ": ")
	case w.Line > 0:
		fmt.Fprintf(&b, "line %d: ", w.Line)
	}
	if w.JobID != "" {
		b.WriteString("job " + w.JobID + ": ")
	}
	b.WriteString(w.Msg)
	return b.String()
}

// quote shows a field in a message, shortened when long.
func quote(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

// foundAt describes what is at byte i of s for a message: a quoted
// character, or "the end" when i is past the end.
func foundAt(s string, i int, end string) string {
	if i >= len(s) {
		return end
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte %#02x", s[i])
	}
	return strconv.QuoteRune(r)
}
