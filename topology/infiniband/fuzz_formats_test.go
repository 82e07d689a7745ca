package infiniband

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"superstep/topology/fattree"
)

// fuzzFabrics are the fabrics the fuzz targets read against, inferred
// once from the committed ibnetdiscover outputs.
var fuzzFabrics = sync.OnceValues(func() (*fattree.Fabric, *fattree.Fabric) {
	read := func(name string) *fattree.Fabric {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			panic(err)
		}
		g, _, err := ReadIBNetDiscover(bytes.NewReader(b), name)
		if err != nil {
			panic(err)
		}
		f, _, err := fattree.Infer(g)
		if err != nil {
			panic(err)
		}
		return f
	}
	return read("k4.ibnetdiscover"), read("k8.ibnetdiscover")
})

// head is the first n lines of a committed file, as a seed.
func head(f *testing.F, name string, n int) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[:n]
	}
	return bytes.Join(lines, nil)
}

func checkParseError(t *testing.T, err error) {
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "fuzz" {
		t.Fatalf("error %v is not a *ParseError of file fuzz", err)
	}
}

// FuzzReadLFT: no input panics ReadLFT; errors are *ParseError; every
// route names a port of its switch.
func FuzzReadLFT(f *testing.F) {
	f.Add(head(f, "k8-ftree.dump_fts", 60))
	f.Add(head(f, "k8-minhop.dump_fts", 60))
	f.Add(head(f, "k8-L1-p0-s0.ibroute", 40))
	f.Add(head(f, "k8-L1-p0-s0-n.ibroute", 40))
	k4, _ := fuzzFabrics()
	var b bytes.Buffer
	WriteLFT(&b, k4, fattree.DModK(k4))
	f.Add(b.Bytes()[:2000])
	f.Fuzz(func(t *testing.T, data []byte) {
		_, k8 := fuzzFabrics()
		tab, _, err := ReadLFT(bytes.NewReader(data), "fuzz", k8)
		if err != nil {
			checkParseError(t, err)
			return
		}
		checkTable(t, k8, tab)
	})
}

// checkTable fails when a route of tab names a port its switch lacks.
func checkTable(t *testing.T, f *fattree.Fabric, tab *fattree.Table) {
	for sw, s := range f.Switches {
		for d := range f.Nodes {
			if p := tab.Port(sw, d); p < 0 || p > len(s.Ports) {
				t.Fatalf("switch %d node %d: port %d", sw, d, p)
			}
		}
		for d := range f.Switches {
			if p := tab.SwitchRoute(sw, d); p < 0 || p > len(s.Ports) {
				t.Fatalf("switch %d to switch %d: port %d", sw, d, p)
			}
		}
	}
}

// FuzzReadPerfquery: no input panics ReadPerfqueryWith, under any source
// and direction; errors are *ParseError; each link is listed once, and
// fattree.Deltas accepts the snapshot (widths and values consistent).
func FuzzReadPerfquery(f *testing.F) {
	f.Add(head(f, "k4.perfquery", 70), uint8(0))
	f.Add(head(f, "k4.perfquery-x", 40), uint8(1))
	f.Add([]byte(pqBlockText(1, 1, 1<<32-1, 5, 1<<32-1, 0, 3, 2)), uint8(2))
	// the two ends of node-0's cable (Lid 1 port 1, Lid 2 port 1 on the
	// inferred k4) disagreeing: transmit 0, receive millions, and back
	f.Add([]byte(pqBlockText(1, 1, 0, 5000000, 0, 9, 0, 0)+pqBlockText(2, 1, 7000000, 1, 9, 0, 0, 0)), uint8(3))
	f.Add([]byte(pqBlockText(1, 1, 0, 5000000, 0, 9, 0, 0)+"# Port extended counters: Lid 2 port 1\nPortXmitData:....18000000000000\nPortRcvData:....0\n"), uint8(6))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		k4, _ := fuzzFabrics()
		// low 2 bits: the source; bit 2: the direction; bit 3: a negative tolerance
		opt := PerfqueryOptions{Source: CounterSource(mode & 3), Direction: fattree.Direction(mode >> 2 & 1)}
		if mode&8 != 0 {
			opt.Tolerance = -1
		}
		s, _, err := ReadPerfqueryWith(bytes.NewReader(data), "fuzz", k4, t0, opt)
		if err != nil {
			checkParseError(t, err)
			return
		}
		seen := map[int]bool{}
		for _, lc := range s.Links {
			if lc.Link < 0 || lc.Link >= len(k4.Links) || seen[lc.Link] {
				t.Fatalf("link %d out of range or twice", lc.Link)
			}
			seen[lc.Link] = true
		}
		s2 := s
		s2.Time = t0.Add(time.Minute)
		if _, _, err := fattree.Deltas([]fattree.Snapshot{s, s2}); err != nil {
			t.Fatalf("Deltas: %v", err)
		}
	})
}

