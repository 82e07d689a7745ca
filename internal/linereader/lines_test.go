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
	} {
		r := New(strings.NewReader(c.in), 64)
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
	r := New(strings.NewReader("short\nok\n"+strings.Repeat("x", 20)+"\nafter\n"), 16)
	got := readAll(r)
	var e *Error
	if len(got) != 2 || !errors.As(r.Err(), &e) || !e.TooLong || e.Line != 3 || e.Max != 16 || !errors.Is(r.Err(), bufio.ErrTooLong) {
		t.Fatalf("lines %q, error %#v", got, r.Err())
	}
	if r.Err().Error() != "line 3: longer than 16 bytes" {
		t.Errorf("message %q", r.Err())
	}
}

func TestReadErrorNamesItsLine(t *testing.T) {
	boom := errors.New("disk gone")
	in := io.MultiReader(strings.NewReader("a\nb\n"), iotest.ErrReader(boom))
	r := New(in, 64)
	got := readAll(r)
	var e *Error
	if len(got) != 2 || !errors.As(r.Err(), &e) || e.TooLong || e.Line != 3 || !errors.Is(r.Err(), boom) {
		t.Fatalf("lines %q, error %#v", got, r.Err())
	}
}

func TestExplain(t *testing.T) {
	long := &Error{Line: 3, TooLong: true, Max: 16, Err: bufio.ErrTooLong}
	failed := &Error{Line: 2, Err: errors.New("disk gone")}
	if got := long.Explain("expected a short line"); got != "expected a short line" {
		t.Errorf("long line: %q", got)
	}
	if got := failed.Explain("expected a short line"); got != "reading: disk gone" {
		t.Errorf("read error: %q", got)
	}
}
