package fattree

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// Snapshot is what the port counters of a fabric read at one moment:
// cumulative values since the counters were last cleared, already mapped
// to directed links (SwitchPort, NodePort). A directed link is seen by
// both ends of its cable (the source's transmit counters, the
// destination's receive counters); a snapshot lists each link once, from
// the end the caller trusts.
type Snapshot struct {
	Time  time.Time
	Where string // where it was read, such as "perfquery.txt:12"; may be ""
	Links []LinkCounters
}

// LinkCounters is the cumulative counters of one directed link in a
// Snapshot. Bytes are bytes (InfiniBand's PortXmitData/PortRcvData count
// 4-byte words: multiply by 4 before). Bits is the counters' width, 32 or
// 64 (0 means 64); a 32-bit counter stops at 2^32−1 (InfiniBand counters
// saturate rather than wrap).
type LinkCounters struct {
	Link                             int
	Bytes, Packets, XmitWait, Errors uint64
	Bits                             int
	// Line is the line of the snapshot's file (Snapshot.Where) this
	// value was read from; 0 when there is none.
	Line int
}

// Deltas turns cumulative snapshots, in increasing time, into counters
// rows: the first snapshot of a link is its baseline, so N snapshots give
// N−1 intervals, each row at the end of its interval, rows ordered by
// time and link. A link missing from a snapshot gets no row for the
// intervals that end there, and its next value is compared with its last
// one.
//
// A counter that decreased was reset (cleared by an operator or a
// reboot): its delta is its new value (DeltasWith ResetToZero counts 0,
// as TreeScope does), and a warning names the link, the time and where
// the value was read. A 32-bit counter at 2^32−1 is
// saturated: the row's Saturated is set and its values are lower bounds
// (a warning too).
//
// It fails when the snapshots are not in strictly increasing time, when a
// snapshot lists a link twice or a negative link, when Bits is neither 0,
// 32 nor 64, when a 32-bit counter exceeds 2^32−1, or when a delta
// exceeds the int64 range.
func Deltas(snaps []Snapshot) ([]CounterRow, []Warning, error) {
	return DeltasWith(snaps, ResetFromZero)
}

// ResetRule is what Deltas counts over an interval in which a counter
// decreased (was reset).
type ResetRule uint8

const (
	// ResetFromZero counts the new value: the counter was cleared and
	// counted up from 0 during the interval (Deltas' rule).
	ResetFromZero ResetRule = iota
	// ResetToZero counts 0, as TreeScope v1.0 does: app/src/model/
	// counters.js, fix(), sets a negative difference between consecutive
	// values to 0 (and the next interval is counted from the new value).
	// It gives TreeScope's totals; it undercounts what the link carried.
	ResetToZero
)

// String is "from-zero" or "to-zero".
func (r ResetRule) String() string {
	switch r {
	case ResetFromZero:
		return "from-zero"
	case ResetToZero:
		return "to-zero"
	}
	return fmt.Sprintf("ResetRule(%d)", uint8(r))
}

// DeltasWith is Deltas with the reset rule given: ResetToZero for
// TreeScope's numbers. It fails as Deltas does, and for an unknown rule.
func DeltasWith(snaps []Snapshot, reset ResetRule) ([]CounterRow, []Warning, error) {
	d := DeltaStream{Reset: reset}
	total := 0
	for _, s := range snaps {
		total += len(s.Links)
	}
	if len(snaps) > 0 {
		d.Grow(total - len(snaps[0].Links))
	}
	for _, s := range snaps {
		if err := d.Add(s); err != nil {
			return nil, nil, err
		}
	}
	rows, warns := d.Result()
	return rows, warns, nil
}

// DeltaStream is Deltas one snapshot at a time, for readers that would
// rather not hold every snapshot at once: Add them in increasing time,
// then take the Result. The zero value is ready to use.
type DeltaStream struct {
	// Columns, if set before the first Add, receives the rows instead of
	// Result (a day of counters is cheaper by column).
	Columns *CounterColumns
	// Reset is the rule for a counter that decreased (ResetFromZero, the
	// zero value, or ResetToZero), set before the first Add.
	Reset ResetRule
	// By link id: the last values, whether there are any, and the
	// snapshot (+1) that last listed the link.
	prev   [][4]uint64
	has    []bool
	seenAt []int
	rows   []CounterRow
	part   []CounterRow // one snapshot's rows, on their way to Columns
	warns  []Warning
	n      int       // snapshots added
	last   time.Time // the last snapshot's time
}

