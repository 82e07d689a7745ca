package linereader

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(r *Reader) []string {
	var out []string
	for r.Next() {
		out = append(out, r.Text())
	}
	return out
}

func TestLines(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"LF", "a\nb\n", []string{"a", "b"}},
		{"CRLF", "a\r\nb\r\n", []string{"a", "b"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"byte order mark", "\uFEFFa\n\uFEFFb\n", []string{"a", "\uFEFFb"}},
		{"blank lines", "\n\nc\n", []string{"", "", "c"}},
		{"mixed endings", "a\r\nb\nc", []string{"a", "b", "c"}},
		{"byte order mark and CRLF", "\uFEFFa\r\nb\r\n", []string{"a", "b"}},
		{"byte order mark alone", "\uFEFF", []string{""}},
		{"byte order mark on line 2 only", "\n\uFEFFb\n", []string{"", "\uFEFFb"}},
		{"one CR dropped, others kept", "a\rb\r\r\n", []string{"a\rb\r"}},
		{"lone CR is no line ending", "a\rb\n", []string{"a\rb"}},
	} {
		r := New(strings.NewReader(c.in), "f", 64)
		got := readAll(r)
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) || r.Err() != nil {
			t.Errorf("%s: %q (%v), want %q", c.name, got, r.Err(), c.want)
		}
		if r.Line() != len(c.want) {
			t.Errorf("%s: line %d after the end, want %d", c.name, r.Line(), len(c.want))
		}
	}
}

func TestTooLongNamesItsLine(t *testing.T) {
	r := New(strings.NewReader("short\nok\n"+strings.Repeat("x", 20)+"\nafter\n"), "f", 16)
	got := readAll(r)
	var e *ParseError
	if len(got) != 2 || !errors.As(r.Err(), &e) || e.File != "f" || e.Line != 3 || !errors.Is(r.Err(), bufio.ErrTooLong) {
		t.Fatalf("lines %q, error %#v", got, r.Err())
	}
	if r.Err().Error() != "f:3: expected a line of at most 16 bytes, found a longer one" {
		t.Errorf("message %q", r.Err())
	}
}

func TestReadErrorNamesItsLine(t *testing.T) {
	boom := errors.New("disk gone")
	in := io.MultiReader(strings.NewReader("a\nb\n"), iotest.ErrReader(boom))
	r := New(in, "f", 64)
	got := readAll(r)
	var e *ParseError
	if len(got) != 2 || !errors.As(r.Err(), &e) || errors.Is(r.Err(), bufio.ErrTooLong) || e.Line != 3 || !errors.Is(r.Err(), boom) {
		t.Fatalf("lines %q, error %#v", got, r.Err())
	}
}

// TestParseErrorShapes: the one shape of every reader's error.
func TestParseErrorShapes(t *testing.T) {
	boom := errors.New("disk gone")
	for _, c := range []struct {
		e    ParseError
		want string
	}{
		{ParseError{File: "a.txt", Line: 3, Col: 7, Expected: "a number", Found: `"x"`}, `a.txt:3:7: expected a number, found "x"`},
		{ParseError{File: "a.txt", Line: 3, Expected: "2 fields", Found: "3"}, "a.txt:3: expected 2 fields, found 3"},
		{ParseError{File: "a.txt", Expected: "a header line", Found: "an empty file"}, "a.txt: expected a header line, found an empty file"},
		{ParseError{File: "a.txt", Line: 3, Col: 7, Msg: "stream 1 listed twice", Expected: "ignored"}, "a.txt:3:7: stream 1 listed twice"},
		{ParseError{File: "0.evt", Binary: true, Offset: 148, Expected: "a record length", Found: "end of file"}, "0.evt: byte 148: expected a record length, found end of file"},
		{ParseError{File: "0.evt", Binary: true, Expected: "a chunk header (0x03)", Found: "0x07"}, "0.evt: byte 0: expected a chunk header (0x03), found 0x07"},
		{ParseError{Col: 3, Msg: `hostlist "n[5-3]": expected lo ≤ hi, found "5-3"`}, `hostlist "n[5-3]": expected lo ≤ hi, found "5-3" (column 3)`},
		{ParseError{File: "a.txt", Line: 2, Err: boom}, "a.txt:2: disk gone"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%#v:\n got %s\nwant %s", c.e, got, c.want)
		}
	}
	e := &ParseError{File: "a", Line: 1, Msg: "reading: disk gone", Err: boom}
	if !errors.Is(e, boom) {
		t.Error("ParseError does not unwrap to its Err")
	}
}

