package infiniband

import (
	"fmt"
	"math"

	"superstep/topology/fattree"
)

// CounterSource says which end of a cable gives a directed link's
// counters when both ends' ports were read: the port that transmits on
// the link (its PortXmitData, PortXmitPkts) or the port that receives
// from it (PortRcvData, PortRcvPkts). Both count the same traffic; they
// differ by what crossed the link between the two reads, or when a port
// misreports.
type CounterSource uint8

const (
	// Transmit takes the transmitting port's counters, the receiving
	// port's when the transmitting one was not read (the zero value).
	Transmit CounterSource = iota
	// Receive takes the receiving port's counters, the transmitting
	// port's when the receiving one was not read.
	Receive
	// Max takes, counter by counter, the larger of the two ends' values
	// (bytes, packets, errors), or the one end that was read.
	Max
	// TreeScope computes what TreeScope v1.0 (LLNL) shows: receive
	// counters only, and on the reversed direction. TreeScope's counters
	// files have one value per port, rcv_data = 4 × PortRcvData
	// (tools/OSMHistoryParser.java, write_portCounters), which
	// app/src/model/counters.js (add_topology) puts on the link from the
	// port's owner to its peer: that is fattree.TreeScopeDirection, which
	// this source implies whatever the Direction option. A link whose
	// receiving port was not read has no value (TreeScope has none), with
	// a warning when its transmitting port was read. TreeScope's third
	// rule, a reset counted as 0, is Deltas' to apply: use
	// fattree.DeltasWith(snaps, fattree.ResetToZero) (PerfqueryOptions.
	// ResetRule says so).
	TreeScope
)

// String is "transmit", "receive", "max" or "treescope".
func (s CounterSource) String() string {
	switch s {
	case Transmit:
		return "transmit"
	case Receive:
		return "receive"
	case Max:
		return "max"
	case TreeScope:
		return "treescope"
	}
	return fmt.Sprintf("CounterSource(%d)", uint8(s))
}

// DefaultTolerance is the disagreement between the two ends of a link
// that ReadPerfquery accepts without a warning: 1% of the larger value.
// Ports are read one after the other, so the two ends of a busy link
// differ by what it carried between the two reads; 1% of a cumulative
// counter is minutes of traffic on a link read every minute, while a
// port that reports 0 against its peer's millions, or counts another
// port's traffic, is far beyond it.
const DefaultTolerance = 0.01

// MinDisagreement is the smallest difference in bytes between the two
// ends that is ever reported, whatever the tolerance: perfquery's own
// queries cross the links while the ports are read, and after counters
// are cleared they are most of the traffic (on ibsim's k = 4 tree the
// ends differ by up to 17 KB out of 68 KB).
const MinDisagreement = 64 << 10

// PerfqueryOptions says how ReadPerfqueryWith maps a file's port
// counters to directed links. The zero value is ReadPerfquery's
// behaviour under fattree.PortDirection.
type PerfqueryOptions struct {
	// Direction maps a port's receive and transmit counters to directed
	// links (fattree.PortDirection, the zero value, is the physical one).
	// Source TreeScope always uses fattree.TreeScopeDirection.
	Direction fattree.Direction
	// Source is the end whose counters a link gets when both ends were
	// read (Transmit, the zero value, Receive, Max, TreeScope).
	Source CounterSource
	// Tolerance is the relative disagreement between the bytes the two
	// ends counted that is accepted without a warning:
	// |transmit − receive| ≤ Tolerance × max(transmit, receive), or
	// below MinDisagreement bytes. 0 means DefaultTolerance; a negative
	// value reports every difference of MinDisagreement or more.
	// Packets are not compared: they follow the bytes on real ports, and
	// ibsim credits received packets to arbitrary ports (see
	// testdata/regenerate.sh).
	Tolerance float64
}

// direction is the direction o really uses.
func (o PerfqueryOptions) direction() fattree.Direction {
	if o.Source == TreeScope {
		return fattree.TreeScopeDirection
	}
	return o.Direction
}

// ResetRule is the rule fattree.DeltasWith should apply to snapshots read
// with o: ResetToZero for Source TreeScope (TreeScope's counters.js,
// fix(), sets a negative delta to 0), ResetFromZero otherwise.
func (o PerfqueryOptions) ResetRule() fattree.ResetRule {
	if o.Source == TreeScope {
		return fattree.ResetToZero
	}
	return fattree.ResetFromZero
}

