package datasets

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"superstep/internal/linereader"
)

// ParseError is the error of every reader: the file (the name the caller
// gave), the 1-based line, and what was expected there; its text is
// "file:line: expected …, found …" ("file: …" when Line is 0, for an
// error that concerns the file as a whole, such as an unknown format).
// Unwrap gives the I/O error that stopped reading, if that was the cause.
// It is the one parse error of all of Superstep's file readers
// (internal/linereader.ParseError), so errors.As matches every reader's.
type ParseError = linereader.ParseError

// maxLine is the longest line the line-based readers accept. A METIS line
// of a vertex with a million neighbours is about 8 MB.
const maxLine = 256 << 20

// lines reads a file line by line without allocating per line
// (internal/linereader: CRLF files read like LF files, a byte order mark
// is dropped).
type lines struct {
	*linereader.Reader
	name string
}

func newLines(r io.Reader, name string) *lines {
	return &lines{linereader.New(r, name, maxLine), name}
}

// err returns the reading error as a *ParseError, or nil at a clean end.
func (l *lines) err() error { return l.Err() }

func (l *lines) errorf(line int, format string, args ...any) error {
	return &ParseError{File: l.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// trimLeft skips leading white space.
func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// nextField splits off the first white-space separated field of b: it
// returns the field (empty when b holds only white space) and the rest.
func nextField(b []byte) (field, rest []byte) {
	b = trimLeft(b)
	i := 0
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	return b[:i], b[i:]
}

// splitFields puts up to len(dst) fields of b into dst and returns how many
// fields b has in all (which may be more than len(dst)).
func splitFields(b []byte, dst [][]byte) int {
	n := 0
	for {
		f, rest := nextField(b)
		if len(f) == 0 {
			return n
		}
		if n < len(dst) {
			dst[n] = f
		}
		n++
		b = rest
	}
}

// isComment reports whether the line's first non-blank byte is '#' or '%'.
func isComment(b []byte) bool {
	b = trimLeft(b)
	return len(b) > 0 && (b[0] == '#' || b[0] == '%')
}

// isBlank reports whether the line holds only white space.
func isBlank(b []byte) bool { return len(trimLeft(b)) == 0 }

// parseInt parses a decimal integer with an optional sign, without
// allocating. It fails on anything else, including overflow.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return int64(-u), true // -(1<<63) wraps to MinInt64, as wanted
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// parseFloat parses a finite floating-point number (an integer fast path
// avoids strconv for the common "1" and "42").
func parseFloat(b []byte) (float64, bool) {
	if i, ok := parseInt(b); ok && i > -1<<53 && i < 1<<53 {
		return float64(i), true
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// quote shows a line or field in a message, shortened when long.
func quote(b []byte) string { return linereader.Quote(string(b)) }