func TestQuoteAndSize(t *testing.T) {
	if got := Quote("ab\t"); got != `"ab\t"` {
		t.Errorf("Quote: %s", got)
	}
	long := strings.Repeat("x", 59) + "é" + "yyy"
	if got := Quote(long); got != `"`+strings.Repeat("x", 59)+`"…` {
		t.Errorf("Quote of a long field: %s", got)
	}
	for n, want := range map[int]string{256 << 20: "256 MiB", 1 << 20: "1 MiB", 64 << 10: "64 KiB", 100: "100 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestLimit: a line fits when it and its line ending take at most max
// bytes; a last line without a line ending must be shorter than max.
func TestLimit(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	for _, c := range []struct {
		name, in string
		tooLong  bool
	}{
		{"LF, fits", x(15) + "\n", false},
		{"LF, one over", x(16) + "\n", true},
		{"CRLF, fits", x(14) + "\r\n", false},
		{"CRLF, one over", x(15) + "\r\n", true},
		{"last line, fits", x(15), false},
		{"last line, max", x(16), true},
		{"after short lines", "a\nb\n" + x(40) + "\n", true},
	} {
		r := New(strings.NewReader(c.in), "f", 16)
		got := readAll(r)
		var e *ParseError
		switch {
		case c.tooLong && (!errors.As(r.Err(), &e) || !errors.Is(e, bufio.ErrTooLong) || e.Line != len(got)+1):
			t.Errorf("%s: lines %q, error %v, want too long at line %d", c.name, got, r.Err(), len(got)+1)
		case !c.tooLong && (r.Err() != nil || len(got) != 1 || len(got[0]) != strings.Count(c.in, "x")):
			t.Errorf("%s: lines %q, error %v", c.name, got, r.Err())
		}
	}
}

// TestReadErrorAfterPartialLine: the bytes read before the error are a
// line; the error is at the line after it.
func TestReadErrorAfterPartialLine(t *testing.T) {
	boom := errors.New("disk gone")
	r := New(io.MultiReader(strings.NewReader("a\r\nb"), iotest.ErrReader(boom)), "f", 64)
	got := readAll(r)
	var e *ParseError
	if strings.Join(got, "|") != "a|b" || !errors.As(r.Err(), &e) || errors.Is(r.Err(), bufio.ErrTooLong) || e.Line != 3 || !errors.Is(r.Err(), boom) {
		t.Fatalf("lines %q, error %#v", got, r.Err())
	}
	if r.Err().Error() != "f:3: reading: disk gone" {
		t.Errorf("message %q", r.Err())
	}
}

// TestOneByteReads: lines split across many small reads read whole.
func TestOneByteReads(t *testing.T) {
	r := New(iotest.OneByteReader(strings.NewReader("\uFEFFab\r\ncd\n\nef")), "f", 64)
	if got := readAll(r); strings.Join(got, "|") != "ab|cd||ef" || r.Err() != nil {
		t.Fatalf("lines %q, error %v", got, r.Err())
	}
}

// TestBytesDoesNotAllocate: reading a file allocates the reader and its
// buffer, nothing per line (the METIS and edge-list readers rely on it).
func TestBytesDoesNotAllocate(t *testing.T) {
	in := "\uFEFF" + strings.Repeat("1 2 3\r\n", 10000)
	var n int
	allocs := testing.AllocsPerRun(5, func() {
		r := New(strings.NewReader(in), "f", 1<<20)
		for r.Next() {
			n += len(r.Bytes())
		}
	})
	if allocs > 5 {
		t.Errorf("reading 10000 lines allocated %v times", allocs)
	}
}
