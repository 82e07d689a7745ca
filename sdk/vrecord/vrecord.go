// Package vrecord holds the vertex-level record of a BSP run: for every
// superstep, each vertex's value, whether it computed and whether it acted,
// the messages it sent and received, and the messages along each arc of
// the graph. The engine (sdk/bsp) fills a record from its own bookkeeping
// when Config.Record asks for one; views, tables and cells read it.
//
// The record knows vertices and arcs by index (the graph's CSR order); it
// does not know the program, the workers or how the run is drawn. It keeps
// each superstep as a Delta (what changed: the vertices whose value
// changed, those that computed, sent or received, the messages) and a
// snapshot of the values every KeyEvery supersteps, so that a wave front
// of a few hundred vertices on a 20,000-vertex graph costs what the front
// does; Step(i) gives superstep i whole.
//
// What the columns mean, superstep by superstep:
//
//   - Value is the vertex's value after the superstep, as a float (the
//     first number of the value, or what Options.Value makes of it).
//   - State is Halted (the vertex did not compute: it had voted to halt and
//     no message woke it), Woken (it computed but neither set its value nor
//     sent a message: a vertex behind SSSP's wave front that a message woke
//     and that found nothing better) or Active (it computed and set its
//     value or sent a message). Halted and Woken together are Pregel's
//     inactive-or-idle vertices; Woken and Active together are the vertices
//     the profile counts as processed.
//   - Sent counts the messages the vertex's Compute sent, before any
//     combiner; ArcMessages counts them per arc (a message to a vertex that
//     is not a neighbour is in Sent but on no arc). A record keeps them in
//     two parts, so that a program that sends along every edge costs a
//     vertex entry, not one per arc: Broadcasts (a vertex sent to all its
//     neighbours, Count times) and Arcs (single messages along one arc).
//   - Received counts the messages delivered to the vertex at the end of
//     the superstep, after the combiner: what its next Compute reads. Summed
//     over the vertices it equals the profile's messages of the superstep.
package vrecord

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// State is what a vertex did in a superstep.
type State uint8

const (
	// Halted: the vertex did not compute.
	Halted State = iota
	// Woken: it computed but set nothing and sent nothing.
	Woken
	// Active: it computed and set its value or sent a message.
	Active
)