// Grow makes room for n more rows.
func (ds *DeltaStream) Grow(n int) {
	switch {
	case n <= 0:
	case ds.Columns != nil:
		ds.Columns.Grow(n)
	default:
		ds.rows = slices.Grow(ds.rows, n)
	}
}

// Result is the rows and warnings of the snapshots added so far (no rows
// when they went to Columns).
func (ds *DeltaStream) Result() ([]CounterRow, []Warning) { return ds.rows, ds.warns }

// Add adds the next snapshot, failing as Deltas does (snapshots are
// numbered from 0 in the messages, as there); after an error the stream
// is not to be used further.
func (ds *DeltaStream) Add(s Snapshot) error {
	si := ds.n
	if ds.Reset != ResetFromZero && ds.Reset != ResetToZero {
		return fmt.Errorf("fattree: deltas: unknown reset rule %v", ds.Reset)
	}
	if si > 0 && !s.Time.After(ds.last) {
		return fmt.Errorf("fattree: snapshot %d%s at %s is not after snapshot %d at %s",
			si, where(s.Where, 0), s.Time.UTC().Format(time.RFC3339), si-1, ds.last.UTC().Format(time.RFC3339))
	}
	// Check first, so that a failing snapshot changes nothing.
	for _, lc := range s.Links {
		w := lazyWhere{s.Where, lc.Line}
		if lc.Link < 0 {
			return fmt.Errorf("fattree: snapshot %d%s: link %d, want an id ≥ 0", si, w, lc.Link)
		}
		if lc.Link >= len(ds.prev) {
			n := max(lc.Link+1, 2*len(ds.prev))
			ds.prev = append(ds.prev, make([][4]uint64, n-len(ds.prev))...)
			ds.has = append(ds.has, make([]bool, n-len(ds.has))...)
			ds.seenAt = append(ds.seenAt, make([]int, n-len(ds.seenAt))...)
		}
		if ds.seenAt[lc.Link] == si+1 {
			return fmt.Errorf("fattree: snapshot %d%s lists link %d twice", si, w, lc.Link)
		}
		ds.seenAt[lc.Link] = si + 1
		switch lc.Bits {
		case 0, 64:
		case 32:
			for k, x := range [4]uint64{lc.Bytes, lc.Packets, lc.XmitWait, lc.Errors} {
				if x > math.MaxUint32 {
					return fmt.Errorf("fattree: snapshot %d%s: link %d: 32-bit counter %s = %d exceeds 2^32−1", si, w, lc.Link, counterName(k), x)
				}
			}
		default:
			return fmt.Errorf("fattree: snapshot %d%s: link %d: counters of %d bits, want 32 or 64", si, w, lc.Link, lc.Bits)
		}
		if p, ok := ds.prev[lc.Link], ds.has[lc.Link]; ok {
			v := [4]uint64{lc.Bytes, lc.Packets, lc.XmitWait, lc.Errors}
			for k := range v {
				if v[k] >= p[k] && v[k]-p[k] > math.MaxInt64 || v[k] < p[k] && v[k] > math.MaxInt64 {
					return fmt.Errorf("fattree: snapshot %d%s: link %d: %s delta exceeds the int64 range", si, w, lc.Link, counterName(k))
				}
			}
		}
	}
	out := &ds.rows
	if ds.Columns != nil {
		ds.part = ds.part[:0]
		out = &ds.part
	}
	first := len(*out)
	for _, lc := range s.Links {
		w := lazyWhere{s.Where, lc.Line}
		v := [4]uint64{lc.Bytes, lc.Packets, lc.XmitWait, lc.Errors}
		sat := lc.Bits == 32 && (v[0] == math.MaxUint32 || v[1] == math.MaxUint32 || v[2] == math.MaxUint32 || v[3] == math.MaxUint32)
		p, ok := ds.prev[lc.Link], ds.has[lc.Link]
		ds.prev[lc.Link], ds.has[lc.Link] = v, true
		if !ok {
			continue
		}
		var d [4]int64
		for k := range v {
			delta := v[k] - p[k]
			if v[k] < p[k] {
				how := "counted from 0"
				delta = v[k]
				if ds.Reset == ResetToZero {
					how, delta = "counted as 0 (TreeScope's rule)", 0
				}
				ds.warns = append(ds.warns, Warning{Msg: fmt.Sprintf("link %d at %s%s: %s went from %d to %d: a reset, %s",
					lc.Link, s.Time.UTC().Format(time.RFC3339), w, counterName(k), p[k], v[k], how)})
			}
			d[k] = int64(delta)
		}
		if sat {
			ds.warns = append(ds.warns, Warning{Msg: fmt.Sprintf("link %d at %s%s: a 32-bit counter is saturated at 2^32−1: the interval's values are lower bounds",
				lc.Link, s.Time.UTC().Format(time.RFC3339), w)})
		}
		*out = append(*out, CounterRow{Time: s.Time, Link: lc.Link, Bytes: d[0], Packets: d[1], XmitWait: d[2], Errors: d[3], Saturated: sat})
	}
	iv := (*out)[first:]
	byLink := func(a, b CounterRow) int { return a.Link - b.Link }
	if !slices.IsSortedFunc(iv, byLink) {
		slices.SortFunc(iv, byLink)
	}
	if c := ds.Columns; c != nil && len(iv) > 0 {
		t := s.Time.Unix()
		for _, r := range iv {
			c.Time = append(c.Time, t)
			c.Link = append(c.Link, int32(r.Link))
			c.Bytes = append(c.Bytes, r.Bytes)
			c.Packets = append(c.Packets, r.Packets)
			c.XmitWait = append(c.XmitWait, r.XmitWait)
			c.Errors = append(c.Errors, r.Errors)
			c.Saturated = append(c.Saturated, r.Saturated)
		}
	}
	ds.n++
	ds.last = s.Time
	return nil
}

