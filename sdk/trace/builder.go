package trace

import (
	"context"
	"fmt"
	"slices"
)

// Builder collects a trace's events and matches sends with receives. A
// reader adds the processes, then feeds each process's events in that
// process's own time order; events of different processes may interleave
// in any way (a reader may feed one process after another).
//
// Matching follows MPI's non-overtaking rule: per (communicator, sender,
// receiver, tag) the n-th send matches the n-th receive, receives ordered
// as they were posted (IrecvPosted) or, for blocking receives, as they
// happened. A send's time is when it started (an Isend: when it was
// posted), a receive's time when it completed (an Irecv: its completion
// event). Sends and receives left over are listed in Trace.Unmatched.
//
// The methods return an error for an index out of range or a region left
// that was not entered; a reader wraps it with the file and offset.
// Builder is not safe for concurrent use.
type Builder struct {
	name      string
	procs     []Process
	comms     []string
	commIndex map[string]int32
	regions   []string
	regIndex  map[string]int32

	sends, recvs []event
	seq          int64
	posted       []map[uint64]int64 // per process: request id → post sequence

	stacks    [][]openRegion
	intervals []Region

	ticksPerSecond uint64
	offsetTicks    int64
	durationNS     int64
	lastNS         int64
}

// event is one send or receive as fed: proc is where it happened, peer the
// other side as the event names it.
type event struct {
	proc, peer int32
	tag, comm  int32
	ns         int64
	bytes      int64
	seq        int64
	kind       Kind
}

type openRegion struct {
	region int32
	enter  int64
}

// NewBuilder starts an empty trace with the given name.
func NewBuilder(name string) *Builder {
	return &Builder{name: name, commIndex: map[string]int32{}, regIndex: map[string]int32{}}
}

// AddProcess adds a lane and returns its index.
func (b *Builder) AddProcess(p Process) int32 {
	b.procs = append(b.procs, p)
	b.stacks = append(b.stacks, nil)
	b.posted = append(b.posted, nil)
	return int32(len(b.procs) - 1)
}

// NumProcesses is the number of processes added so far.
func (b *Builder) NumProcesses() int { return len(b.procs) }

// Comm returns the index of the communicator with this name, adding it the
// first time.
func (b *Builder) Comm(name string) int32 {
	if i, ok := b.commIndex[name]; ok {
		return i
	}
	i := int32(len(b.comms))
	b.comms = append(b.comms, name)
	b.commIndex[name] = i
	return i
}

// Region returns the index of the region with this name, adding it the
// first time.
func (b *Builder) Region(name string) int32 {
	if i, ok := b.regIndex[name]; ok {
		return i
	}
	i := int32(len(b.regions))
	b.regions = append(b.regions, name)
	b.regIndex[name] = i
	return i
}

// Reserve makes room for this many more sends and receives, so a reader
// that knows its counts feeds millions of events without regrowing.
func (b *Builder) Reserve(sends, recvs int) {
	b.sends = slices.Grow(b.sends, sends)
	b.recvs = slices.Grow(b.recvs, recvs)
}

// ReserveRegions makes room for this many more region intervals (one per
// Leave).
func (b *Builder) ReserveRegions(n int) {
	b.intervals = slices.Grow(b.intervals, n)
}

// SetClock records the source clock: its ticks per second and the tick
// that is time 0.
func (b *Builder) SetClock(ticksPerSecond uint64, offsetTicks int64) {
	b.ticksPerSecond, b.offsetTicks = ticksPerSecond, offsetTicks
}

// SetDuration records the length the source declares; without it the
// trace lasts until its last event.
func (b *Builder) SetDuration(ns int64) { b.durationNS = ns }

func (b *Builder) checkProcess(what string, p int32) error {
	if p < 0 || int(p) >= len(b.procs) {
		return fmt.Errorf("%s: process %d out of range (%d processes)", what, p, len(b.procs))
	}
	return nil
}

func (b *Builder) checkPair(what string, proc, peer, comm int32) error {
	if err := b.checkProcess(what, proc); err != nil {
		return err
	}
	if peer < 0 || int(peer) >= len(b.procs) {
		return fmt.Errorf("%s on process %d: peer process %d out of range (%d processes)", what, proc, peer, len(b.procs))
	}
	if comm < 0 || int(comm) >= len(b.comms) {
		return fmt.Errorf("%s on process %d: communicator %d out of range (%d communicators)", what, proc, comm, len(b.comms))
	}
	return nil
}

func (b *Builder) saw(ns int64) {
	if ns > b.lastNS {
		b.lastNS = ns
	}
}

// Send records that process proc started sending bytes to process dst at
// ns (an Isend: when it was posted).
func (b *Builder) Send(proc int32, ns int64, dst, comm, tag int32, bytes int64, kind Kind) error {
	if err := b.checkPair("send", proc, dst, comm); err != nil {
		return err
	}
	b.seq++
	b.sends = append(b.sends, event{proc: proc, peer: dst, tag: tag, comm: comm, ns: ns, bytes: bytes, seq: b.seq, kind: kind})
	b.saw(ns)
	return nil
}

