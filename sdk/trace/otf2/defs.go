package otf2

import (
	"fmt"
	"sort"

	"superstep/sdk/trace"
)

// Global definition record types (OTF2_GlobalDefinitions, as libotf2 3.0
// numbers them): ClockProperties 5, Paradigm 6, ParadigmProperty 7,
// IoParadigm 8, then String 10 to InterComm 43. The reader uses those
// listed here and skips the others by their length.
const (
	defClockProperties = 5
	defIoParadigm      = 8
	defString          = 10
	defSystemTreeNode  = 12
	defLocationGroup   = 13
	defLocation        = 14
	defRegion          = 15
	defGroup           = 18
	defComm            = 22
	defInterComm       = 43 // new in OTF2 3.0, the last of 3.0
)

// Local definition record types: MappingTable 5, ClockOffset 6, then the
// local twins of the global definitions, String 10 to InterComm 43. The
// reader uses the first two; the others belong to archives not yet
// unified, whose events refer to global ids through the mapping tables.
const (
	localMappingTable = 5
	localClockOffset  = 6
	localFirstTwin    = 10
	localLast         = 43
)

// knownGlobalDef and knownLocalDef report whether t is a definition
// record type of OTF2 3.0.
func knownGlobalDef(t uint8) bool {
	return (t >= defClockProperties && t <= defIoParadigm) || (t >= defString && t <= defInterComm)
}

func knownLocalDef(t uint8) bool {
	return t == localMappingTable || t == localClockOffset || (t >= localFirstTwin && t <= localLast)
}

// Mapping types used by the events this package reads.
const (
	mapRegion = 3
	mapComm   = 6
	mapMax    = 15
)

// Group types and paradigms.
const (
	groupCommLocations = 4
	groupCommGroup     = 5
	groupCommSelf      = 6
	paradigmMPI        = 4
)

type location struct {
	id    uint64
	name  uint32
	group uint32
}

type group struct {
	typ      uint8
	paradigm uint8
	members  []uint64
}

// comm is a Comm definition or, with inter set, an InterComm one between
// group and groupB.
type comm struct {
	name, group, groupB uint32
	inter               bool
}

// globalDefs is what this package keeps of the global definitions.
type globalDefs struct {
	tps, offset, length uint64
	haveClock           bool

	strings    map[uint32]string
	nodes      map[uint32][2]uint32 // name, parent
	locGroups  map[uint32]uint32    // system-tree parent
	locations  []location
	regions    map[uint32]uint32 // name
	groups     map[uint32]group
	groupIDs   []uint32 // in file order
	comms      map[uint32]comm
	commsOrder []uint32

	warn trace.Warnings // unknown records
}

func (g *globalDefs) str(ref uint32) string {
	if s, ok := g.strings[ref]; ok {
		return s
	}
	return ""
}

// readGlobalDefs decodes the global definitions file.
func readGlobalDefs(file string, data []byte, chunkSize uint64) (*globalDefs, error) {
	g := &globalDefs{
		strings: map[uint32]string{}, nodes: map[uint32][2]uint32{}, locGroups: map[uint32]uint32{},
		regions: map[uint32]uint32{}, groups: map[uint32]group{}, comms: map[uint32]comm{},
	}
	c := &cursor{file: file, b: data}
	c.definitions(chunkSize, func(t uint8, at int) { g.record(c, t, at) })
	if c.err != nil {
		return nil, c.err
	}
	if !g.haveClock {
		return nil, &ParseError{File: file, Binary: true, Offset: int64(len(data)), Msg: "expected a ClockProperties definition, found none"}
	}
	sort.SliceStable(g.locations, func(i, j int) bool { return g.locations[i].id < g.locations[j].id })
	return g, nil
}

