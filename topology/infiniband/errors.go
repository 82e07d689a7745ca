package infiniband

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"superstep/internal/linereader"
)

// ParseError is the one error type of the readers: the file (the name the
// caller gave), the 1-based line, the 1-based byte column at which the bad
// field starts, and what was expected there and what was found; its text
// is "file:line:col: expected …, found …", leaving out a zero line or
// column. Line is 0 when the error concerns the file as a whole (no device
// at all, an I/O error before the first line); Col is 0 when it concerns a
// line as a whole. Unwrap gives the underlying I/O error, if any.
//
// It is the one parse error of all of Superstep's file readers
// (internal/linereader.ParseError), so errors.As matches every reader's.
type ParseError = linereader.ParseError

// Warning reports input that was read but is incomplete or was left out:
// a router (a fat-tree has none), a device that cables point to but that
// the file does not describe, a cable that only one of its ends lists.
type Warning struct {
	File string // the file name the caller gave
	Line int    // the 1-based line, 0 for the file as a whole
	Msg  string
}

// String returns "file:line: msg" (or "file: msg").
func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Msg)
}

// found describes what is at byte i of s for a message: the quoted field
// that starts there, shortened when long, or "the end of the line".
func found(s string, i int) string {
	if i >= len(s) {
		return "the end of the line"
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	if j == i {
		j = i + 1
	}
	f := s[i:j]
	const max = 40
	if len(f) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(f[cut]) {
			cut--
		}
		return strconv.Quote(f[:cut]) + "…"
	}
	return strconv.Quote(f)
}

// scanError is the error of a line reader of file that stopped: the
// reader's *ParseError (a line over maxLine, a read error at a line), or
// err as a *ParseError of the file as a whole.
func scanError(file string, err error) *ParseError {
	if e := (*ParseError)(nil); errors.As(err, &e) {
		return e
	}
	return &ParseError{File: file, Msg: "reading: " + err.Error(), Err: err}
}