// Recv records that a blocking receive on process proc of a message from
// process src completed at ns.
func (b *Builder) Recv(proc int32, ns int64, src, comm, tag int32, bytes int64) error {
	if err := b.checkPair("receive", proc, src, comm); err != nil {
		return err
	}
	b.seq++
	b.recvs = append(b.recvs, event{proc: proc, peer: src, tag: tag, comm: comm, ns: ns, bytes: bytes, seq: b.seq})
	b.saw(ns)
	return nil
}

// IrecvPosted records that process proc posted the non-blocking receive
// with this request id; its completion (IrecvCompleted) is matched in the
// order of posting.
func (b *Builder) IrecvPosted(proc int32, request uint64) error {
	if err := b.checkProcess("irecv request", proc); err != nil {
		return err
	}
	if b.posted[proc] == nil {
		b.posted[proc] = map[uint64]int64{}
	}
	b.seq++
	b.posted[proc][request] = b.seq
	return nil
}

// IrecvCompleted records that the non-blocking receive with this request
// id completed at ns with a message from process src. Without an
// IrecvPosted for the request it counts as posted now.
func (b *Builder) IrecvCompleted(proc int32, ns int64, request uint64, src, comm, tag int32, bytes int64) error {
	if err := b.checkPair("irecv", proc, src, comm); err != nil {
		return err
	}
	b.seq++
	seq := b.seq
	if s, ok := b.posted[proc][request]; ok {
		seq = s
		delete(b.posted[proc], request)
	}
	b.recvs = append(b.recvs, event{proc: proc, peer: src, tag: tag, comm: comm, ns: ns, bytes: bytes, seq: seq})
	b.saw(ns)
	return nil
}

// Enter records that process proc entered region at ns.
func (b *Builder) Enter(proc int32, ns int64, region int32) error {
	if err := b.checkProcess("enter", proc); err != nil {
		return err
	}
	if region < 0 || int(region) >= len(b.regions) {
		return fmt.Errorf("enter on process %d: region %d out of range (%d regions)", proc, region, len(b.regions))
	}
	b.stacks[proc] = append(b.stacks[proc], openRegion{region: region, enter: ns})
	b.saw(ns)
	return nil
}

// Leave records that process proc left region at ns; it must be the
// innermost region the process is in.
func (b *Builder) Leave(proc int32, ns int64, region int32) error {
	if err := b.checkProcess("leave", proc); err != nil {
		return err
	}
	st := b.stacks[proc]
	if len(st) == 0 {
		return fmt.Errorf("leave on process %d at %s s: region %s was not entered", proc, formatSeconds(ns), b.regionName(region))
	}
	top := st[len(st)-1]
	if top.region != region {
		return fmt.Errorf("leave on process %d at %s s: leaves region %s, but the innermost region is %s", proc, formatSeconds(ns), b.regionName(region), b.regionName(top.region))
	}
	if ns < top.enter {
		return fmt.Errorf("leave on process %d at %s s: leaves region %s before entering it at %s s (the events are not in time order)",
			proc, formatSeconds(ns), b.regionName(region), formatSeconds(top.enter))
	}
	b.stacks[proc] = st[:len(st)-1]
	b.intervals = append(b.intervals, Region{Process: proc, EnterNS: top.enter, LeaveNS: ns, Region: region, Depth: int32(len(st) - 1)})
	b.saw(ns)
	return nil
}

func (b *Builder) regionName(r int32) string {
	if r >= 0 && int(r) < len(b.regions) {
		return fmt.Sprintf("%q", b.regions[r])
	}
	return fmt.Sprintf("#%d", r)
}

type matchKey struct{ comm, src, dst, tag int32 }

