package otf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"superstep/internal/linereader"
)

// streamInfo is one line of the master file: a stream and its processes.
type streamInfo struct {
	id    uint64
	procs []uint64
	size  int64 // of the event file, 0 when unknown
}

// parseMaster reads the ".otf" master file: lines "<stream>:<proc>,<proc>…"
// in hex.
func parseMaster(file string, data []byte) ([]streamInfo, error) {
	var out []streamInfo
	seen := map[uint64]bool{}
	err := eachRecord(file, data, func(line int, rec []byte) string {
		c := cursor{b: rec}
		id, ok := c.hex()
		if !ok || !c.eat(':') {
			return fmt.Sprintf("expected <stream>:<process>,…, found %s", quote(rec))
		}
		if seen[id] {
			return fmt.Sprintf("stream %x listed twice", id)
		}
		seen[id] = true
		s := streamInfo{id: id}
		for !c.done() {
			p, ok := c.hex()
			if !ok {
				return fmt.Sprintf("expected a hex process id, found %s", quote(c.rest()))
			}
			s.procs = append(s.procs, p)
			if !c.eat(',') && !c.done() {
				return fmt.Sprintf("expected ',' after process %x, found %s", p, quote(c.rest()))
			}
		}
		out = append(out, s)
		return ""
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &ParseError{File: file, Msg: "no streams listed"}
	}
	return out, nil
}

// maxLine bounds a line of the master, definition, snapshot, summary and
// marker files (a process group of 100 000 members is about 1 MiB).
const maxLine = 256 << 20

// eachRecord is the one line loop of the master, definition, snapshot,
// summary and marker files: it calls do with each non-empty line of data,
// the text of file, and its 1-based number (internal/linereader: CRLF
// files read like LF files, a byte order mark is dropped). A message from
// do stops the loop as a *ParseError at that line.
func eachRecord(file string, data []byte, do func(line int, rec []byte) string) error {
	lr := linereader.New(bytes.NewReader(data), file, maxLine)
	for lr.Next() {
		rec := lr.Bytes()
		if len(rec) == 0 {
			continue
		}
		if msg := do(lr.Line(), rec); msg != "" {
			return lr.Errorf(0, "%s", msg)
		}
	}
	return lr.Err()
}

type procDef struct {
	id   uint64
	name string
}

type groupDef struct {
	id      uint64
	name    string
	members []uint64
}

type funcDef struct {
	id   uint64
	name string
}

// defs collects the definition records.
type defs struct {
	ticksPerSecond uint64
	procs          []procDef
	groups         []groupDef
	groupName      map[uint32]string
	funcs          []funcDef // in order of definition; index = region index
	funcIndex      map[uint64]int32
	// attrLists are the attribute lists (DA: id → OTF_ATTR_TYPE values),
	// groupAttrs the process groups' attribute lists (DPGA: group → list).
	attrLists  map[uint64][]uint64
	groupAttrs map[uint64]uint64
	// warn collects the definition files' warnings.
	warn warner
}

func newDefs() *defs {
	return &defs{groupName: map[uint32]string{}, funcIndex: map[uint64]int32{},
		attrLists: map[uint64][]uint64{}, groupAttrs: map[uint64]uint64{}}
}

// readDefFile reads name or name+".z"; a missing file is an error only
// when required.
func readDefFile(fsys fs.FS, name string, required bool, d *defs) error {
	data, err := fs.ReadFile(fsys, name)
	file := name
	if errors.Is(err, fs.ErrNotExist) {
		file = name + ".z"
		var zdata []byte
		zdata, err = fs.ReadFile(fsys, file)
		if err == nil {
			var in inflater
			data, err = in.inflate(path.Base(file), zdata)
			data = slices.Clone(data)
		}
	}
	if err != nil {
		if !required && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("otf: definitions: %w", err)
	}
	return d.parse(path.Base(file), data)
}

// parse reads definition records; records it does not know are skipped
// with a warning.
func (d *defs) parse(file string, data []byte) error {
	d.warn.file = file
	return eachRecord(file, data, d.record)
}

// record reads one definition record and returns what went wrong, or "".
// The records it uses are told by their keyword followed by a hex digit
// (DTR1, not DTRG0…); the others are skipped by their layout (records.go).
func (d *defs) record(line int, rec []byte) string {
	if hasPrefix(rec, "DEF") {
		return longFormatMsg(rec)
	}
	c := cursor{b: rec}
	switch {
	case c.eatString("DTR") && isHex(c.peek()):
		v, ok := c.hex()
		if !ok || v == 0 || !c.done() {
			return fmt.Sprintf("expected a non-zero hex timer resolution, found %s", quote(rec[3:]))
		}
		d.ticksPerSecond = v
		return ""
	case c.reset() && c.eatString("DPGA") && isHex(c.peek()):
		id, _ := c.hex()
		if !c.eat('V') {
			return fmt.Sprintf("expected V<attribute list> in process group attributes of %x, found %s", id, quote(c.rest()))
		}
		v, ok := c.hex()
		if !ok || !c.done() {
			return fmt.Sprintf("expected a hex attribute list in process group attributes of %x, found %s", id, quote(c.rest()))
		}
		d.groupAttrs[id] = v
		return ""
	case c.reset() && c.eatString("DPG") && isHex(c.peek()):
		return d.group(&c)
	case c.reset() && c.eatString("DP") && isHex(c.peek()):
		return d.process(&c)
	case c.reset() && c.eatString("DA") && isHex(c.peek()):
		id, _ := c.hex()
		if !c.eat('M') {
			return fmt.Sprintf("expected M<attributes> in attribute list %x, found %s", id, quote(c.rest()))
		}
		var attrs []uint64
		for isHex(c.peek()) {
			a, ok := c.hex()
			if !ok {
				break
			}
			attrs = append(attrs, a)
			if !c.eat(',') {
				break
			}
		}
		if !c.done() {
			return fmt.Sprintf("unexpected %s in attribute list %x", quote(c.rest()), id)
		}
		d.attrLists[id] = attrs
		return ""
	case c.reset() && c.eatString("DF") && isHex(c.peek()):
		return d.function(&c)
	}
	if msg := skipRecord(kindDefs, &d.warn, line, rec); msg != "" {
		return msg
	}
	return ""
}

// reset moves the cursor back to the record's start; it returns true so
// that it can stand in a chain of conditions.
func (c *cursor) reset() bool {
	c.i = 0
	return true
}

// group reads DPG<id>M<members>NM"<name>" after "DPG".
func (d *defs) group(c *cursor) string {
	id, ok := c.hex()
	if !ok {
		return fmt.Sprintf("expected a hex process group id, found %s", quote(c.rest()))
	}
	g := groupDef{id: id}
	if !c.eat('M') {
		return fmt.Sprintf("expected M<members> in process group %x, found %s", id, quote(c.rest()))
	}
	for isHex(c.peek()) {
		m, ok := c.hex()
		if !ok {
			return fmt.Sprintf("expected a hex member of process group %x, found %s", id, quote(c.rest()))
		}
		g.members = append(g.members, m)
		if !c.eat(',') {
			break
		}
	}
	name, ok := c.name()
	if !ok {
		return fmt.Sprintf("expected NM\"<name>\" in process group %x, found %s", id, quote(c.rest()))
	}
	if !c.done() {
		return fmt.Sprintf("unexpected %s after process group %x", quote(c.rest()), id)
	}
	g.name = name
	d.groups = append(d.groups, g)
	if id <= 0xffffffff {
		d.groupName[uint32(id)] = name
	}
	return ""
}

// process reads DP<id>[NM"<name>"][PT<parent>] after "DP" (OTF also
// reads the deprecated N and P, and a parent before the name).
func (d *defs) process(c *cursor) string {
	id, ok := c.hex()
	if !ok {
		return fmt.Sprintf("expected a hex process id, found %s", quote(c.rest()))
	}
	parent := func() string {
		if c.eatString("PT") || c.eat('P') {
			if _, ok := c.hex(); !ok {
				return fmt.Sprintf("expected a hex parent of process %x, found %s", id, quote(c.rest()))
			}
		}
		return ""
	}
	if msg := parent(); msg != "" {
		return msg
	}
	name := fmt.Sprintf("Process %x", id) // a process without a name
	if !c.done() {
		n, ok := c.name()
		if !ok {
			return fmt.Sprintf("expected NM\"<name>\" in process %x, found %s", id, quote(c.rest()))
		}
		name = n
		if msg := parent(); msg != "" {
			return msg
		}
	}
	if !c.done() {
		return fmt.Sprintf("unexpected %s after process %x", quote(c.rest()), id)
	}
	d.procs = append(d.procs, procDef{id: id, name: name})
	return ""
}

// function reads DF<id>[G<group>]NM"<name>"[X<scl>] after "DF".
func (d *defs) function(c *cursor) string {
	id, ok := c.hex()
	if !ok {
		return fmt.Sprintf("expected a hex function id, found %s", quote(c.rest()))
	}
	if c.eat('G') {
		if _, ok := c.hex(); !ok {
			return fmt.Sprintf("expected a hex function group of function %x, found %s", id, quote(c.rest()))
		}
	}
	name, ok := c.name()
	if !ok {
		return fmt.Sprintf("expected NM\"<name>\" in function %x, found %s", id, quote(c.rest()))
	}
	if c.eat('X') || c.eat('S') {
		if _, ok := c.hex(); !ok {
			return fmt.Sprintf("expected a hex source-code location of function %x, found %s", id, quote(c.rest()))
		}
	}
	if !c.done() {
		return fmt.Sprintf("unexpected %s after function %x", quote(c.rest()), id)
	}
	if _, dup := d.funcIndex[id]; dup {
		return fmt.Sprintf("function %x defined twice", id)
	}
	d.funcIndex[id] = int32(len(d.funcs))
	d.funcs = append(d.funcs, funcDef{id: id, name: name})
	return ""
}

// tables are the read-only lookups the stream parsers share.
type tables struct {
	proc  idTable // OTF process id → process index
	fn    idTable // OTF function id → region index
	group idTable // OTF process group id → its index in defs.groups
	// start is the trace's first tick (time 0).
	start uint64
	// pool recycles event blocks; nil allocates.
	pool *blockPool
}

// idTable maps ids to indices: a dense slice for small ids, a map beyond.
type idTable struct {
	dense  []int32 // -1: no such id
	sparse map[uint64]int32
}

const denseLimit = 1 << 20

func newIDTable(ids []uint64) idTable {
	var t idTable
	for i, id := range ids {
		if id < denseLimit {
			for uint64(len(t.dense)) <= id {
				t.dense = append(t.dense, -1)
			}
			t.dense[id] = int32(i)
		} else {
			if t.sparse == nil {
				t.sparse = map[uint64]int32{}
			}
			t.sparse[id] = int32(i)
		}
	}
	return t
}

func (t *idTable) get(id uint64) (int32, bool) {
	if id < uint64(len(t.dense)) {
		v := t.dense[id]
		return v, v >= 0
	}
	v, ok := t.sparse[id]
	return v, ok
}

// tables sorts the processes and builds the lookups.
func (d *defs) tables() *tables {
	d.procs = sortProcs(d.procs)
	pids := make([]uint64, len(d.procs))
	for i, p := range d.procs {
		pids[i] = p.id
	}
	fids := make([]uint64, len(d.funcs))
	for i, f := range d.funcs {
		fids[i] = f.id
	}
	gids := make([]uint64, len(d.groups))
	for i, g := range d.groups {
		gids[i] = g.id
	}
	return &tables{proc: newIDTable(pids), fn: newIDTable(fids), group: newIDTable(gids)}
}

// cursor walks a record byte by byte.
type cursor struct {
	b []byte
	i int
}

func (c *cursor) done() bool   { return c.i >= len(c.b) }
func (c *cursor) rest() []byte { return c.b[c.i:] }

func (c *cursor) peek() byte {
	if c.i < len(c.b) {
		return c.b[c.i]
	}
	return 0
}

func (c *cursor) eat(ch byte) bool {
	if c.i < len(c.b) && c.b[c.i] == ch {
		c.i++
		return true
	}
	return false
}

func (c *cursor) eatString(s string) bool {
	if len(c.b)-c.i >= len(s) && string(c.b[c.i:c.i+len(s)]) == s {
		c.i += len(s)
		return true
	}
	return false
}

// hex reads lower-case hex digits (OTF writes no others: upper-case
// letters are keywords). It fails on no digits or more than 64 bits.
func (c *cursor) hex() (uint64, bool) {
	var v uint64
	start := c.i
	for c.i < len(c.b) {
		ch := c.b[c.i]
		var d byte
		switch {
		case ch >= '0' && ch <= '9':
			d = ch - '0'
		case ch >= 'a' && ch <= 'f':
			d = ch - 'a' + 10
		default:
			return v, c.i > start
		}
		if v>>60 != 0 {
			return v, false
		}
		v = v<<4 | uint64(d)
		c.i++
	}
	return v, c.i > start
}

// name reads NM"<text>" or the deprecated N"<text>" (the text runs to
// the next quote).
func (c *cursor) name() (string, bool) {
	start := c.i
	if !c.eatString(`NM"`) && !c.eatString(`N"`) {
		return "", false
	}
	j := bytes.IndexByte(c.b[c.i:], '"')
	if j < 0 {
		c.i = start
		return "", false
	}
	s := string(c.b[c.i : c.i+j])
	c.i += j + 1
	return s, true
}

func isHex(ch byte) bool { return ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f' }

// quote shows at most 24 bytes of b, quoted.
func quote(b []byte) string {
	if len(b) > 24 {
		return fmt.Sprintf("%q…", b[:24])
	}
	return fmt.Sprintf("%q", b)
}
