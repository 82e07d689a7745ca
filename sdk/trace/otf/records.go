package otf

import (
	"bytes"
	"fmt"

	"superstep/sdk/trace"
)

// This file knows the layout of every record of OTF 1.12's short format
// that the reader skips, so that it can tell a record it skips on purpose
// from one it does not know (a warning) and from a known record that is
// malformed (a warning too: the reader does not use it). The layouts are
// those OTF_WStream.c writes and OTF_Parse.c reads.

// valueKind is the kind of a field's value.
type valueKind uint8

const (
	vNone    valueKind = iota // no value
	vHex                      // a hex number of at most 64 bits
	vHexData                  // any number of hex digits (a byte array)
	vString                   // "text" (OTF writes no quote inside)
	vList                     // hex numbers separated by commas, maybe empty, maybe a trailing comma
	vVersion                  // a version: hex digits and dots, then an optional "name"
	vRest                     // anything up to the end of the line
)

// field is a keyword and its value ("L3e8": key "L", a hex value).
type field struct {
	key, alt string // alt: a deprecated keyword OTF still reads, or ""
	kind     valueKind
	opt      bool
}

// layout is one record type: its keyword (after the file's prefix: "D"
// for definitions, "T" for snapshots, "S" for summaries, "M" for
// markers), the value right after the keyword and the keyed fields in
// the order OTF writes them.
type layout struct {
	name    string
	kw      string
	lead    valueKind
	leadOpt bool
	fields  []field
}

func req(key string, kind valueKind) field { return field{key: key, kind: kind} }
func opt(key string, kind valueKind) field { return field{key: key, kind: kind, opt: true} }

// sclField is the optional source-code location most events carry.
var sclField = opt("X", vHex)

// nameField is NM"<name>", or the deprecated N"<name>".
var nameField = field{key: "NM", alt: "N", kind: vString}

// defLayouts are the definition records (after "D") the reader skips.
// DTR, DP, DPG, DF, DA and DPGA are read (defs.go), not listed here.
var defLayouts = []layout{
	{name: "definition comment (DCMT)", kw: "CMT", lead: vString},
	{name: "time range (DTRG)", kw: "TRG", lead: vHex, fields: []field{req("T", vHex)}},
	{name: "function group (DFG)", kw: "FG", lead: vHex, fields: []field{nameField}},
	{name: "collective operation (DCO)", kw: "CO", lead: vHex, fields: []field{nameField, {key: "Y", alt: "T", kind: vHex}}},
	{name: "counter (DCNT)", kw: "CNT", lead: vHex, fields: []field{opt("G", vHex), nameField, opt("P", vHex), opt("U", vString)}},
	{name: "counter group (DCG)", kw: "CG", lead: vHex, fields: []field{nameField}},
	{name: "counter assignments (DCA)", kw: "CA", lead: vHex, fields: []field{req("M", vList)}},
	{name: "source-code location (DS)", kw: "S", lead: vHex, fields: []field{req("F", vHex), req("LN", vHex)}},
	{name: "source file (DSF)", kw: "SF", lead: vHex, fields: []field{nameField}},
	{name: "version (DV)", kw: "V", lead: vVersion},
	{name: "creator (DCR)", kw: "CR", lead: vString},
	{name: "file (DFL)", kw: "FL", lead: vHex, fields: []field{nameField, opt("G", vHex)}},
	{name: "file group (DFLG)", kw: "FLG", lead: vHex, fields: []field{nameField}},
	{name: "key-value definition (DK)", kw: "K", lead: vHex, fields: []field{req("Y", vHex), nameField, opt("T", vString)}},
	{name: "unique id (DUI)", kw: "UI", lead: vHex},
	{name: "process substitutes (DPS)", kw: "PS", lead: vHex, fields: []field{req("M", vList)}},
	{name: "auxiliary sample point (DAUX)", kw: "AUX", lead: vHex, fields: []field{req("Y", vHex)}},
}

