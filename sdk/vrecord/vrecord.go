// Package vrecord holds the vertex-level record of a BSP run: for every
// superstep, each vertex's value, whether it computed and whether it acted,
// the messages it sent and received, and the messages along each arc of
// the graph. The engine (sdk/bsp) fills a record from its own bookkeeping
// when Config.Record asks for one; views, tables and cells read it.
//
// The record knows vertices and arcs by index (the graph's CSR order); it
// does not know the program, the workers or how the run is drawn.
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
// otherwise: 256 MiB, some 300 supersteps of 20,000 vertices and 400,000
// busy arcs.
const DefaultMaxBytes = 256 << 20

// Per vertex and superstep a record keeps a value (8 bytes), a state (1),
// and sent and received counts (4 each); per arc that carried messages, its
// index and count (8).
const (
	BytesPerVertex = 17
	BytesPerArc    = 8
)

// Options ask the engine for a record (bsp.Config.Record).
type Options struct {
	// Value turns a vertex's value (ValueWidth numbers) into the float the
	// record keeps; nil keeps the first number. It is called once per
	// vertex and superstep, after the superstep.
	Value func(value []float64) float64
	// MaxBytes is the record's budget (0: DefaultMaxBytes). A run whose
	// record would grow past it stops with an error naming the budget (the
	// record keeps the supersteps before): never a silent cut.
	MaxBytes int64
}

// Record is the vertex-level record of a run.
type Record struct {
	// Vertices and NumArcs are the graph's sizes.
	Vertices, NumArcs int
	// Targets is each arc's target vertex (CSR order), Offsets each
	// vertex's first arc (len Vertices+1): the graph's shape, so that a
	// record read back from Parquet still knows what its arcs join.
	Offsets []int
	Targets []int32
	Steps   []Step
	// MaxBytes is the budget the record was made with.
	MaxBytes int64
}

// Step is one superstep of a record.
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

// Bytes is the memory the record's steps take (the budget's measure).
func (r *Record) Bytes() int64 {
	var b int64
	for i := range r.Steps {
		b += stepBytes(r.Vertices, len(r.Steps[i].Arcs)+len(r.Steps[i].Broadcasts))
	}
	return b
}

func stepBytes(n, arcs int) int64 { return int64(n)*BytesPerVertex + int64(arcs)*BytesPerArc }

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
	st := &r.Steps[s]
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
	k := 0
	for _, x := range r.Steps[s].State {
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
	for _, x := range r.Steps[s].Received {
		k += int64(x)
	}
	return k
}

// Validate reports the first inconsistency of the record (a record read
// from files written elsewhere): lengths, arcs outside the graph, states
// out of range, negative counts.
func (r *Record) Validate() error {
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
	n := r.Vertices
	for i, s := range r.Steps {
		if s.Superstep != i {
			return fmt.Errorf("vrecord: step %d is superstep %d", i, s.Superstep)
		}
		if len(s.Value) != n || len(s.State) != n || len(s.Sent) != n || len(s.Received) != n {
			return fmt.Errorf("vrecord: superstep %d has %d values, %d states, %d sent and %d received counts for %d vertices", i, len(s.Value), len(s.State), len(s.Sent), len(s.Received), n)
		}
		for v := range n {
			if s.State[v] > Active {
				return fmt.Errorf("vrecord: superstep %d: vertex %d has state %d", i, v, s.State[v])
			}
			if s.Sent[v] < 0 || s.Received[v] < 0 {
				return fmt.Errorf("vrecord: superstep %d: vertex %d has negative counts", i, v)
			}
		}
		last := int32(-1)
		for _, ac := range s.Arcs {
			if ac.Arc <= last || int(ac.Arc) >= r.NumArcs {
				return fmt.Errorf("vrecord: superstep %d: arc %d is out of order or outside 0..%d", i, ac.Arc, r.NumArcs-1)
			}
			if ac.Count <= 0 {
				return fmt.Errorf("vrecord: superstep %d: arc %d carries %d messages", i, ac.Arc, ac.Count)
			}
			last = ac.Arc
		}
		lastV := int32(-1)
		for _, b := range s.Broadcasts {
			if b.Vertex <= lastV || int(b.Vertex) >= n {
				return fmt.Errorf("vrecord: superstep %d: broadcast of vertex %d is out of order or outside 0..%d", i, b.Vertex, n-1)
			}
			if b.Count <= 0 {
				return fmt.Errorf("vrecord: superstep %d: vertex %d broadcast %d times", i, b.Vertex, b.Count)
			}
			lastV = b.Vertex
		}
	}
	return nil
}
