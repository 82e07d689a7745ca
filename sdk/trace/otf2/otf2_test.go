package otf2

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"superstep/sdk/trace"
)

const pingpong = "../../../datasets/data/otf2-pingpong/traces.otf2"

// TestPingPong checks the real Score-P ping-pong trace against values
// counted in otf2-print's output.
func TestPingPong(t *testing.T) {
	tr, err := Read(context.Background(), pingpong)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tr.Processes) != 2 {
		t.Fatalf("processes %d, want 2", len(tr.Processes))
	}
	for i, p := range tr.Processes {
		want := trace.Process{Name: "Master thread", Rank: int32(i), Host: "quartz10"}
		if p != want {
			t.Errorf("process %d = %+v, want %+v", i, p, want)
		}
	}
	if tr.TicksPerSecond != 2095197216 || tr.OffsetTicks != 7397466976977800 {
		t.Errorf("clock %d ticks/s offset %d", tr.TicksPerSecond, tr.OffsetTicks)
	}
	// 418,210,708 ticks = 0.19960446 s.
	if tr.DurationNS != 199604460 {
		t.Errorf("duration %d ns, want 199604460", tr.DurationNS)
	}
	if len(tr.Regions) != 42 {
		t.Errorf("region intervals %d, want 42", len(tr.Regions))
	}
	if len(tr.Unmatched) != 0 {
		t.Errorf("unmatched: %v", tr.Unmatched)
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %q, want none", tr.Warnings)
	}
	if len(tr.Messages) != 16 {
		t.Fatalf("messages %d, want 16", len(tr.Messages))
	}
	var bytes [2]int64
	var transfer [2]int64
	var sizes [2][]int64
	for _, m := range tr.Messages {
		if m.Src == m.Dst || tr.Comms[m.Comm] != "MPI_COMM_WORLD" || m.Kind != trace.Send {
			t.Errorf("message %+v", m)
		}
		wantTag := int32(10)
		if m.Src == 1 {
			wantTag = 20
		}
		if m.Tag != wantTag {
			t.Errorf("message %d→%d tag %d, want %d", m.Src, m.Dst, m.Tag, wantTag)
		}
		bytes[m.Src] += m.Bytes
		transfer[m.Src] += m.TransferNS()
		sizes[m.Src] = append(sizes[m.Src], m.Bytes)
	}
	for s := 0; s < 2; s++ {
		for k, b := range sizes[s] {
			if b != 16384<<k {
				t.Errorf("from %d message %d: %d B, want %d", s, k, b, 16384<<k)
			}
		}
		if bytes[s] != 4177920 {
			t.Errorf("from %d: %d B, want 4,177,920", s, bytes[s])
		}
	}
	if got := tr.Messages[0].SendNS; got != 193672585 {
		t.Errorf("first send at %d ns, want 193,672,585", got)
	}
	// Σ(receive − send) = 3.466279 ms, ± 1 ns per message.
	if sum := transfer[0] + transfer[1]; sum < 3466279-16 || sum > 3466279+16 {
		t.Errorf("Σ transfer %d ns, want 3,466,279 ± 16", sum)
	}
	// Bandwidth 0→1 2.395 GB/s, 1→0 2.426 GB/s, ± 0.1 %.
	for s, want := range []float64{2.395, 2.426} {
		bw := float64(bytes[s]) / float64(transfer[s])
		if bw < want*0.999 || bw > want*1.001 {
			t.Errorf("bandwidth from %d: %.4f GB/s, want %.3f", s, bw, want)
		}
	}
	// 120 events, 60 each: 42 intervals (84 enter/leave) + 32 message
	// events + 4 program begin/end.
	per := [2]int{}
	for _, r := range tr.Regions {
		per[r.Process]++
	}
	if per[0] != 21 || per[1] != 21 {
		t.Errorf("intervals per process %v, want 21 each", per)
	}
}

func TestReadInfo(t *testing.T) {
	in, err := ReadInfo(os.DirFS("../../../datasets/data/otf2-pingpong"), "traces.otf2")
	if err != nil {
		t.Fatal(err)
	}
	if in.EventChunkSize != 1<<20 || in.DefChunkSize != 256<<10 || in.Locations != 2 ||
		in.GlobalDefs != 533 || in.Creator != "Score-P 7.1" || in.TraceFormat != 2 || in.Version != [3]uint8{2, 3, 0} {
		t.Errorf("info %+v", in)
	}
	if len(in.Properties) != 5 || in.Properties[0] != [2]string{"OTF2::MPI_COMMUNICATION_COMPLETE", "true"} {
		t.Errorf("properties %v", in.Properties)
	}
}

// pingpongFS loads the ping-pong archive into memory.
func pingpongFS(t testing.TB) fstest.MapFS {
	m := fstest.MapFS{}
	for _, f := range []string{"traces.otf2", "traces.def", "traces/0.def", "traces/0.evt", "traces/1.def", "traces/1.evt"} {
		b, err := os.ReadFile(path.Join("../../../datasets/data/otf2-pingpong", f))
		if err != nil {
			t.Fatal(err)
		}
		m[f] = &fstest.MapFile{Data: b}
	}
	return m
}