// Finish matches the sends with the receives and returns the trace.
// Regions still open are closed at the end of the trace. The Builder must
// not be used afterwards.
func (b *Builder) Finish(ctx context.Context) (*Trace, error) {
	t := &Trace{
		Name: b.name, Processes: b.procs, RegionNames: b.regions, Comms: b.comms,
		TicksPerSecond: b.ticksPerSecond, OffsetTicks: b.offsetTicks,
		DurationNS: max(b.durationNS, b.lastNS),
	}
	if t.Comms == nil {
		t.Comms = []string{}
	}
	if t.RegionNames == nil {
		t.RegionNames = []string{}
	}
	for p, st := range b.stacks {
		for d := len(st) - 1; d >= 0; d-- {
			b.intervals = append(b.intervals, Region{Process: int32(p), EnterNS: st[d].enter, LeaveNS: t.DurationNS, Region: st[d].region, Depth: int32(d)})
		}
	}
	t.Regions = b.intervals
	slices.SortStableFunc(t.Regions, func(x, y Region) int {
		if x.Process != y.Process {
			return int(x.Process - y.Process)
		}
		if x.EnterNS != y.EnterNS {
			if x.EnterNS < y.EnterNS {
				return -1
			}
			return 1
		}
		return int(x.Depth - y.Depth)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := b.match(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// match pairs sends and receives per key (counting sorts, linear in the
// number of events) and fills t.Messages and t.Unmatched.
func (b *Builder) match(ctx context.Context, t *Trace) error {
	kt := newKeyTable(len(b.procs))
	sendKey := make([]int32, len(b.sends))
	for i, e := range b.sends {
		sendKey[i] = kt.id(matchKey{e.comm, e.proc, e.peer, e.tag})
		if i&0xffff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	recvKey := make([]int32, len(b.recvs))
	for i, e := range b.recvs {
		recvKey[i] = kt.id(matchKey{e.comm, e.peer, e.proc, e.tag})
		if i&0xffff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	nk := kt.n
	sendOrder, sendStart := countingOrder(sendKey, nk)
	recvOrder, recvStart := countingOrder(recvKey, nk)
	recvOf := make([]int32, len(b.sends)) // matched receive per send, -1 none
	for i := range recvOf {
		recvOf[i] = -1
	}
	recvMatched := make([]bool, len(b.recvs))
	for k := 0; k < nk; k++ {
		ss := sendOrder[sendStart[k]:sendStart[k+1]]
		rs := recvOrder[recvStart[k]:recvStart[k+1]]
		// Receives in posting order: usually already so.
		if !slices.IsSortedFunc(rs, func(x, y int32) int { return cmpInt64(b.recvs[x].seq, b.recvs[y].seq) }) {
			slices.SortStableFunc(rs, func(x, y int32) int { return cmpInt64(b.recvs[x].seq, b.recvs[y].seq) })
		}
		n := min(len(ss), len(rs))
		for j := 0; j < n; j++ {
			recvOf[ss[j]] = rs[j]
			recvMatched[rs[j]] = true
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Messages by sender, in the sender's order: a stable counting sort of
	// the matched sends by sender.
	np := len(b.procs)
	count := make([]int, np+1)
	matched := 0
	for i, r := range recvOf {
		if r >= 0 {
			count[b.sends[i].proc+1]++
			matched++
		}
	}
	for p := 0; p < np; p++ {
		count[p+1] += count[p]
	}
	t.Messages = make([]Message, matched)
	for i, r := range recvOf {
		if r < 0 {
			continue
		}
		s, rv := &b.sends[i], &b.recvs[r]
		t.Messages[count[s.proc]] = Message{Src: s.proc, Dst: s.peer, SendNS: s.ns, RecvNS: rv.ns, Bytes: s.bytes, Tag: s.tag, Comm: s.comm, Kind: s.kind}
		count[s.proc]++
	}
	for i, r := range recvOf {
		if r < 0 {
			e := b.sends[i]
			t.Unmatched = append(t.Unmatched, Unmatched{Side: SendSide, Process: e.proc, Peer: e.peer, TimeNS: e.ns, Bytes: e.bytes, Tag: e.tag, Comm: e.comm})
		}
	}
	for i, ok := range recvMatched {
		if !ok {
			e := b.recvs[i]
			t.Unmatched = append(t.Unmatched, Unmatched{Side: RecvSide, Process: e.proc, Peer: e.peer, TimeNS: e.ns, Bytes: e.bytes, Tag: e.tag, Comm: e.comm})
		}
	}
	slices.SortStableFunc(t.Unmatched, func(x, y Unmatched) int {
		if x.Process != y.Process {
			return int(x.Process - y.Process)
		}
		return cmpInt64(x.TimeNS, y.TimeNS)
	})
	b.sends, b.recvs = nil, nil
	return nil
}

// keyTable numbers the matching keys densely. With few processes it finds
// a key through a dense (sender, receiver) table and a short list of the
// pair's (communicator, tag) keys, which is several times faster than
// hashing the whole key; otherwise through a map.
type keyTable struct {
	procs int
	pairs [][]pairKey // dense: [src*procs+dst]
	m     map[matchKey]int32
	n     int
}

type pairKey struct {
	comm, tag, id int32
}

func newKeyTable(procs int) *keyTable {
	if procs*procs <= 1<<22 {
		return &keyTable{procs: procs, pairs: make([][]pairKey, procs*procs)}
	}
	return &keyTable{procs: procs, m: map[matchKey]int32{}}
}

func (kt *keyTable) id(k matchKey) int32 {
	if kt.m != nil {
		id, ok := kt.m[k]
		if !ok {
			id = int32(kt.n)
			kt.n++
			kt.m[k] = id
		}
		return id
	}
	list := &kt.pairs[int(k.src)*kt.procs+int(k.dst)]
	for _, pk := range *list {
		if pk.comm == k.comm && pk.tag == k.tag {
			return pk.id
		}
	}
	id := int32(kt.n)
	kt.n++
	*list = append(*list, pairKey{k.comm, k.tag, id})
	return id
}

// countingOrder returns the indices 0..len(key)-1 stably ordered by key,
// and where each key's run starts (start[k]..start[k+1]).
func countingOrder(key []int32, nk int) (order []int32, start []int) {
	start = make([]int, nk+1)
	for _, k := range key {
		start[k+1]++
	}
	for k := 0; k < nk; k++ {
		start[k+1] += start[k]
	}
	next := slices.Clone(start[:nk])
	order = make([]int32, len(key))
	for i, k := range key {
		order[next[k]] = int32(i)
		next[k]++
	}
	return order, start
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