func (g *globalDefs) record(c *cursor, t uint8, at int) {
	switch t {
	case defClockProperties:
		g.tps = c.comp("the timer resolution")
		g.offset = c.comp("the global offset")
		g.length = c.comp("the trace length")
		if c.err == nil && g.tps == 0 {
			c.fail(at, "expected a timer resolution above 0, found 0")
		}
		g.haveClock = true
	case defString:
		self := c.comp32("a string id")
		s := c.cstring("the string")
		g.strings[self] = s
	case defSystemTreeNode:
		self := c.comp32("a system-tree node id")
		name := c.comp32("the node's name")
		c.comp32("the node's class")
		parent := c.comp32("the node's parent")
		g.nodes[self] = [2]uint32{name, parent}
	case defLocationGroup:
		self := c.comp32("a location group id")
		c.comp32("the location group's name")
		c.u8("the location group's type")
		g.locGroups[self] = c.comp32("the location group's system-tree parent")
	case defLocation:
		self := c.comp("a location id")
		name := c.comp32("the location's name")
		c.u8("the location's type")
		c.comp("the location's number of events")
		lg := c.comp32("the location's group")
		g.locations = append(g.locations, location{id: self, name: name, group: lg})
	case defRegion:
		self := c.comp32("a region id")
		g.regions[self] = c.comp32("the region's name")
	case defGroup:
		self := c.comp32("a group id")
		c.comp32("the group's name")
		old := c.u8("the group's type")
		n := c.comp32("the group's number of members")
		if c.err != nil {
			return
		}
		// Every member takes at least one byte: a count beyond the record
		// is corrupt, and checking first keeps allocations bounded.
		if int64(n) > int64(c.end-c.pos) {
			c.fail(at, "group %d declares %d members in a record of %d bytes", self, n, c.end-c.pos)
			return
		}
		gr := group{members: make([]uint64, n)}
		for i := range gr.members {
			gr.members[i] = c.comp("a group member")
		}
		if c.pos < c.end { // fields appended in OTF2 1.2
			gr.typ = c.u8("the group's type")
			gr.paradigm = c.u8("the group's paradigm")
		} else { // OTF2 1.0/1.1 MPI group types
			switch old {
			case 4:
				gr.typ, gr.paradigm = groupCommGroup, paradigmMPI
			case 5:
				gr.typ, gr.paradigm = groupCommSelf, paradigmMPI
			case 6:
				gr.typ, gr.paradigm = groupCommLocations, paradigmMPI
			}
		}
		if _, ok := g.groups[self]; !ok {
			g.groupIDs = append(g.groupIDs, self)
		}
		g.groups[self] = gr
	case defComm:
		self := c.comp32("a communicator id")
		name := c.comp32("the communicator's name")
		grp := c.comp32("the communicator's group")
		if _, ok := g.comms[self]; !ok {
			g.commsOrder = append(g.commsOrder, self)
		}
		g.comms[self] = comm{name: name, group: grp}
	case defInterComm:
		self := c.comp32("an inter-communicator id")
		name := c.comp32("the inter-communicator's name")
		a := c.comp32("the inter-communicator's group A")
		b := c.comp32("the inter-communicator's group B")
		if c.err != nil {
			return
		}
		if _, ok := g.comms[self]; !ok {
			g.commsOrder = append(g.commsOrder, self)
		}
		g.comms[self] = comm{name: name, group: a, groupB: b, inter: true}
	default:
		if !knownGlobalDef(t) {
			g.warn.Add(fmt.Sprintf("unknown definition record type %d", t), c.file, at,
				"unknown global definition record type %d at byte offset %d (%d bytes) skipped", t, at, c.end-at)
		}
	}
}

// idMap maps local ids to global ones.
type idMap struct {
	dense  []uint64
	sparse map[uint64]uint64
}

func (m *idMap) get(id uint64) uint64 {
	if m == nil {
		return id
	}
	if m.sparse != nil {
		if g, ok := m.sparse[id]; ok {
			return g
		}
		return id
	}
	if id < uint64(len(m.dense)) {
		return m.dense[id]
	}
	return id
}

// clockInterval is the linear clock correction between two clock offsets,
// as OTF2's reader applies it: offset + slope·(t − begin), extrapolated
// before the first and after the last interval.
type clockInterval struct {
	begin, end uint64
	offset     int64
	slope      float64
}

type localDefs struct {
	maps   [mapMax]*idMap
	clocks []clockInterval
}

// readLocalDefs decodes a location's local definitions file: mapping
// tables and clock offsets. Record types OTF2 3.0 does not know go to
// warn.
func readLocalDefs(file string, data []byte, chunkSize uint64, warn *trace.Warnings) (*localDefs, error) {
	l := &localDefs{}
	c := &cursor{file: file, b: data}
	var pending *clockInterval
	c.definitions(chunkSize, func(t uint8, at int) {
		switch t {
		case localMappingTable:
			typ := c.u8("the mapping type")
			m := readIDMap(c, at)
			if c.err == nil && int(typ) < mapMax {
				if l.maps[typ] != nil {
					c.fail(at, "a second mapping table of type %d", typ)
				}
				l.maps[typ] = m
			}
		case localClockOffset:
			tm := c.full("the clock offset's time")
			off := int64(c.comp("the clock offset"))
			c.full("the clock offset's standard deviation")
			if c.err != nil {
				break
			}
			if pending != nil {
				if pending.begin >= tm {
					c.fail(at, "clock offsets out of order: time %d after %d", tm, pending.begin)
					break
				}
				pending.end = tm
				pending.slope = float64(off-pending.offset) / float64(tm-pending.begin)
				l.clocks = append(l.clocks, *pending)
			}
			pending = &clockInterval{begin: tm, offset: off}
		default:
			if !knownLocalDef(t) {
				warn.Add(fmt.Sprintf("unknown definition record type %d", t), file, at,
					"unknown local definition record type %d at byte offset %d (%d bytes) skipped", t, at, c.end-at)
			}
		}
	})
	if c.err != nil {
		return nil, c.err
	}
	return l, nil
}

