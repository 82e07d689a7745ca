package otf2

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"testing/fstest"

	"superstep/sdk/trace"
)

// recordTypes walks one file's records the way the OTF2 3.0 reader does
// (events: the ten single-field types of OTF2 1.0/1.1 have no length
// byte) and returns how many records of each type it holds and the byte
// offset of each type's first record. Attribute lists count as type 6.
func recordTypes(t *testing.T, name string, data []byte, chunkSize uint64, events bool) (count, first map[uint8]int) {
	t.Helper()
	count, first = map[uint8]int{}, map[uint8]int{}
	c := &cursor{file: name, b: data}
	c.chunks(chunkSize, func() bool {
		for c.err == nil {
			at := c.pos
			typ := c.u8("a record type")
			switch {
			case c.err != nil:
				return false
			case typ == markEndOfChunk:
				return false
			case typ == markEndOfFile:
				return true
			case events && typ == markTimestamp:
				c.full("a timestamp")
				continue
			}
			if _, ok := first[typ]; !ok {
				first[typ] = at
			}
			count[typ]++
			switch typ {
			case evEnter, evLeave, evMpiIsendComplete, evMpiIrecvRequest, evMpiRequestTest, evMpiRequestCancel,
				evOmpFork, evOmpTaskCreate, evOmpTaskSwitch, evOmpTaskComplete:
				if events {
					c.comp("the record's field")
					continue
				}
			}
			c.pos = c.recordLen()
		}
		return false
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	return count, first
}

// idRange is the set lo..hi plus extra.
func idRange(lo, hi uint8, extra ...uint8) []uint8 {
	out := slices.Clone(extra)
	for i := int(lo); i <= int(hi); i++ {
		out = append(out, uint8(i))
	}
	slices.Sort(out)
	return out
}

func sortedKeys(m map[uint8]int) []uint8 {
	var out []uint8
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

var rePrintEventLine = regexp.MustCompile(`^([A-Z_0-9]+)\s+(\d+)\s+\d+`)

// TestAllRecordTypes reads an archive that libotf2 3.0 wrote with every
// global definition, local definition and event class it offers
// (testdata/gen_all_records.py) and checks:
//   - the archive holds every record type of OTF2 3.0 (event types 10 to
//     88, global definitions 5 to 8 and 10 to 43, local definitions 5, 6
//     and 10 to 43, attribute lists), counted by walking its files;
//   - each location's event count equals otf2-print's;
//   - the processes are the four MPI ranks with their hosts, and every
//     message (blocking, non-blocking, on a sub-communicator, on an
//     inter-communicator, on MPI_COMM_SELF, with local ids mapped) equals
//     otf2-print's view of the archive;
//   - the region intervals are the hand count, named through location 0's
//     mapping table;
//   - the warnings are exactly the three expected summaries (locations not
//     read, collectives and RMA transfers are not messages), none for the
//     known records.
func TestAllRecordTypes(t *testing.T) {
	anchor := generateWith(t, "gen_all_records.py")
	dir := filepath.Dir(anchor)
	fsys := os.DirFS(dir)
	info, err := ReadInfo(fsys, "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if info.Version[0] != 3 {
		t.Fatalf("libotf2 %v wrote the archive, want 3.x", info.Version)
	}

	// Every record type of OTF2 3.0, by walking the files.
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	globalTypes, _ := recordTypes(t, "traces.def", read("traces.def"), info.DefChunkSize, false)
	if got, want := sortedKeys(globalTypes), idRange(defString, defInterComm, 5, 6, 7, 8); !slices.Equal(got, want) {
		t.Errorf("global definition types %v, want %v", got, want)
	}
	localTypes, _ := recordTypes(t, "traces/0.def", read("traces/0.def"), info.DefChunkSize, false)
	if got, want := sortedKeys(localTypes), idRange(localFirstTwin, localLast, localMappingTable, localClockOffset); !slices.Equal(got, want) {
		t.Errorf("local definition types %v, want %v", got, want)
	}
	evTypes := map[uint8]int{}
	var firstColl, firstRMA int
	for loc := range 6 {
		name := fmt.Sprintf("traces/%d.evt", loc)
		n, first := recordTypes(t, name, read(name), info.EventChunkSize, true)
		for k, v := range n {
			evTypes[k] += v
		}
		if loc == 0 {
			firstColl = min(first[evMpiCollectiveEnd], first[evNonBlockingCollectiveComplete])
			firstRMA = min(first[evRmaPut], first[evRmaGet], first[evRmaAtomic])
		}
	}
	if got, want := sortedKeys(evTypes), idRange(evFirst, evLast, markAttrList); !slices.Equal(got, want) {
		t.Errorf("event types %v, want %v", got, want)
	}

	// Event counts per location against otf2-print.
	out, err := exec.Command("otf2-print", anchor).Output()
	if err != nil {
		t.Fatal(err)
	}
	printed := map[string]int{}
	for _, line := range bytes.Split(out, []byte("\n")) {
		if m := rePrintEventLine.FindSubmatch(line); m != nil {
			printed["traces/"+string(m[2])+".evt"]++
		}
	}
	counts, err := CountEvents(fsys, "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != 6 || fmt.Sprint(counts) != fmt.Sprint(printed) {
		t.Errorf("event records per file %v, otf2-print %v", counts, printed)
	}

	tr, err := Read(context.Background(), anchor)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	wantProcs := []trace.Process{
		{Name: "Master thread", Rank: 0, Host: "node0"}, {Name: "Master thread", Rank: 1, Host: "node0"},
		{Name: "Master thread", Rank: 2, Host: "node1"}, {Name: "Master thread", Rank: 3, Host: "node1"},
	}
	if !slices.Equal(tr.Processes, wantProcs) {
		t.Errorf("processes %v, want %v", tr.Processes, wantProcs)
	}
	if len(tr.Unmatched) != 0 {
		t.Errorf("unmatched: %v", tr.Unmatched)
	}
	// Hand count: 3 blocking 0→1, 2 isends 3→2, 1 on SUB_COMM 1→3, 0→3
	// and 2→1 on INTER_COMM, 1 on MPI_COMM_SELF 2→2.
	var got []printedMsg
	for _, m := range tr.Messages {
		got = append(got, printedMsg{src: m.Src, dst: m.Dst, tag: m.Tag, bytes: m.Bytes, sendNS: m.SendNS, recvNS: m.RecvNS, comm: tr.Comms[m.Comm]})
	}
	want := printedMessages(t, anchor)
	slices.SortFunc(got, cmpPrinted)
	slices.SortFunc(want, cmpPrinted)
	if len(got) != 9 || !slices.Equal(got, want) {
		t.Errorf("messages\n%+v\nwant (otf2-print)\n%+v", got, want)
	}
	inter := map[[2]int32]bool{}
	for _, m := range got {
		if m.comm == "INTER_COMM" {
			inter[[2]int32{m.src, m.dst}] = true
		}
	}
	if len(inter) != 2 || !inter[[2]int32{0, 3}] || !inter[[2]int32{2, 1}] {
		t.Errorf("inter-communicator messages %v, want 0→3 and 2→1", inter)
	}

	// Regions: main and MPI_Bcast on each rank, MPI_Put, omp task and 3
	// MPI_Send on rank 0 (local ids), 3 MPI_Recv on rank 1.
	names := map[int32][]string{}
	for _, r := range tr.Regions {
		names[r.Process] = append(names[r.Process], tr.RegionNames[r.Region])
	}
	for p := range names {
		slices.Sort(names[p])
	}
	wantNames := map[int32][]string{
		0: {"MPI_Bcast", "MPI_Put", "MPI_Send", "MPI_Send", "MPI_Send", "main", "omp task"},
		1: {"MPI_Bcast", "MPI_Recv", "MPI_Recv", "MPI_Recv", "main"},
		2: {"MPI_Bcast", "main"},
		3: {"MPI_Bcast", "main"},
	}
	if fmt.Sprint(names) != fmt.Sprint(wantNames) {
		t.Errorf("regions per process %v, want %v", names, wantNames)
	}

	wantWarn := []string{
		"traces.def: 2 of 6 locations are not in the MPI paradigm's COMM_LOCATIONS group and are not read (threads, accelerator streams, metric locations): locations 4, 5",
		fmt.Sprintf("traces/0.evt:%d: 8 MPI collective operations (MpiCollectiveEnd, NonBlockingCollectiveComplete; the first at byte offset %d) are read as regions only, not as messages", firstColl, firstColl),
		fmt.Sprintf("traces/0.evt:%d: 3 one-sided RMA transfers (RmaPut, RmaGet, RmaAtomic; the first at byte offset %d) are not read as messages", firstRMA, firstRMA),
	}
	if !slices.Equal(tr.Warnings, wantWarn) {
		t.Errorf("warnings\n%s\nwant\n%s", join(tr.Warnings), join(wantWarn))
	}
}

func join(s []string) string {
	var b bytes.Buffer
	for _, l := range s {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// insert returns b with ins inserted at offset at.
func insert(b []byte, at int, ins ...byte) []byte {
	return slices.Concat(b[:at:at], ins, b[at:])
}

// TestUnknownRecords patches the ping-pong with records OTF2 3.0 does not
// know: in location 0's events, type 200 (3 bytes) and type 89 (a 300-byte
// record with an 8-byte length), each after a timestamp; in the global
// definitions type 99; in location 1's local definitions type 7 (a global
// definition type, unknown among local ones). The trace reads as before,
// and each record gives a warning with its file and byte offset.
func TestUnknownRecords(t *testing.T) {
	m := pingpongFS(t)
	before, err := ReadFS(context.Background(), m, "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Warnings) != 0 {
		t.Fatalf("the ping-pong gives warnings: %v", before.Warnings)
	}

	evt := m["traces/0.evt"].Data
	// Byte 138 holds the timestamp of the MpiSend at 147 (xxd).
	ts := slices.Clone(evt[138:147])
	long := make([]byte, 0, 310)
	long = append(long, 89, 0xFF)
	long = binary.LittleEndian.AppendUint64(long, 300)
	long = append(long, make([]byte, 300)...)
	patch := slices.Concat(ts, []byte{200, 3, 0xAA, 0xBB, 0xCC}, ts, long)
	m["traces/0.evt"] = &fstest.MapFile{Data: insert(evt, 138, patch...)}
	// Byte 38 of traces.def starts the String record after ClockProperties;
	// byte 18 of traces/1.def its first record, a mapping table.
	m["traces.def"] = &fstest.MapFile{Data: insert(m["traces.def"].Data, 38, 99, 2, 1, 2)}
	m["traces/1.def"] = &fstest.MapFile{Data: insert(m["traces/1.def"].Data, 18, 7, 1, 0)}

	tr, err := ReadFS(context.Background(), m, "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Messages) != len(before.Messages) || !slices.Equal(tr.Messages, before.Messages) ||
		!slices.Equal(tr.Regions, before.Regions) || !slices.Equal(tr.Processes, before.Processes) {
		t.Errorf("the patched trace reads differently: %d messages, %d regions", len(tr.Messages), len(tr.Regions))
	}
	want := []string{
		"traces.def:38: unknown global definition record type 99 at byte offset 38 (4 bytes) skipped",
		"traces/0.evt:147: unknown event record type 200 at byte offset 147 (5 bytes) skipped",
		"traces/0.evt:161: unknown event record type 89 at byte offset 161 (310 bytes) skipped",
		"traces/1.def:18: unknown local definition record type 7 at byte offset 18 (3 bytes) skipped",
	}
	if !slices.Equal(tr.Warnings, want) {
		t.Errorf("warnings\n%s\nwant\n%s", join(tr.Warnings), join(want))
	}

	// A record type the reader does not know with a length running past
	// the file makes the file unreadable: an error, not a warning.
	huge := binary.LittleEndian.AppendUint64([]byte{200, 0xFF}, 1<<40)
	m["traces/0.evt"] = &fstest.MapFile{Data: insert(evt, 138, slices.Concat(ts, huge)...)}
	_, err = ReadFS(context.Background(), m, "traces.otf2")
	if want := "traces/0.evt: byte 148: record length 1099511627776 runs past the end of the file (" +
		strconv.Itoa(len(evt)+9+10-157) + " bytes left)"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}

// allRecordsFS loads testdata/allrecords, an archive gen_all_records.py
// wrote (kept so that fuzzing needs no libotf2), into memory.
func allRecordsFS(t testing.TB) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	names := []string{"traces.otf2", "traces.def"}
	for loc := range 6 {
		names = append(names, fmt.Sprintf("traces/%d.def", loc), fmt.Sprintf("traces/%d.evt", loc))
	}
	for _, f := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "allrecords", f))
		if err != nil {
			t.Fatal(err)
		}
		m[f] = &fstest.MapFile{Data: b}
	}
	return m
}

// TestAllRecordsKept checks the kept copy of the all-records archive reads
// like a fresh one: 9 messages, 16 region intervals, 3 warnings.
func TestAllRecordsKept(t *testing.T) {
	tr, err := ReadFS(context.Background(), allRecordsFS(t), "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Messages) != 9 || len(tr.Regions) != 16 || len(tr.Warnings) != 3 || len(tr.Unmatched) != 0 {
		t.Errorf("%d messages, %d regions, %d warnings, %d unmatched; want 9, 16, 3, 0",
			len(tr.Messages), len(tr.Regions), len(tr.Warnings), len(tr.Unmatched))
	}
}

// FuzzAllRecords mutates location 0's events (every event type of OTF2
// 3.0 with attribute lists), its local definitions (every local type) and
// the global definitions (every global type) of the all-records archive:
// any input gives a trace or an error, never a panic, and a trace read
// without error is valid.
func FuzzAllRecords(f *testing.F) {
	m := allRecordsFS(f)
	f.Add(m["traces/0.evt"].Data, m["traces/0.def"].Data, m["traces.def"].Data)
	f.Add(m["traces/1.evt"].Data, m["traces/1.def"].Data, m["traces.def"].Data)
	f.Add(m["traces/2.evt"].Data, m["traces/0.def"].Data, m["traces.def"].Data)
	// Unknown record types 200 (events), 7 (local) and 99 (global
	// definitions), each the first record after the chunk header.
	f.Add(insert(m["traces/0.evt"].Data, 18, 200, 1, 0), insert(m["traces/0.def"].Data, 18, 7, 1, 0),
		insert(m["traces.def"].Data, 18, 99, 1, 0))
	f.Fuzz(func(t *testing.T, evt, ldef, gdef []byte) {
		m := allRecordsFS(t)
		m["traces/0.evt"] = &fstest.MapFile{Data: evt}
		m["traces/0.def"] = &fstest.MapFile{Data: ldef}
		m["traces.def"] = &fstest.MapFile{Data: gdef}
		tr, err := ReadFS(context.Background(), m, "traces.otf2")
		if err == nil {
			if verr := tr.Validate(); verr != nil {
				t.Fatalf("trace read without error is invalid: %v", verr)
			}
		}
	})
}
