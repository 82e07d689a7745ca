package otf2

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"superstep/sdk/trace"
)

// Event record types (OTF2_Events, as libotf2 3.0 numbers them). Every
// type from evFirst to evLast is known: the reader uses the MPI ones it
// lists below and skips the others by their length (or, for the
// single-field records of OTF2 1.0/1.1, by their one compressed field).
const (
	evFirst                         = 10 // BufferFlush
	evEnter                         = 12
	evLeave                         = 13
	evMpiSend                       = 14
	evMpiIsend                      = 15
	evMpiIsendComplete              = 16
	evMpiIrecvRequest               = 17
	evMpiRecv                       = 18
	evMpiIrecv                      = 19
	evMpiRequestTest                = 20
	evMpiRequestCancel              = 21
	evMpiCollectiveEnd              = 23
	evOmpFork                       = 24
	evOmpTaskCreate                 = 28
	evOmpTaskSwitch                 = 29
	evOmpTaskComplete               = 30
	evRmaPut                        = 46
	evRmaGet                        = 47
	evRmaAtomic                     = 48
	evNonBlockingCollectiveComplete = 86
	evLast                          = 88 // CommDestroy, the last of OTF2 3.0
	checkEveryNRecords              = 1 << 16
	maxPlausibleRegions             = 1 << 31
)

// knownEvent reports whether t is an event record type of OTF2 3.0.
func knownEvent(t uint8) bool { return t >= evFirst && t <= evLast }

// skipped counts the records of one kind a location's decoder skipped
// although they could carry what a user expects to see (collectives and
// one-sided transfers are not messages): readFS sums them over the
// locations into one warning per kind.
type skipped struct {
	n    int
	file string
	at   int // the first one's byte offset
}

func (s *skipped) add(file string, at int) {
	if s.n == 0 {
		s.file, s.at = file, at
	}
	s.n++
}

// event is one decoded event this package keeps; kind is the OTF2 record
// type. a is the global region id (Enter, Leave) or the peer's process
// index (messages).
type event struct {
	ns    int64
	off   int64
	bytes uint64
	req   uint64
	a     int32
	comm  uint32
	tag   uint32
	kind  uint8
}

// clock converts a location's ticks to ns since the global offset.
type clock struct {
	tps, offset uint64
	iv          []clockInterval
	k           int
}

// correct applies the location's clock offsets the way OTF2's reader does
// (linear between offsets, extrapolated from the first and last interval,
// the interpolated part rounded half to even).
func (c *clock) correct(t uint64) uint64 {
	if len(c.iv) == 0 {
		return t
	}
	for c.k < len(c.iv)-1 && t > c.iv[c.k].end {
		c.k++
	}
	iv := &c.iv[c.k]
	var diff float64
	if t >= iv.begin {
		diff = float64(t - iv.begin)
	} else {
		diff = -float64(iv.begin - t)
	}
	return t + uint64(iv.offset+int64(math.RoundToEven(iv.slope*diff)))
}

// ns is (t − offset)·1e9 / tps rounded to the nearest ns, exact in
// 128-bit arithmetic (no float rounding); ok is false when the result
// does not fit an int64.
func (c *clock) ns(t uint64) (int64, bool) {
	neg := t < c.offset
	d := t - c.offset
	if neg {
		d = c.offset - t
	}
	hi, lo := bits.Mul64(d, 1e9)
	if hi >= c.tps {
		return 0, false
	}
	q, r := bits.Div64(hi, lo, c.tps)
	if r >= c.tps-r { // round half away from zero
		q++
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(q), true
	}
	return int64(q), true
}

// locDecoder holds what decoding one location's events needs; everything
// but the clock is shared read-only.
type locDecoder struct {
	proc   int32
	local  *localDefs
	comms  map[uint32]*commInfo
	clk    clock
	events []event
	// warn holds this location's warnings (unknown records); collectives
	// and rma count what readFS summarises over all locations.
	warn             trace.Warnings
	collectives, rma skipped
}