// check reports an option out of range, for function fn's error.
func (o PerfqueryOptions) check(fn string) error {
	if d := o.direction(); d != fattree.PortDirection && d != fattree.TreeScopeDirection {
		return fmt.Errorf("infiniband: %s: unknown direction %v", fn, d)
	}
	if o.Source > TreeScope {
		return fmt.Errorf("infiniband: %s: unknown counter source %v", fn, o.Source)
	}
	if math.IsNaN(o.Tolerance) {
		return fmt.Errorf("infiniband: %s: tolerance is NaN", fn)
	}
	return nil
}

// disagree reports whether a and b differ beyond the tolerance tol (the
// option as given).
func disagree(a, b uint64, tol float64) bool {
	lo, hi := min(a, b), max(a, b)
	if hi-lo < MinDisagreement {
		return false
	}
	if tol == 0 {
		tol = DefaultTolerance
	}
	if tol < 0 {
		return true
	}
	return float64(hi-lo) > tol*float64(hi)
}

// portReading is one end's reading of a directed link: its counters,
// and the port's first block and number for messages.
type portReading struct {
	v     fattree.LinkCounters
	block *pqBlock
	port  int
	ok    bool
}

// label names the port in messages: "Lid 12 port 1".
func (r portReading) label() string { return fmt.Sprintf("%s port %d", r.block.label, r.port) }

// linkEnds is what a file says about each directed link, from both ends.
type linkEnds struct {
	tx, rx []portReading // by link id: the transmitting and the receiving port
}

// choose picks each link's counters by opt.Source, warning (file:line)
// about links whose ends disagree beyond opt.Tolerance (the first
// maxListed in full, then one summary), links without counters, and, for
// TreeScope, transmit counters it leaves out.
func (e *linkEnds) choose(f *fattree.Fabric, file string, opt PerfqueryOptions, warns []Warning) ([]fattree.LinkCounters, []Warning) {
	links := make([]fattree.LinkCounters, 0, len(f.Links))
	var missing, txOnly, more summary
	shown := 0
	for id := range f.Links {
		tx, rx := e.tx[id], e.rx[id]
		if tx.ok && rx.ok && disagree(tx.v.Bytes, rx.v.Bytes, opt.Tolerance) {
			if shown < maxListed {
				shown++
				warns = append(warns, Warning{File: file, Line: tx.v.Line, Msg: fmt.Sprintf(
					"%s: its two ends disagree: %d bytes transmitted (%s, %s:%d), %d bytes received (%s, %s:%d); using %s",
					linkName(f, id), tx.v.Bytes, tx.label(), file, tx.v.Line, rx.v.Bytes, rx.label(), file, rx.v.Line, opt.Source)})
			} else {
				more.add(tx.v.Line, linkName(f, id))
			}
		}
		var v fattree.LinkCounters
		switch {
		case !tx.ok && !rx.ok:
			missing.add(0, linkName(f, id))
			continue
		case opt.Source == TreeScope && !rx.ok:
			txOnly.add(tx.v.Line, linkName(f, id))
			continue
		case !rx.ok || opt.Source == Transmit && tx.ok:
			v = tx.v
		case !tx.ok || opt.Source == Receive || opt.Source == TreeScope:
			v = rx.v
			v.XmitWait = tx.v.XmitWait // the sender's, 0 when it was not read
		default: // Max, both ends read
			v = tx.v
			if rx.v.Bytes > tx.v.Bytes {
				v.Line = rx.v.Line
			}
			v.Bytes = max(tx.v.Bytes, rx.v.Bytes)
			v.Packets = max(tx.v.Packets, rx.v.Packets)
			v.Errors = max(tx.v.Errors, rx.v.Errors)
			if tx.v.Bits != rx.v.Bits {
				v.Bits = 64
			}
		}
		links = append(links, v)
	}
	if more.n > 0 {
		warns = append(warns, Warning{File: file, Line: more.line, Msg: fmt.Sprintf("%d more links whose two ends disagree (using %s): %s", more.n, opt.Source, more.list())})
	}
	if txOnly.n > 0 {
		warns = append(warns, Warning{File: file, Line: txOnly.line, Msg: fmt.Sprintf("%d directed links have transmit counters only, which TreeScope does not read (its receive counters only): left out: %s", txOnly.n, txOnly.list())})
	}
	if missing.n > 0 {
		warns = append(warns, Warning{File: file, Msg: fmt.Sprintf("missing port: %d directed links have no counters in the file (neither end's port was read): %s", missing.n, missing.list())})
	}
	return links, warns
}