// eventLayouts are the event records. E, L, S and R are read on
// processes (stream.go); they are listed for process-group streams.
var eventLayouts = []layout{
	{name: "enter (E)", kw: "E", lead: vHex, fields: []field{sclField}},
	{name: "leave (L)", kw: "L", lead: vHex, leadOpt: true, fields: []field{sclField}},
	{name: "send (S)", kw: "S", lead: vHex, fields: []field{req("L", vHex), req("T", vHex), req("C", vHex), sclField}},
	{name: "receive (R)", kw: "R", lead: vHex, fields: []field{req("L", vHex), req("T", vHex), req("C", vHex), sclField}},
	{name: "counter (CNT)", kw: "CNT", lead: vHex, fields: []field{req("V", vHex)}},
	{name: "collective operation (COP)", kw: "COP", lead: vHex, fields: []field{req("C", vHex), req("RT", vHex), req("S", vHex), req("R", vHex), req("D", vHex), sclField}},
	{name: "collective begin (COPB)", kw: "COPB", lead: vHex, fields: []field{req("H", vHex), req("C", vHex), req("RT", vHex), req("S", vHex), req("R", vHex), sclField}},
	{name: "collective end (COPE)", kw: "COPE", lead: vHex},
	{name: "event comment (#)", kw: "#", lead: vRest},
	{name: "process begin (PB)", kw: "PB", fields: []field{sclField}},
	{name: "process end (PE)", kw: "PE", fields: []field{sclField}},
	{name: "no-op (N)", kw: "N"},
	{name: "file operation (F)", kw: "F", lead: vHex, fields: []field{req("H", vHex), req("OP", vHex), req("B", vHex), req("D", vHex), sclField}},
	{name: "file operation begin (FA)", kw: "FA", lead: vHex, fields: []field{sclField}},
	{name: "file operation end (FF)", kw: "FF", lead: vHex, fields: []field{req("MI", vHex), req("H", vHex), req("OP", vHex), req("B", vHex), sclField}},
	{name: "RMA put (T)", kw: "T", lead: vHex, fields: []field{req("P", vHex), req("C", vHex), req("T", vHex), req("L", vHex), sclField}},
	{name: "RMA put remote end (U)", kw: "U", lead: vHex, fields: []field{req("P", vHex), req("C", vHex), req("T", vHex), req("L", vHex), sclField}},
	{name: "RMA get (G)", kw: "G", lead: vHex, fields: []field{req("P", vHex), req("C", vHex), req("T", vHex), req("L", vHex), sclField}},
	{name: "RMA end (M)", kw: "M", lead: vHex, fields: []field{req("C", vHex), req("T", vHex), sclField}},
}

// snapLayouts are the snapshot records (after "T"), in snapshot files
// and inline in event files.
var snapLayouts = []layout{
	{name: "snapshot comment (TC)", kw: "C", lead: vString},
	{name: "enter snapshot (TE)", kw: "E", lead: vHex, fields: []field{req("O", vHex), sclField}},
	{name: "send snapshot (TS)", kw: "S", lead: vHex, fields: []field{req("O", vHex), req("G", vHex), req("T", vHex), req("L", vHex), sclField}},
	{name: "open file snapshot (TOF)", kw: "OF", lead: vHex, fields: []field{req("O", vHex), req("H", vHex), sclField}},
	{name: "collective begin snapshot (TBC)", kw: "BC", lead: vHex, fields: []field{req("CL", vHex), req("H", vHex), req("G", vHex), req("RT", vHex), req("S", vHex), req("R", vHex), sclField}},
	{name: "file operation begin snapshot (TBF)", kw: "BF", lead: vHex, fields: []field{req("MI", vHex), sclField}},
	{name: "collective count snapshot (TCO)", kw: "CO", fields: []field{req("C", vHex), req("N", vHex)}},
	{name: "counter snapshot (TCNT)", kw: "CNT", lead: vHex, fields: []field{req("CNT", vHex), req("V", vHex)}},
}