// decodeEvents reads one event file into d.events.
func (d *locDecoder) decodeEvents(ctx context.Context, file string, data []byte, chunkSize uint64) error {
	c := &cursor{file: file, b: data}
	regMap, commMap := d.local.maps[mapRegion], d.local.maps[mapComm]
	var ticks uint64
	haveTime := false
	records := 0
	var ctxErr error
	c.chunks(chunkSize, func() bool {
		for c.err == nil {
			records++
			if records%checkEveryNRecords == 0 {
				if ctxErr = ctx.Err(); ctxErr != nil {
					return true
				}
			}
			at := c.pos
			t := c.u8("an event record type")
			if c.err != nil {
				return false
			}
			switch t {
			case markEndOfChunk:
				return false
			case markEndOfFile:
				return true
			case markTimestamp:
				ticks = c.full("an 8-byte timestamp")
				haveTime = true
				continue
			case markAttrList:
				c.pos = c.recordLen()
				continue
			case evEnter, evLeave:
				id := regMap.get(c.comp("a region id"))
				if c.err != nil {
					return false
				}
				if id >= maxPlausibleRegions {
					c.fail(at, "region id %d out of range", id)
					return false
				}
				e := event{kind: t, off: int64(at), a: int32(id)}
				if !d.stamp(c, &e, ticks, haveTime, at) {
					return false
				}
				d.events = append(d.events, e)
				continue
			case evMpiIsendComplete, evMpiIrecvRequest, evMpiRequestTest, evMpiRequestCancel,
				evOmpFork, evOmpTaskCreate, evOmpTaskSwitch, evOmpTaskComplete:
				req := c.comp("a request id")
				if t == evMpiIrecvRequest && c.err == nil {
					e := event{kind: t, off: int64(at), req: req}
					if !d.stamp(c, &e, ticks, haveTime, at) {
						return false
					}
					d.events = append(d.events, e)
				}
				continue
			}
			end := c.recordLen()
			if c.err != nil {
				return false
			}
			switch t {
			case evMpiSend, evMpiIsend, evMpiRecv, evMpiIrecv:
				saved := c.end
				c.end = end
				peer := c.comp32("the peer's rank")
				cm := commMap.get(uint64(c.comp32("a communicator id")))
				tag := c.comp32("a tag")
				n := c.comp("a message length")
				var req uint64
				if t == evMpiIsend || t == evMpiIrecv {
					req = c.comp("a request id")
				}
				c.end = saved
				if c.err != nil {
					return false
				}
				e := event{kind: t, off: int64(at), bytes: n, req: req, tag: tag, comm: uint32(cm)}
				if cm > math.MaxUint32 {
					c.fail(at, "communicator id %d out of range", cm)
					return false
				}
				e.a = d.peer(c, at, uint32(cm), peer)
				if c.err != nil || !d.stamp(c, &e, ticks, haveTime, at) {
					return false
				}
				d.events = append(d.events, e)
			case evMpiCollectiveEnd, evNonBlockingCollectiveComplete:
				d.collectives.add(file, at)
			case evRmaPut, evRmaGet, evRmaAtomic:
				d.rma.add(file, at)
			default:
				if !knownEvent(t) {
					d.warn.Add(fmt.Sprintf("unknown event record type %d", t), file, at,
						"unknown event record type %d at byte offset %d (%d bytes) skipped", t, at, end-at)
				}
			}
			c.pos = end
		}
		return false
	})
	if ctxErr != nil {
		return ctxErr
	}
	return c.err
}

func (d *locDecoder) stamp(c *cursor, e *event, ticks uint64, haveTime bool, at int) bool {
	if !haveTime {
		c.fail(at, "expected a timestamp before the event, found record type %d", e.kind)
		return false
	}
	ns, ok := d.clk.ns(d.clk.correct(ticks))
	if !ok {
		c.fail(at, "timestamp %d out of range", ticks)
		return false
	}
	e.ns = ns
	return true
}

// peer turns a rank in a communicator into a process index. On an
// inter-communicator the rank is in the remote group: group B's for a
// process of group A, group A's otherwise.
func (d *locDecoder) peer(c *cursor, at int, cm, rank uint32) int32 {
	ci, ok := d.comms[cm]
	if !ok || !ci.ok {
		c.fail(at, "message on communicator %d, which the definitions do not resolve to locations", cm)
		return -1
	}
	if ci.self {
		return d.proc
	}
	procs := ci.procs
	if ci.remote != nil && ci.inA(d.proc) {
		procs = ci.remote
	}
	if uint64(rank) >= uint64(len(procs)) || procs[rank] < 0 {
		c.fail(at, "peer rank %d is not a process of communicator %q (%d members)", rank, ci.name, len(procs))
		return -1
	}
	return procs[rank]
}

// describe is for error messages.
func describe(kind uint8) string {
	switch kind {
	case evEnter:
		return "enter"
	case evLeave:
		return "leave"
	case evMpiSend, evMpiIsend:
		return "send"
	case evMpiRecv, evMpiIrecv:
		return "receive"
	}
	return fmt.Sprintf("record %d", kind)
}