// counterName names counter k (bytes, packets, xmit_wait, errors) in
// messages.
func counterName(k int) string {
	return [4]string{"bytes", "packets", "xmit_wait", "errors"}[k]
}

// lazyWhere prints as where's text, made only when a message needs it.
type lazyWhere struct {
	file string
	line int
}

func (w lazyWhere) String() string { return where(w.file, w.line) }

// where is " (file:line)", " (file)" or "".
func where(file string, line int) string {
	switch {
	case file == "":
		return ""
	case line > 0:
		return " (" + file + ":" + strconv.Itoa(line) + ")"
	}
	return " (" + file + ")"
}

// Direction says which directed link a port's receive and transmit
// counters belong to.
type Direction uint8

const (
	// PortDirection is the physical one: a port's receive counter counts
	// what came in over the link peer→owner, its transmit counter what
	// went out over owner→peer.
	PortDirection Direction = iota
	// TreeScopeDirection reproduces TreeScope v1.0's reversed drawing:
	// receive counted on owner→peer, transmit on peer→owner. Use it only
	// to compare with pictures made by that tool.
	TreeScopeDirection
)

// String is "port" or "treescope".
func (d Direction) String() string {
	switch d {
	case PortDirection:
		return "port"
	case TreeScopeDirection:
		return "treescope"
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// SwitchPort is the directed links that the receive and transmit counters
// of port p (from 1) of switch sw belong to, under direction d. It fails
// when f has no switch sw, the switch no port p, or d is unknown.
func SwitchPort(f *Fabric, sw, p int, d Direction) (rx, tx int, err error) {
	if sw < 0 || sw >= len(f.Switches) {
		return 0, 0, fmt.Errorf("fattree: no switch %d (the fabric has %d)", sw, len(f.Switches))
	}
	s := &f.Switches[sw]
	if p < 1 || p > len(s.Ports) {
		return 0, 0, fmt.Errorf("fattree: %s has no port %d (ports 1..%d)", s.Name, p, len(s.Ports))
	}
	return orient(s.Ports[p-1].In, s.Ports[p-1].Out, d)
}

// NodePort is the directed links that the receive and transmit counters
// of node n's port (its only one, port 1) belong to, under direction d.
func NodePort(f *Fabric, n int, d Direction) (rx, tx int, err error) {
	if n < 0 || n >= len(f.Nodes) {
		return 0, 0, fmt.Errorf("fattree: no node %d (the fabric has %d)", n, len(f.Nodes))
	}
	return orient(f.Nodes[n].Down, f.Nodes[n].Up, d)
}

func orient(in, out int, d Direction) (rx, tx int, err error) {
	switch d {
	case PortDirection:
		return in, out, nil
	case TreeScopeDirection:
		return out, in, nil
	}
	return 0, 0, fmt.Errorf("fattree: unknown direction %v", d)
}