// statLayouts are the summary (statistics) records (after "S").
var statLayouts = []layout{
	{name: "summary comment (SC)", kw: "C", lead: vString},
	{name: "function summary (SF)", kw: "F", lead: vHex, fields: []field{req("N", vHex), req("E", vHex), req("I", vHex)}},
	{name: "function group summary (SG)", kw: "G", lead: vHex, fields: []field{req("N", vHex), req("E", vHex), req("I", vHex)}},
	{name: "message summary (SM)", kw: "M", lead: vHex, fields: []field{req("C", vHex), req("T", vHex), req("NS", vHex), req("NR", vHex), req("S", vHex), req("R", vHex)}},
	{name: "collective summary (SCO)", kw: "CO", lead: vHex, fields: []field{req("CL", vHex), req("NS", vHex), req("NR", vHex), req("S", vHex), req("R", vHex)}},
	{name: "file operation summary (SFL)", kw: "FL", lead: vHex, fields: fileSummary},
	{name: "file group summary (SFLG)", kw: "FLG", lead: vHex, fields: fileSummary},
}

var fileSummary = []field{req("NO", vHex), req("NC", vHex), req("NRD", vHex), req("NW", vHex), req("NSK", vHex), req("BR", vHex), req("BW", vHex)}

// markerLayouts are the marker records (after "M").
var markerLayouts = []layout{
	{name: "marker definition (MD)", kw: "D", lead: vHex, fields: []field{nameField, req("Y", vHex)}},
	{name: "marker (MS)", kw: "S", lead: vHex, fields: []field{req("T", vHex), req("P", vHex), req("V", vString)}},
}

// keyValue is a key-value pair line ("K<key>Y<type>V<value>[L<length>]"),
// which belongs to the record after it, in any file.
var keyValue = layout{name: "key-value pair (K)", kw: "K", lead: vHex, fields: []field{req("Y", vHex), req("V", vHexData), opt("L", vHex)}}

// fileKind says which records a file holds.
type fileKind uint8

const (
	kindDefs fileKind = iota
	kindEvents
	kindSnaps
	kindStats
	kindMarkers
)

// classified is what classify found.
type classified uint8

const (
	recKnown     classified = iota // a record of a known type, well formed
	recKeyValue                    // a key-value pair line
	recMalformed                   // a known keyword, but the fields do not fit
	recUnknown                     // no known keyword
	recLong                        // a record in OTF's long format
)

// classify identifies a record the reader does not use: its layout's
// name (for recKnown and recMalformed) and what it is.
func classify(kind fileKind, rec []byte) (string, classified) {
	if isLong(rec) {
		return "", recLong
	}
	if len(rec) > 0 && rec[0] == 'K' {
		if keyValue.match(rec) {
			return keyValue.name, recKeyValue
		}
		return keyValue.name, recMalformed
	}
	var prefix byte
	var table []layout
	switch kind {
	case kindDefs:
		prefix, table = 'D', defLayouts
	case kindSnaps:
		prefix, table = 'T', snapLayouts
	case kindStats:
		prefix, table = 'S', statLayouts
	case kindMarkers:
		prefix, table = 'M', markerLayouts
	default:
		name, c := match(eventLayouts, rec)
		if c == recKnown || len(rec) < 2 || rec[0] != 'T' {
			return name, c
		}
		// Inline snapshots: "T" and a snapshot keyword.
		sname, sc := match(snapLayouts, rec[1:])
		if sc == recUnknown {
			return name, c
		}
		return sname, sc
	}
	if len(rec) == 0 || rec[0] != prefix {
		return "", recUnknown
	}
	return match(table, rec[1:])
}

// match finds the layout rec fits. Keywords share prefixes ("COP",
// "COPB"; "TR", "TRG"), so it tries them all: the longest keyword whose
// layout fits wins. A record no layout fits is malformed when a keyword
// is followed by what its layout expects next (a value, not another
// capital), else unknown.
func match(table []layout, rec []byte) (string, classified) {
	var fits, near *layout
	for i := range table {
		l := &table[i]
		if !hasPrefix(rec, l.kw) {
			continue
		}
		if l.match(rec) {
			if fits == nil || len(l.kw) > len(fits.kw) {
				fits = l
			}
			continue
		}
		if len(rec) > len(l.kw) && isUpper(rec[len(l.kw)]) && l.lead != vNone {
			continue // another keyword
		}
		if near == nil || len(l.kw) > len(near.kw) {
			near = l
		}
	}
	switch {
	case fits != nil:
		return fits.name, recKnown
	case near != nil:
		return near.name, recMalformed
	}
	return "", recUnknown
}

func hasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }

