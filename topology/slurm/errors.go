package slurm

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"superstep/internal/linereader"
)

// ParseError is the one error type of this package: the file (the name the
// caller gave), the 1-based line, the 1-based byte column at which the bad
// field starts, and what was expected there and what was found; its text
// is "file:line:col: expected …, found …", leaving out a zero line or
// column. Unwrap gives the underlying error (I/O), if any.
//
// Line is 0 when the error concerns the file as a whole (no header line, an
// I/O error before the first line); Col is 0 when it concerns a line as a
// whole (a header without a required column). ExpandHostlist, which reads no
// file, returns a ParseError with File "" and Line 0 whose Col is the column
// in the hostlist string; its text is "msg (column col)".
//
// It is the one parse error of all of Superstep's file readers
// (internal/linereader.ParseError), so errors.As matches every reader's.
type ParseError = linereader.ParseError

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
func quote(s string) string { return linereader.Quote(s) }

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