// definitions walks the records of a definitions file: for each, record
// gets its type and offset with the cursor limited to the record's
// announced length (fields must lie inside it); the cursor then moves to
// the record's end, whatever record read.
func (c *cursor) definitions(chunkSize uint64, record func(t uint8, at int)) {
	c.chunks(chunkSize, func() bool {
		for c.err == nil {
			at := c.pos
			t := c.u8("a definition record type")
			if c.err != nil {
				return false
			}
			switch t {
			case markEndOfChunk:
				return false
			case markEndOfFile:
				return true
			}
			end := c.recordLen()
			if c.err != nil {
				return false
			}
			saved := c.end
			c.end = end
			record(t, at)
			c.end = saved
			c.pos = end
		}
		return false
	})
}

func readIDMap(c *cursor, at int) *idMap {
	n := c.comp("the id map's size")
	mode := c.u8("the id map's mode")
	if c.err != nil {
		return nil
	}
	per := uint64(1)
	if mode == 1 {
		per = 2
	} else if mode != 0 {
		c.fail(at, "expected an id map mode (0 dense, 1 sparse), found %d", mode)
		return nil
	}
	if n > uint64(c.end-c.pos)/per {
		c.fail(at, "id map declares %d entries in a record of %d bytes", n, c.end-c.pos)
		return nil
	}
	m := &idMap{}
	if mode == 0 {
		m.dense = make([]uint64, n)
		for i := range m.dense {
			m.dense[i] = c.comp("a global id")
		}
		return m
	}
	m.sparse = make(map[uint64]uint64, n)
	for i := uint64(0); i < n; i++ {
		k := c.comp("a local id")
		m.sparse[k] = c.comp("a global id")
	}
	return m
}

// commInfo resolves a communicator's ranks to process indices.
type commInfo struct {
	self  bool
	procs []int32 // rank in the communicator → process index, -1 none
	name  string
	ok    bool
	// remote is an inter-communicator's group B (procs is group A), and
	// sideA the processes of group A: a peer rank is in the other group.
	remote []int32
	sideA  map[int32]bool
}

// inA reports whether process p is in an inter-communicator's group A.
func (ci *commInfo) inA(p int32) bool { return ci.sideA[p] }

// resolveComms builds, per communicator, the rank → process table: the
// communicator's COMM_GROUP lists indices into its paradigm's
// COMM_LOCATIONS group, whose members are locations.
func (g *globalDefs) resolveComms(procOf map[uint64]int32) map[uint32]*commInfo {
	commLocs := map[uint8][]uint64{}
	for _, id := range g.groupIDs {
		gr := g.groups[id]
		if gr.typ == groupCommLocations {
			if _, ok := commLocs[gr.paradigm]; !ok {
				commLocs[gr.paradigm] = gr.members
			}
		}
	}
	// procs resolves a group to processes; self is true for COMM_SELF.
	procs := func(gr group) (p []int32, self bool) {
		switch gr.typ {
		case groupCommSelf:
			return nil, true
		case groupCommGroup:
			locs := commLocs[gr.paradigm]
			p = make([]int32, len(gr.members))
			for r, m := range gr.members {
				p[r] = -1
				if m < uint64(len(locs)) {
					if i, ok := procOf[locs[m]]; ok {
						p[r] = i
					}
				}
			}
		case groupCommLocations:
			p = make([]int32, len(gr.members))
			for r, m := range gr.members {
				p[r] = -1
				if i, ok := procOf[m]; ok {
					p[r] = i
				}
			}
		}
		return p, false
	}
	out := map[uint32]*commInfo{}
	for _, id := range g.commsOrder {
		cm := g.comms[id]
		ci := &commInfo{name: g.str(cm.name)}
		if ci.name == "" {
			ci.name = fmt.Sprintf("Comm %d", id)
		}
		gr, ok := g.groups[cm.group]
		switch {
		case !ok:
		case cm.inter:
			grB, okB := g.groups[cm.groupB]
			a, selfA := procs(gr)
			b, selfB := procs(grB)
			if okB && a != nil && b != nil && !selfA && !selfB {
				ci.procs, ci.remote, ci.ok = a, b, true
				ci.sideA = make(map[int32]bool, len(a))
				for _, p := range a {
					if p >= 0 {
						ci.sideA[p] = true
					}
				}
			}
		default:
			ci.procs, ci.self = procs(gr)
			ci.ok = ci.self || ci.procs != nil
		}
		out[id] = ci
	}
	return out
}