// TestCorrupt checks truncated and corrupt files give the file, the
// offset and what was expected. Offsets were counted in xxd dumps.
func TestCorrupt(t *testing.T) {
	cases := []struct {
		name string
		edit func(m fstest.MapFS)
		want string
	}{
		{"anchor magic", func(m fstest.MapFS) { m["traces.otf2"].Data[2] = 'X' },
			`traces.otf2: byte 2: expected the magic "OTF2", found "XTF2"`},
		{"anchor truncated", func(m fstest.MapFS) { m["traces.otf2"].Data = m["traces.otf2"].Data[:20] },
			"traces.otf2: byte 20: expected the definition chunk size, found end of file"},
		{"compressed", func(m fstest.MapFS) { m["traces.otf2"].Data[29] = 2 },
			"traces.otf2: byte 29: compression 2: only uncompressed archives (1) are read"},
		{"evt truncated before a record length", func(m fstest.MapFS) { m["traces/0.evt"].Data = m["traces/0.evt"].Data[:0x94] },
			"traces/0.evt: byte 148: expected a record length, found end of file"},
		{"evt truncated in a record", func(m fstest.MapFS) { m["traces/0.evt"].Data = m["traces/0.evt"].Data[:0x98] },
			"traces/0.evt: byte 148: record length 8 runs past the end of the file (3 bytes left)"},
		{"evt truncated after the header", func(m fstest.MapFS) { m["traces/0.evt"].Data = m["traces/0.evt"].Data[:18] },
			"traces/0.evt: byte 18: expected an event record type, found end of file"},
		{"evt bad chunk header", func(m fstest.MapFS) { m["traces/1.evt"].Data[0] = 7 },
			"traces/1.evt: byte 0: expected a chunk header (0x03), found 0x07"},
		{"evt bad endianness", func(m fstest.MapFS) { m["traces/1.evt"].Data[1] = 7 },
			"traces/1.evt: byte 1: expected an endianness byte (0x42 or 0x23), found 0x07"},
		{"evt record too long", func(m fstest.MapFS) { m["traces/0.evt"].Data[0x94] = 0xFF },
			"traces/0.evt: byte 148: record length 4611688260417093889 runs past the end of the file"},
		{"evt end-of-chunk marker without a next chunk", func(m fstest.MapFS) { m["traces/0.evt"].Data[0x93] = 0 },
			"traces/0.evt: byte 884: expected another chunk after the end-of-chunk marker at byte 147, found end of file"},
		{"evt bad compressed int", func(m fstest.MapFS) { m["traces/0.evt"].Data[0x34] = 9 },
			"traces/0.evt: byte 52: expected a region id (a compressed integer), found length byte 9"},
		{"evt peer rank out of range", func(m fstest.MapFS) { m["traces/0.evt"].Data[0x96] = 7 },
			`traces/0.evt: byte 147: peer rank 7 is not a process of communicator "MPI_COMM_WORLD" (2 members)`},
		{"leave without enter", func(m fstest.MapFS) { m["traces/0.evt"].Data[0x33] = evLeave },
			"traces/0.evt: byte 51: leave on process 0"},
		{"def truncated", func(m fstest.MapFS) { m["traces.def"].Data = m["traces.def"].Data[:30] },
			"traces.def: byte 19: record length 18 runs past the end of the file"},
		{"local def truncated", func(m fstest.MapFS) { m["traces/1.def"].Data = m["traces/1.def"].Data[:40] },
			"traces/1.def: byte 19: record length 52 runs past the end of the file"},
		{"missing global defs", func(m fstest.MapFS) { delete(m, "traces.def") },
			"otf2: open traces.def: file does not exist"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := pingpongFS(t)
			c.edit(m)
			_, err := ReadFS(context.Background(), m, "traces.otf2")
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q\nwant    %q", err, c.want)
			}
		})
	}
}

func TestParseErrorAs(t *testing.T) {
	m := pingpongFS(t)
	m["traces/0.evt"].Data = m["traces/0.evt"].Data[:0x94]
	_, err := ReadFS(context.Background(), m, "traces.otf2")
	var fe *ParseError
	if !errors.As(err, &fe) || fe.File != "traces/0.evt" || !fe.Binary || fe.Offset != 148 {
		t.Fatalf("error %v, want a ParseError at traces/0.evt byte 148", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadFS(ctx, pingpongFS(t), "traces.otf2"); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// FuzzRead mutates an event file and a definitions file of the ping-pong
// trace: any input gives a trace or an error, never a panic.
func FuzzRead(f *testing.F) {
	m := pingpongFS(f)
	f.Add(m["traces/0.evt"].Data, m["traces.def"].Data)
	f.Add(m["traces/1.evt"].Data, m["traces/1.def"].Data)
	// Unknown records: an event type 200 after a timestamp and a global
	// definition of type 99 (TestUnknownRecords).
	evt := m["traces/0.evt"].Data
	f.Add(insert(evt, 138, slices.Concat(evt[138:147], []byte{200, 3, 0xAA, 0xBB, 0xCC})...), insert(m["traces.def"].Data, 38, 99, 2, 1, 2))
	f.Fuzz(func(t *testing.T, evt, def []byte) {
		m := pingpongFS(t)
		m["traces/0.evt"] = &fstest.MapFile{Data: evt}
		if len(def) > 0 && def[len(def)-1]&1 == 1 {
			m["traces.def"] = &fstest.MapFile{Data: def}
		} else {
			m["traces/1.def"] = &fstest.MapFile{Data: def}
		}
		tr, err := ReadFS(context.Background(), m, "traces.otf2")
		if err == nil {
			if verr := tr.Validate(); verr != nil {
				t.Fatalf("trace read without error is invalid: %v", verr)
			}
		}
	})
}

var _ fs.FS = fstest.MapFS{}
