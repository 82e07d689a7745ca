// Package trace holds point-to-point message traces of real MPI runs:
// processes (with their rank and host), messages matched send to receive,
// and the regions (function intervals) each process was in, the timeline's
// background. It is the trace side of the one data model (DESIGN.md
// principle 4): the same Arrow tables and Parquet files as profiles, and a
// conversion into profile frames so the trend, chord and dashboard views
// show MPI runs too.
//
// Readers of real formats live in sub-packages (otf2, otf, ompimon); they
// feed a Builder, which matches sends with receives. Pictures live in
// display and the sdk facade: this package knows no display.
//
// Times are int64 nanoseconds since the trace's start (the global offset
// of its clock); TicksPerSecond and OffsetTicks keep the source clock.
package trace

import (
	"fmt"
	"time"

	"superstep/display"
)

// Process is one lane of the trace: an MPI process (an OTF2 location).
type Process struct {
	// Name is the process's name in the trace ("Master thread" of rank 3,
	// "Process 3"); Rank its rank in MPI_COMM_WORLD, or -1 when unknown.
	Name string
	Rank int32
	// Host is the node the process ran on (the OTF2 system tree), "" when
	// the trace does not say.
	Host string
}

// Kind says how a message was sent: a blocking send (MPI_Send and its
// relatives) or a non-blocking one (MPI_Isend), whose time is the time the
// send was posted.
type Kind uint8

// The kinds of send.
const (
	Send Kind = iota
	Isend
)

// String is "send" or "isend", the messages table's kind column.
func (k Kind) String() string {
	switch k {
	case Send:
		return "send"
	case Isend:
		return "isend"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// parseKind is the inverse of String.
func parseKind(s string) (Kind, bool) {
	switch s {
	case "send":
		return Send, true
	case "isend":
		return Isend, true
	}
	return 0, false
}

// Message is one matched point-to-point message.
type Message struct {
	// Src and Dst are process indices (into Trace.Processes).
	Src, Dst int32
	// SendNS is when the send started (an Isend: when it was posted),
	// RecvNS when the receive completed (an Irecv: its completion event),
	// both in ns since the trace's start.
	SendNS, RecvNS int64
	// Bytes is the length the sender gave.
	Bytes int64
	// Tag is the MPI tag, Comm the communicator (an index into Trace.Comms).
	Tag  int32
	Comm int32
	Kind Kind
}

// TransferNS is the time from send to receive. It is negative when the
// clocks of the two processes disagree.
func (m Message) TransferNS() int64 { return m.RecvNS - m.SendNS }

// Region is one interval a process spent in a region (function): the
// timeline's background.
type Region struct {
	Process          int32
	EnterNS, LeaveNS int64
	// Region is an index into Trace.RegionNames; Depth the nesting depth,
	// 0 for the outermost region.
	Region int32
	Depth  int32
}

// Side says which half of a message an unmatched event was.
type Side uint8

// The halves of a message.
const (
	SendSide Side = iota
	RecvSide
)

// String is "send" or "receive".
func (s Side) String() string {
	if s == SendSide {
		return "send"
	}
	return "receive"
}

// Unmatched is a send without its receive or a receive without its send.
// Traces cut short (a process killed, a buffer flushed too late) have
// them; they are listed here and never drawn as messages.
type Unmatched struct {
	Side Side
	// Process is where the event happened, Peer the other side as the event
	// names it (the destination of a send, the source of a receive).
	Process, Peer int32
	TimeNS        int64
	Bytes         int64
	Tag, Comm     int32
}

// String describes the event: "send 0→3 at 1.000000000 s, 1000 B, tag 1,
// MPI_COMM_WORLD with no receive".
func (u Unmatched) String() string {
	src, dst, what := u.Process, u.Peer, "no receive"
	if u.Side == RecvSide {
		src, dst, what = u.Peer, u.Process, "no send"
	}
	return fmt.Sprintf("%s %d→%d at %s s, %d B, tag %d, comm %d with %s",
		u.Side, src, dst, formatSeconds(u.TimeNS), u.Bytes, u.Tag, u.Comm, what)
}

// Trace is a message trace: its processes, the matched messages, the
// regions, and what could not be matched.
type Trace struct {
	// Name says where the trace came from (a file name).
	Name      string
	Processes []Process
	// Messages are ordered by sender, then in the order the sender issued
	// them.
	Messages []Message
	// Regions are ordered by process, then by enter time.
	Regions     []Region
	RegionNames []string
	// Comms names the communicators messages refer to.
	Comms []string
	// TicksPerSecond is the resolution of the source clock and OffsetTicks
	// the tick that is time 0; 0 and 0 when unknown (a generated trace).
	TicksPerSecond uint64
	OffsetTicks    int64
	// DurationNS is the length of the trace (the last event, or the length
	// the source declares).
	DurationNS int64
	// Unmatched lists the sends and receives without a partner, in the
	// order of their processes, then time.
	Unmatched []Unmatched
	// Warnings name what the reader read but did not use, or doubted,
	// each "file:line: …" (see Warnings.Add: a few of each kind, then a
	// count). A trace with warnings is still whole for what it holds.
	Warnings []string
}

// Duration is DurationNS as a time.Duration.
func (t *Trace) Duration() time.Duration { return time.Duration(t.DurationNS) }

// Validate checks that every index points where it should: messages and
// regions name existing processes, regions and communicators.
func (t *Trace) Validate() error {
	n := int32(len(t.Processes))
	for i, m := range t.Messages {
		if m.Src < 0 || m.Src >= n || m.Dst < 0 || m.Dst >= n {
			return fmt.Errorf("trace %s: message %d: process %d→%d out of range (%d processes)", t.Name, i, m.Src, m.Dst, n)
		}
		if m.Comm < 0 || int(m.Comm) >= len(t.Comms) {
			return fmt.Errorf("trace %s: message %d: communicator %d out of range (%d communicators)", t.Name, i, m.Comm, len(t.Comms))
		}
		if m.Kind > Isend {
			return fmt.Errorf("trace %s: message %d: unknown kind %d", t.Name, i, m.Kind)
		}
	}
	for i, r := range t.Regions {
		if r.Process < 0 || r.Process >= n {
			return fmt.Errorf("trace %s: region interval %d: process %d out of range (%d processes)", t.Name, i, r.Process, n)
		}
		if r.Region < 0 || int(r.Region) >= len(t.RegionNames) {
			return fmt.Errorf("trace %s: region interval %d: region %d out of range (%d regions)", t.Name, i, r.Region, len(t.RegionNames))
		}
		if r.LeaveNS < r.EnterNS {
			return fmt.Errorf("trace %s: region interval %d: leaves at %d ns before it enters at %d ns", t.Name, i, r.LeaveNS, r.EnterNS)
		}
	}
	return nil
}

// String summarises the trace: "pingpong: 2 processes, 16 messages
// (4.2 MB), 42 region intervals, 0.200 s".
func (t *Trace) String() string {
	var bytes int64
	for _, m := range t.Messages {
		bytes += m.Bytes
	}
	s := fmt.Sprintf("%s: %d processes, %d messages (%s), %d region intervals, %s s",
		t.Name, len(t.Processes), len(t.Messages), display.FormatBytes(float64(bytes)), len(t.Regions), formatSeconds(t.DurationNS))
	if len(t.Unmatched) > 0 {
		s += fmt.Sprintf(", %d unmatched", len(t.Unmatched))
	}
	return s
}

// formatSeconds prints ns as seconds with nanosecond digits.
func formatSeconds(ns int64) string {
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	return fmt.Sprintf("%s%d.%09d", sign, ns/1e9, ns%1e9)
}