// FuzzTreeScopeTopo: no network.topo panics the reader or Infer; cables
// name existing devices and ports.
func FuzzTreeScopeTopo(f *testing.F) {
	k4, _ := fuzzFabrics()
	var b bytes.Buffer
	writeTopo(&b, k4, "k4")
	f.Add(b.Bytes())
	f.Add([]byte(miniTopo))
	f.Add([]byte(`{"nodes": [{"id": "1", "ports": [{"num": 1, "dest_node": "3", "dest_port": 1}]}], "switches": [{"id": "3", "ports": [{"num": 1, "dest_node": "1", "dest_port": 1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, _, _, err := readTopo(bytes.NewReader(data), "fuzz")
		if err != nil {
			checkParseError(t, err)
			return
		}
		for _, c := range g.Cables {
			for _, e := range []fattree.Endpoint{c.A, c.B} {
				if e.Device < 0 || e.Device >= len(g.Devices) || e.Port < 1 || g.Devices[e.Device].Ports > 0 && e.Port > g.Devices[e.Device].Ports {
					t.Fatalf("cable %+v names a missing device or port", c)
				}
			}
		}
		if len(g.Devices) <= 4096 {
			_, _, _ = fattree.Infer(g)
		}
	})
}

// FuzzTreeScopeCount: no .count file panics the reader; links once; the
// snapshot goes through Deltas.
func FuzzTreeScopeCount(f *testing.F) {
	f.Add([]byte("node_id,port_idx,rcv_data\n0000:0000:0000:0010,3,1000\n0000:0000:0000:0001,1,5\n"), uint8(3))
	k4, _ := fuzzFabrics()
	var b bytes.Buffer
	cum := make([][4]int64, len(k4.Links))
	for i := range cum {
		cum[i] = [4]int64{int64(i) * 1000, int64(i), 3, 1}
	}
	w := bufioWriter(&b)
	writeCount(w, k4, cum)
	w.Flush()
	f.Add(b.Bytes(), uint8(0))
	// both ends of a cable with xmit_data and rcv_data that disagree
	guid := func(g uint64) string { return colonGUID(g) }
	n0 := k4.Nodes[0]
	l1 := k4.Switches[n0.Switch]
	f.Add([]byte("node_id,port_idx,xmit_data,rcv_data\n"+guid(n0.GUID)+",1,0,900000\n"+guid(l1.GUID)+","+strconv.Itoa(k4.PhysicalPort(n0.Switch, k4.Links[n0.Down].FromPort))+",800000,5\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		k4, _ := fuzzFabrics()
		opt := PerfqueryOptions{Source: CounterSource(mode & 3), Direction: fattree.Direction(mode >> 2 & 1)}
		s, _, err := readCount(bytes.NewReader(data), "fuzz", k4, deviceIndex(k4), t0, opt, nil)
		if err != nil {
			checkParseError(t, err)
			return
		}
		seen := map[int]bool{}
		for _, lc := range s.Links {
			if lc.Link < 0 || lc.Link >= len(k4.Links) || seen[lc.Link] {
				t.Fatalf("link %d out of range or twice", lc.Link)
			}
			seen[lc.Link] = true
		}
		s2 := s
		s2.Time = t0.Add(time.Minute)
		if _, _, err := fattree.Deltas([]fattree.Snapshot{s, s2}); err != nil && !strings.Contains(err.Error(), "int64 range") {
			t.Fatalf("Deltas: %v", err)
		}
	})
}

// FuzzTreeScopeRTable: no .rtable file panics the reader.
func FuzzTreeScopeRTable(f *testing.F) {
	k4, _ := fuzzFabrics()
	var b bytes.Buffer
	w := bufioWriter(&b)
	writeRTable(w, k4, fattree.DModK(k4))
	w.Flush()
	f.Add(b.Bytes())
	// a table with switches' LIDs: its own on port 0, another's on a port
	sw0 := k4.Switches[0]
	f.Add([]byte("nodeid, lid:portnum\n" + colonGUID(sw0.GUID) + "," + strconv.Itoa(int(sw0.LID)) + ":0," + strconv.Itoa(int(k4.Switches[1].LID)) + ":3," + strconv.Itoa(int(k4.Nodes[0].LID)) + ":1,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k4, _ := fuzzFabrics()
		tab, _, err := readRTable(bytes.NewReader(data), "fuzz", k4, deviceIndex(k4))
		if err != nil {
			checkParseError(t, err)
			return
		}
		checkTable(t, k4, tab)
	})
}

// FuzzSnapshotTime: a name is a snapshot's exactly when it is
// "YYYYmmdd-HHMMSS", alone or with one extension, and its time formats
// back to that name.
func FuzzSnapshotTime(f *testing.F) {
	for _, s := range []string{"20170301-000000", "20170301-000000.perfquery", "20170301-000000.", "20170301-000000.a.b", "20261301-000000", "notes.txt", ".x", "20170301-000000.count"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		tm, ok := snapshotTime(name)
		if !ok {
			return
		}
		base, ext, dot := strings.Cut(name, ".")
		if tm.Format(SnapshotLayout) != base || dot && (ext == "" || strings.Contains(ext, ".")) || tm.Location() != time.UTC {
			t.Fatalf("%q is taken for %v", name, tm)
		}
	})
}

func bufioWriter(b *bytes.Buffer) *bufio.Writer { return bufio.NewWriter(b) }