// match reports whether rec (starting with the keyword) has the layout.
func (l *layout) match(rec []byte) bool {
	c := cursor{b: rec}
	if !c.eatString(l.kw) {
		return false
	}
	if l.lead != vNone {
		save := c.i
		if !c.value(l.lead) {
			if !l.leadOpt {
				return false
			}
			c.i = save
		}
	}
	for _, f := range l.fields {
		save := c.i
		if c.eatString(f.key) || f.alt != "" && c.eatString(f.alt) {
			if c.value(f.kind) {
				continue
			}
			if !f.opt {
				return false
			}
			c.i = save
			continue
		}
		if !f.opt {
			return false
		}
	}
	return c.done()
}

// value reads one value of the kind.
func (c *cursor) value(kind valueKind) bool {
	switch kind {
	case vHex:
		_, ok := c.hex()
		return ok
	case vHexData:
		for c.i < len(c.b) && isHex(c.b[c.i]) {
			c.i++
		}
		return true
	case vString:
		return c.quoted()
	case vList:
		for isHex(c.peek()) {
			if _, ok := c.hex(); !ok {
				return false
			}
			if !c.eat(',') {
				break
			}
		}
		return true
	case vVersion:
		start := c.i
		for c.i < len(c.b) && (isHex(c.b[c.i]) || c.b[c.i] == '.') {
			c.i++
		}
		if c.i == start {
			return false
		}
		if c.peek() == '"' {
			return c.quoted()
		}
		return true
	case vRest:
		c.i = len(c.b)
		return true
	}
	return true
}

// quoted reads "<text>".
func (c *cursor) quoted() bool {
	if !c.eat('"') {
		return false
	}
	j := bytes.IndexByte(c.b[c.i:], '"')
	if j < 0 {
		return false
	}
	c.i += j + 1
	return true
}

// isLong reports whether rec is in OTF's long format: a keyword of two
// or more capitals (or "#EVTCOMMENT") followed by a space, which the
// short format never has outside quotes.
func isLong(rec []byte) bool {
	i := 0
	for i < len(rec) && (isUpper(rec[i]) || rec[i] == '#' && i == 0) {
		i++
	}
	return i >= 2 && i < len(rec) && rec[i] == ' '
}

// longFormatMsg is the error for a record in OTF's long format.
func longFormatMsg(rec []byte) string {
	return fmt.Sprintf("record %s is in OTF's long format, which is not read; convert the trace to the short format with \"otfmerge -n 0 -o <new name> <trace>.otf\"", quote(rec))
}

// skipRecord classifies a record the reader does not use and warns when
// it is unknown or malformed; it returns an error message for a record in
// the long format.
func skipRecord(kind fileKind, w *warner, line int, rec []byte) string {
	name, c := classify(kind, rec)
	switch c {
	case recLong:
		return longFormatMsg(rec)
	case recUnknown:
		if w.full(warnUnknown) {
			w.add(warnUnknown, line, "unknown record %s skipped", quote(rec))
		} else {
			w.count(warnUnknown, line)
		}
	case recMalformed:
		if w.full(warnMalformed) {
			w.add(warnMalformed, line, "malformed %s record %s skipped", name, quote(rec))
		} else {
			w.count(warnMalformed, line)
		}
	}
	return ""
}

// Warning kinds.
const (
	warnUnknown = iota
	warnMalformed
	warnGroup
	nWarnKinds
)

var warnKinds = [nWarnKinds]string{
	warnUnknown:   "unknown record skipped",
	warnMalformed: "malformed record skipped",
	warnGroup:     "record on a process-group stream skipped",
}

// warner collects one file's (or one stream's files') warnings, formatting
// a message only while trace.Warnings keeps them in full.
type warner struct {
	w    trace.Warnings
	file string
	n    [nWarnKinds]int
}

// full reports whether a warning of kind k would be kept in full; when
// not, count it instead of formatting a message.
func (w *warner) full(k int) bool { return w.n[k] < trace.WarningLimit }

func (w *warner) add(k, line int, format string, args ...any) {
	w.n[k]++
	w.w.Add(warnKinds[k], w.file, line, format, args...)
}

func (w *warner) count(k, line int) {
	w.n[k]++
	w.w.Add(warnKinds[k], w.file, line, "")
}
