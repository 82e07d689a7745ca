package kernel

import (
	"fmt"
	"strings"
	"testing"
)

func TestHistory(t *testing.T) {
	var h History
	out := "42"
	h.Add(1, "x := 1", nil)
	h.Add(2, "x + 41", &out)
	h.Add(3, "// a comment\nfmt.Println(x)", nil)
	h.Add(4, "x := 1", nil)
	lines := func(es []HistoryEntry) string {
		var ls []int
		for _, e := range es {
			ls = append(ls, e.Line)
		}
		return fmt.Sprint(ls)
	}
	n := func(i int) *int { return &i }
	for _, c := range []struct {
		name string
		got  []HistoryEntry
		want string
	}{
		{"tail 2", h.Tail(n(2)), "[3 4]"},
		{"tail all (nil)", h.Tail(nil), "[1 2 3 4]"},
		{"tail 0 is all", h.Tail(n(0)), "[1 2 3 4]"},
		{"tail more than there are", h.Tail(n(10)), "[1 2 3 4]"},
		{"range 2..4", h.Range(0, 2, 4), "[2 3]"},
		{"range to the end", h.Range(HistorySession, 3, 0), "[3 4]"},
		{"range of this session, relative", h.Range(-1, 1, 2), "[1]"},
		{"range of another session", h.Range(7, 1, 0), "[]"},
		{"search all", h.Search("", nil, false), "[1 2 3 4]"},
		{"search glob", h.Search("x*", nil, false), "[1 2 4]"},
		{"search across slashes and lines", h.Search("*Println*", nil, false), "[3]"},
		{"search unique keeps the latest", h.Search("x := *", nil, true), "[4]"},
		{"search last n", h.Search("x*", n(2), false), "[2 4]"},
		{"search ? is one character", h.Search("x ?= 1", nil, false), "[1 4]"},
		{"search is not a regexp", h.Search("x.*", nil, false), "[]"},
	} {
		if got := lines(c.got); got != c.want {
			t.Errorf("%s: lines %s, want %s", c.name, got, c.want)
		}
	}
	if e := h.Tail(n(3))[0]; e.Output == nil || *e.Output != "42" {
		t.Errorf("the output of line 2 is %v", e.Output)
	}
}

func TestFrontEndCell(t *testing.T) {
	for _, c := range []struct {
		meta    map[string]any
		cell    string
		deleted []string
	}{
		{nil, "", nil},
		{map[string]any{"cellId": "c1", "deletedCells": []any{"c0", 3, "c2"}}, "c1", []string{"c0", "c2"}},
		{map[string]any{"cellId": 7, "deletedCells": "c0"}, "", nil},
	} {
		cell, deleted := frontEndCell(c.meta)
		if cell != c.cell || strings.Join(deleted, ",") != strings.Join(c.deleted, ",") {
			t.Errorf("%v: cell %q deleted %q", c.meta, cell, deleted)
		}
	}
}
