package trace

import "fmt"

// WarningLimit is how many warnings of one kind Warnings keeps in full.
const WarningLimit = 5

// Warnings collects a reader's warnings for Trace.Warnings: the first
// WarningLimit of each kind in full ("a.1.events:138: …"), then one line
// saying how many more of that kind there were, so that a trace with a
// million records of an unknown kind gives six lines, not a million. The
// zero value is ready to use; it is not safe for concurrent use.
type Warnings struct {
	order []string
	kinds map[string]*warningKind
}

type warningKind struct {
	full  []string
	more  int
	where string // the first occurrence's file, for the summary line
}

// Add records a warning of a kind ("unknown record", "counter on a
// process group") at file:line (line 0: the file as a whole).
func (w *Warnings) Add(kind, file string, line int, format string, args ...any) {
	if w.kinds == nil {
		w.kinds = map[string]*warningKind{}
	}
	k := w.kinds[kind]
	if k == nil {
		k = &warningKind{where: file}
		w.kinds[kind] = k
		w.order = append(w.order, kind)
	}
	if len(k.full) >= WarningLimit {
		k.more++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if line > 0 {
		k.full = append(k.full, fmt.Sprintf("%s:%d: %s", file, line, msg))
	} else {
		k.full = append(k.full, fmt.Sprintf("%s: %s", file, msg))
	}
}

// Merge adds o's warnings after w's, kind by kind (o's counts included):
// a reader that parses files in parallel merges their Warnings in file
// order.
func (w *Warnings) Merge(o *Warnings) {
	if o == nil {
		return
	}
	for _, kind := range o.order {
		ok := o.kinds[kind]
		for _, line := range ok.full {
			if w.kinds == nil {
				w.kinds = map[string]*warningKind{}
			}
			k := w.kinds[kind]
			if k == nil {
				k = &warningKind{where: ok.where}
				w.kinds[kind] = k
				w.order = append(w.order, kind)
			}
			if len(k.full) >= WarningLimit {
				k.more++
			} else {
				k.full = append(k.full, line)
			}
		}
		if ok.more > 0 {
			w.kinds[kind].more += ok.more
		}
	}
}

// Len is the number of warnings added, counted ones included.
func (w *Warnings) Len() int {
	n := 0
	for _, k := range w.kinds {
		n += len(k.full) + k.more
	}
	return n
}

// List returns the warnings for Trace.Warnings, kind by kind in the order
// each kind first occurred.
func (w *Warnings) List() []string {
	var out []string
	for _, kind := range w.order {
		k := w.kinds[kind]
		out = append(out, k.full...)
		if k.more > 0 {
			out = append(out, fmt.Sprintf("%s: … and %d more: %s", k.where, k.more, kind))
		}
	}
	return out
}
