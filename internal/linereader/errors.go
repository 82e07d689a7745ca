package linereader

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseError is the one error type of Superstep's file readers, text and
// binary alike; each reader package exports it under its own name as a
// type alias (datasets.ParseError, slurm.ParseError, otf2.ParseError, …),
// so errors.As with any of them matches the error of every reader.
//
// It says where reading failed and what was expected there. The position
// is File and, in a text file, the 1-based Line and the 1-based byte
// column Col at which the bad field starts; in a binary file (Binary set)
// the 0-based byte Offset. Line is 0 when the error concerns the file as a
// whole (an empty file, an I/O error before the first line), Col is 0 when
// it concerns a line as a whole.
//
// What went wrong is "expected Expected, found Found", or Msg instead when
// it is set (free text, for what does not fit that shape). Found is shown
// as given: a field or line is quoted by the reader (Quote), a description
// such as "the end of the line" or "3 values" is not. Err is the
// underlying error (an I/O error, bufio.ErrTooLong, a decompressor's
// error), if any, and Unwrap returns it.
type ParseError struct {
	File      string
	Line, Col int
	Offset    int64 // byte offset from the start of a binary file
	Binary    bool  // the position is Offset, not Line and Col
	Expected  string
	Found     string
	Msg       string
	Err       error
}

// Error returns the one shape of a parse error:
//
//	file:line:col: expected X, found Y
//	file:line: expected X, found Y     (Col 0: the line as a whole)
//	file: expected X, found Y          (Line 0: the file as a whole)
//	file: byte N: expected X, found Y  (Binary: N is Offset)
//
// with Msg in place of "expected X, found Y" when Msg is set (and Err's
// text when neither is). Without File and Line (a reader of a string
// rather than a file, such as slurm.ExpandHostlist) it is
// "expected X, found Y (column col)".
func (e *ParseError) Error() string {
	msg := e.what()
	var b strings.Builder
	switch {
	case e.File == "" && e.Line == 0 && !e.Binary:
		b.WriteString(msg)
		if e.Col > 0 {
			b.WriteString(" (column " + strconv.Itoa(e.Col) + ")")
		}
		return b.String()
	case e.Binary:
		b.WriteString(e.File + ": byte " + strconv.FormatInt(e.Offset, 10))
	default:
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteString(":" + strconv.Itoa(e.Line))
			if e.Col > 0 {
				b.WriteString(":" + strconv.Itoa(e.Col))
			}
		}
	}
	b.WriteString(": ")
	b.WriteString(msg)
	return b.String()
}

// what is the message part of Error.
func (e *ParseError) what() string {
	switch {
	case e.Msg != "":
		return e.Msg
	case e.Expected != "" || e.Found != "":
		return "expected " + e.Expected + ", found " + e.Found
	case e.Err != nil:
		return e.Err.Error()
	}
	return "malformed input"
}

// Unwrap returns the underlying error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// Quote shows a field or line in a message the way the readers do: Go
// quoted, cut after 60 bytes (at a character boundary) with "…" after
// the closing quote.
func Quote(s string) string {
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

// Size writes a byte count for a message: "256 MiB", "1 MiB", "64 KiB",
// or "100 bytes", in the largest unit that divides it.
func Size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}