// String is "halted", "woken" or "active".
func (s State) String() string {
	switch s {
	case Halted:
		return "halted"
	case Woken:
		return "woken"
	case Active:
		return "active"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// DefaultMaxBytes is the memory a record may take unless Options say
// otherwise: 256 MiB.
const DefaultMaxBytes = 256 << 20

// What a record keeps, in bytes: per vertex whose value changed in a
// superstep, its index and value (12); per vertex that computed, sent or
// received, its index, state and counts (13); per vertex that broadcast
// and per arc that carried single messages, an index and a count (8); and
// every KeyEvery supersteps a snapshot of the values (8 a vertex).
const (
	BytesPerChange  = 12
	BytesPerTouched = 13
	BytesPerArc     = 8
	KeyEvery        = 32
)

// Options ask the engine for a record (bsp.Config.Record).
type Options struct {
	// Value turns a vertex's value (ValueWidth numbers) into the float the
	// record keeps; nil keeps the first number. It is called for the
	// vertices that computed, after the superstep.
	Value func(value []float64) float64
	// MaxBytes is the record's budget (0: DefaultMaxBytes). A run whose
	// record would grow past it stops with an error naming the budget (the
	// record keeps the supersteps before): never a silent cut.
	MaxBytes int64
}

// Record is the vertex-level record of a run. Build one with New and
// Append (the engine) or AppendStep (by hand, or a reader).
type Record struct {
	// Vertices and NumArcs are the graph's sizes.
	Vertices, NumArcs int
	// Offsets is each vertex's first arc (len Vertices+1) and Targets each
	// arc's target vertex (CSR order): the graph's shape, so that a record
	// read back from Parquet still knows what its arcs join.
	Offsets []int
	Targets []int32
	// MaxBytes is the budget the record was made with.
	MaxBytes int64

	deltas []Delta
	keys   [][]float64 // keys[k]: the values before superstep k·KeyEvery
	cur    []float64   // the values after the last superstep appended
	bytes  int64
}

// Delta is one superstep as the record keeps it. Every list is in
// ascending vertex (or arc) order.
type Delta struct {
	// Changed are the vertices whose value's bits changed in the
	// superstep, Values their values after it.
	Changed []int32
	Values  []float64
	// Touched are the vertices that computed, or received messages (a
	// halted vertex that computed nothing but is woken next), with their
	// State, Sent and Received counts; every other vertex was Halted and
	// sent and received nothing.
	Touched        []int32
	State          []State
	Sent, Received []int32
	// Broadcasts and Arcs: see Step.
	Broadcasts []VertexCount
	Arcs       []ArcCount
}

// Bytes is the memory the delta takes (the budget's measure).
func (d *Delta) Bytes() int64 {
	return int64(len(d.Changed))*BytesPerChange + int64(len(d.Touched))*BytesPerTouched +
		int64(len(d.Broadcasts)+len(d.Arcs))*BytesPerArc
}

// Step is one superstep of a record, whole: per vertex its value after the
// superstep, its state, its sent and received counts.
type Step struct {
	Superstep      int
	Value          []float64
	State          []State
	Sent, Received []int32
	// Broadcasts are the vertices that sent to every neighbour (Count
	// times each), by vertex ascending; Arcs are the arcs that carried
	// single messages besides, by arc index ascending. ArcMessages merges
	// them.
	Broadcasts []VertexCount
	Arcs       []ArcCount
}

// VertexCount is a number of broadcasts of one vertex.
type VertexCount struct {
	Vertex, Count int32
}

// ArcCount is the number of messages sent along one arc in a superstep.
type ArcCount struct {
	Arc, Count int32
}

// ErrBudget is wrapped by the error of a run whose record outgrew its
// budget.
var ErrBudget = errors.New("the vertex record is over its budget")

// New starts a record of a graph of the given shape (Offsets, Targets as
// in Record) whose values before superstep 0 are initial (one per vertex;
// kept, not copied).
func New(offsets []int, targets []int32, initial []float64, maxBytes int64) (*Record, error) {
	n := len(offsets) - 1
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	r := &Record{Vertices: n, NumArcs: len(targets), Offsets: offsets, Targets: targets, MaxBytes: maxBytes}
	if n < 0 || len(initial) != n {
		return nil, fmt.Errorf("vrecord: %d offsets and %d initial values do not describe one graph", len(offsets), len(initial))
	}
	if err := r.checkShape(); err != nil {
		return nil, err
	}
	r.keys = [][]float64{initial}
	r.cur = slices.Clone(initial)
	r.bytes = int64(n) * 8
	return r, nil
}

// Len is the number of supersteps recorded.
func (r *Record) Len() int { return len(r.deltas) }

// Delta is superstep i as the record keeps it (do not change it).
func (r *Record) Delta(i int) *Delta { return &r.deltas[i] }

// Bytes is the memory the record takes: its deltas and value snapshots
// (the budget's measure).
func (r *Record) Bytes() int64 { return r.bytes }

// Values are the values after the last superstep appended (do not change
// them).
func (r *Record) Values() []float64 { return r.cur }

// Fits reports whether a delta of d bytes stays within the budget, and
// the record's size with it.
func (r *Record) Fits(d int64) (bool, int64) {
	return r.bytes+d <= r.MaxBytes, r.bytes + d
}

// Append adds the next superstep. The delta is kept, not copied. It fails
// when the delta's lists are not sorted, name a vertex or arc outside the
// graph, or their lengths differ; and, wrapping ErrBudget, when the record
// would pass its budget (the record is then unchanged).
func (r *Record) Append(d Delta) error {
	i := len(r.deltas)
	if err := r.checkDelta(i, &d); err != nil {
		return err
	}
	need := d.Bytes()
	if i > 0 && i%KeyEvery == 0 {
		need += int64(r.Vertices) * 8
	}
	if ok, total := r.Fits(need); !ok {
		return fmt.Errorf("vrecord: superstep %d would take the record to %s, past its budget of %s: %w", i, Size(total), Size(r.MaxBytes), ErrBudget)
	}
	if i > 0 && i%KeyEvery == 0 {
		r.keys = append(r.keys, slices.Clone(r.cur))
	}
	for k, v := range d.Changed {
		r.cur[v] = d.Values[k]
	}
	r.deltas = append(r.deltas, d)
	r.bytes += need
	return nil
}

// AppendStep adds the next superstep given whole (Superstep must be
// Len()): the record keeps what changed.
func (r *Record) AppendStep(s Step) error {
	n := r.Vertices
	if s.Superstep != len(r.deltas) {
		return fmt.Errorf("vrecord: step %d given as superstep %d", len(r.deltas), s.Superstep)
	}
	if len(s.Value) != n || len(s.State) != n || len(s.Sent) != n || len(s.Received) != n {
		return fmt.Errorf("vrecord: superstep %d has %d values, %d states, %d sent and %d received counts for %d vertices", s.Superstep, len(s.Value), len(s.State), len(s.Sent), len(s.Received), n)
	}
	d := Delta{Broadcasts: s.Broadcasts, Arcs: s.Arcs}
	for v := range n {
		if math.Float64bits(s.Value[v]) != math.Float64bits(r.cur[v]) {
			d.Changed = append(d.Changed, int32(v))
			d.Values = append(d.Values, s.Value[v])
		}
		if s.State[v] != Halted || s.Sent[v] != 0 || s.Received[v] != 0 {
			d.Touched = append(d.Touched, int32(v))
			d.State = append(d.State, s.State[v])
			d.Sent = append(d.Sent, s.Sent[v])
			d.Received = append(d.Received, s.Received[v])
		}
	}
	return r.Append(d)
}

// Step returns superstep i whole, in new slices: the nearest snapshot
// with the deltas since applied.
func (r *Record) Step(i int) Step {
	n := r.Vertices
	s := Step{Superstep: i, State: make([]State, n), Sent: make([]int32, n), Received: make([]int32, n)}
	if i == len(r.deltas)-1 {
		s.Value = slices.Clone(r.cur)
	} else {
		k := i / KeyEvery
		s.Value = slices.Clone(r.keys[k])
		for j := k * KeyEvery; j <= i; j++ {
			d := &r.deltas[j]
			for c, v := range d.Changed {
				s.Value[v] = d.Values[c]
			}
		}
	}
	d := &r.deltas[i]
	for k, v := range d.Touched {
		s.State[v], s.Sent[v], s.Received[v] = d.State[k], d.Sent[k], d.Received[k]
	}
	s.Broadcasts, s.Arcs = d.Broadcasts, d.Arcs
	return s
}

// Source is the vertex arc a leaves (a binary search of Offsets).
func (r *Record) Source(a int) int {
	lo, hi := 0, r.Vertices
	for lo < hi {
		m := (lo + hi) / 2
		if r.Offsets[m+1] <= a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// ArcMessages is the number of messages along each arc in superstep s
// that carried some, by arc ascending: the broadcasts spread over their
// vertices' arcs plus the single messages.
func (r *Record) ArcMessages(s int) []ArcCount {
	st := &r.deltas[s]
	if len(st.Broadcasts) == 0 {
		return st.Arcs
	}
	out := make([]ArcCount, 0, len(st.Arcs)+len(st.Broadcasts))
	singles := st.Arcs
	for _, b := range st.Broadcasts {
		lo, hi := int32(r.Offsets[b.Vertex]), int32(r.Offsets[b.Vertex+1])
		for len(singles) > 0 && singles[0].Arc < lo {
			out = append(out, singles[0])
			singles = singles[1:]
		}
		for a := lo; a < hi; a++ {
			k := b.Count
			if len(singles) > 0 && singles[0].Arc == a {
				k += singles[0].Count
				singles = singles[1:]
			}
			out = append(out, ArcCount{Arc: a, Count: k})
		}
	}
	return append(out, singles...)
}

// Count is the number of vertices in state st in superstep s.
func (r *Record) Count(s int, st State) int {
	d := &r.deltas[s]
	if st == Halted {
		k := r.Vertices
		for _, x := range d.State {
			if x != Halted {
				k--
			}
		}
		return k
	}
	k := 0
	for _, x := range d.State {
		if x == st {
			k++
		}
	}
	return k
}

// Messages is the number of messages delivered at the end of superstep s
// (the sum of Received: the profile's count).
func (r *Record) Messages(s int) int64 {
	var k int64
	for _, x := range r.deltas[s].Received {
		k += int64(x)
	}
	return k
}

// Size is a record's size for a message: in MiB, or in bytes below one.
func Size(b int64) string {
	if b < 1<<20 {
		return fmt.Sprintf("%d bytes", b)
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

func (r *Record) checkShape() error {
	if r.Vertices < 0 || len(r.Offsets) != r.Vertices+1 || r.Offsets[0] != 0 || r.Offsets[r.Vertices] != r.NumArcs || len(r.Targets) != r.NumArcs {
		return fmt.Errorf("vrecord: the graph's shape does not hold together (%d vertices, %d offsets, %d arcs, %d targets)", r.Vertices, len(r.Offsets), r.NumArcs, len(r.Targets))
	}
	for v := 0; v < r.Vertices; v++ {
		if r.Offsets[v+1] < r.Offsets[v] {
			return fmt.Errorf("vrecord: vertex %d's arcs end before they start", v)
		}
	}
	for a, t := range r.Targets {
		if t < 0 || int(t) >= r.Vertices {
			return fmt.Errorf("vrecord: arc %d goes to vertex %d of %d", a, t, r.Vertices)
		}
	}
	return nil
}

// checkDelta reports the first inconsistency of superstep i's delta.
func (r *Record) checkDelta(i int, d *Delta) error {
	n := r.Vertices
	if len(d.Values) != len(d.Changed) {
		return fmt.Errorf("vrecord: superstep %d: %d changed vertices, %d values", i, len(d.Changed), len(d.Values))
	}
	if len(d.State) != len(d.Touched) || len(d.Sent) != len(d.Touched) || len(d.Received) != len(d.Touched) {
		return fmt.Errorf("vrecord: superstep %d: %d touched vertices, %d states, %d sent and %d received counts", i, len(d.Touched), len(d.State), len(d.Sent), len(d.Received))
	}
	for _, l := range []struct {
		what string
		v    []int32
	}{{"changed", d.Changed}, {"touched", d.Touched}} {
		last := int32(-1)
		for _, v := range l.v {
			if v <= last || int(v) >= n {
				return fmt.Errorf("vrecord: superstep %d: %s vertex %d is out of order or outside 0..%d", i, l.what, v, n-1)
			}
			last = v
		}
	}
	for k, v := range d.Touched {
		if d.State[k] > Active {
			return fmt.Errorf("vrecord: superstep %d: vertex %d has state %d", i, v, d.State[k])
		}
		if d.Sent[k] < 0 || d.Received[k] < 0 {
			return fmt.Errorf("vrecord: superstep %d: vertex %d has negative counts", i, v)
		}
	}
	last := int32(-1)
	for _, ac := range d.Arcs {
		if ac.Arc <= last || int(ac.Arc) >= r.NumArcs {
			return fmt.Errorf("vrecord: superstep %d: arc %d is out of order or outside 0..%d", i, ac.Arc, r.NumArcs-1)
		}
		if ac.Count <= 0 {
			return fmt.Errorf("vrecord: superstep %d: arc %d carries %d messages", i, ac.Arc, ac.Count)
		}
		last = ac.Arc
	}
	last = -1
	for _, b := range d.Broadcasts {
		if b.Vertex <= last || int(b.Vertex) >= n {
			return fmt.Errorf("vrecord: superstep %d: broadcast of vertex %d is out of order or outside 0..%d", i, b.Vertex, n-1)
		}
		if b.Count <= 0 {
			return fmt.Errorf("vrecord: superstep %d: vertex %d broadcast %d times", i, b.Vertex, b.Count)
		}
		last = b.Vertex
	}
	return nil
}
