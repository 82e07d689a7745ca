package kernel

import (
	"regexp"
	"strings"
)

// HistorySession is the session number of the kernel's history: the
// kernel keeps the history of its own process only.
const HistorySession = 1

// HistoryEntry is one stored cell: its execution count, its source and the
// text of its result (nil without one).
type HistoryEntry struct {
	Line   int
	Input  string
	Output *string
}

// History is the cells a kernel ran, in order, answering the three kinds of
// history_request.
type History struct {
	entries []HistoryEntry
}

// Add stores a cell.
func (h *History) Add(line int, input string, output *string) {
	h.entries = append(h.entries, HistoryEntry{Line: line, Input: input, Output: output})
}

func (h *History) clone() History {
	return History{entries: append([]HistoryEntry(nil), h.entries...)}
}

// Tail is the last n cells (all of them for n nil, zero or negative).
func (h History) Tail(n *int) []HistoryEntry { return tail(h.entries, n) }

// Range is the cells of a session with start <= line < stop (stop 0 or
// less: to the end). Session 0 or negative means this session, as
// IPython's relative numbering does; another session has no cells here.
func (h History) Range(session, start, stop int) []HistoryEntry {
	if session > 0 && session != HistorySession {
		return nil
	}
	var out []HistoryEntry
	for _, e := range h.entries {
		if e.Line >= start && (stop <= 0 || e.Line < stop) {
			out = append(out, e)
		}
	}
	return out
}

// Search is the cells whose source matches a glob pattern ("" matches
// all), the last n of them; with unique, each source once, at its latest
// run.
func (h History) Search(pattern string, n *int, unique bool) []HistoryEntry {
	if pattern == "" {
		pattern = "*"
	}
	re := globRegexp(pattern)
	seen := map[string]bool{}
	var picked []HistoryEntry
	for i := len(h.entries) - 1; i >= 0; i-- {
		e := h.entries[i]
		if !re.MatchString(e.Input) {
			continue
		}
		if unique {
			if seen[e.Input] {
				continue
			}
			seen[e.Input] = true
		}
		picked = append(picked, e)
	}
	for i, j := 0, len(picked)-1; i < j; i, j = i+1, j-1 {
		picked[i], picked[j] = picked[j], picked[i]
	}
	return tail(picked, n)
}

func tail(es []HistoryEntry, n *int) []HistoryEntry {
	if n == nil || *n <= 0 || *n >= len(es) {
		return es
	}
	return es[len(es)-*n:]
}

// globRegexp compiles a glob pattern as IPython's history search reads it
// (fnmatch): * matches any text (newlines and slashes too), ? one
// character, everything else itself.
func globRegexp(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
