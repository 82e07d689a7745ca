package infiniband

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"superstep/topology/fattree"
	"superstep/topology/slurm"
)

// sameFabric compares the exported content of two fabrics.
func sameFabric(t *testing.T, got, want *fattree.Fabric) {
	t.Helper()
	if got.Spec != want.Spec || !reflect.DeepEqual(got.Nodes, want.Nodes) || !reflect.DeepEqual(got.Switches, want.Switches) || !reflect.DeepEqual(got.Links, want.Links) {
		t.Fatalf("fabric differs: spec %v, want %v", got.Spec, want.Spec)
	}
	for sw := range want.Switches {
		for p := 1; p <= len(want.Switches[sw].Ports); p++ {
			if got.PhysicalPort(sw, p) != want.PhysicalPort(sw, p) {
				t.Fatalf("switch %d port %d: physical %d, want %d", sw, p, got.PhysicalPort(sw, p), want.PhysicalPort(sw, p))
			}
		}
	}
}

// TestTreeScopeRoundTrip writes the k = 4 fabric of ibsim with a quarter
// hour of simulated counters, two routing tables and two jobs, and reads
// it back equal.
func TestTreeScopeRoundTrip(t *testing.T) {
	f, _, _ := inferFile(t, "k4.ibnetdiscover")
	ctx := context.Background()
	start := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	jobs := []fattree.Job{
		{ID: "101", Nodes: []int{0, 1, 2, 3}, Pattern: fattree.AllToAll(), BytesPerPair: 1e6, Start: start.Add(90 * time.Second), End: start.Add(10 * time.Minute)},
		{ID: "102", Nodes: []int{4, 9, 13}, Pattern: fattree.Ring(), BytesPerPair: 3.5e6, Start: start, End: start.Add(15 * time.Minute)},
	}
	rows, err := fattree.Simulate(ctx, f, fattree.DModK(f), jobs, start, start.Add(15*time.Minute), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	dmodk, err := fattree.TableOf(ctx, f, fattree.DModK(f))
	if err != nil {
		t.Fatal(err)
	}
	random, err := fattree.TableOf(ctx, f, fattree.Random(f, 7))
	if err != nil {
		t.Fatal(err)
	}
	var tsJobs []TreeScopeJob
	for _, j := range jobs {
		var names []string
		for _, n := range j.Nodes {
			names = append(names, f.Nodes[n].Name)
		}
		tsJobs = append(tsJobs, TreeScopeJob{Job: slurm.Job{ID: j.ID, Name: "app" + j.ID, User: "alice", Partition: "pbatch", State: "CD",
			Start: j.Start, End: j.End, Elapsed: j.End.Sub(j.Start), NNodes: len(names), Nodes: names}, Nodes: j.Nodes})
	}
	want := &TreeScopeData{
		Name: "k4-ibsim", Fabric: f, Start: start, Counters: rows,
		Routings: fattree.Routings{{From: start, Routing: dmodk}, {From: start.Add(7 * time.Minute), Routing: random}},
		Jobs:     tsJobs,
	}
	dir := t.TempDir()
	if err := WriteTreeScope(dir, want); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1+16+2+1+1 { // topo, 16 counts, 2 rtables, listing, slurmqlog
		t.Errorf("%d entries in the directory", len(entries))
	}
	got, warns, err := ReadTreeScope(dir, TreeScopeOptions{Year: 2026})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Fatalf("warnings %v", warns)
	}
	sameFabric(t, got.Fabric, f)
	if got.Name != want.Name || !got.Start.Equal(start) || !reflect.DeepEqual(got.Counters, want.Counters) {
		t.Fatalf("name %q start %v, %d rows (want %d)", got.Name, got.Start, len(got.Counters), len(want.Counters))
	}
	// By column: the same rows, none in Counters.
	col, _, err := ReadTreeScope(dir, TreeScopeOptions{Year: 2026, Columnar: true})
	if err != nil {
		t.Fatal(err)
	}
	if col.Counters != nil || col.Columns == nil || !reflect.DeepEqual(col.Columns.Rows(), want.Counters) {
		t.Fatalf("columnar: %d rows in Counters, columns %v", len(col.Counters), col.Columns != nil)
	}
	if len(got.Routings) != 2 {
		t.Fatalf("%d routings", len(got.Routings))
	}
	for i, tr := range got.Routings {
		if !tr.From.Equal(want.Routings[i].From) {
			t.Fatalf("routing %d from %v", i, tr.From)
		}
		for sw := range f.Switches {
			for d := range f.Nodes {
				if tr.Routing.Port(sw, d) != want.Routings[i].Routing.Port(sw, d) {
					t.Fatalf("routing %d: switch %d node %d: %d, want %d", i, sw, d, tr.Routing.Port(sw, d), want.Routings[i].Routing.Port(sw, d))
				}
			}
		}
	}
	if got.Routings.At(start.Add(8*time.Minute)).Port(0, 0) != random.Port(0, 0) {
		t.Error("the routing at 09:08 is not the second one")
	}
	if len(got.Jobs) != 2 {
		t.Fatalf("%d jobs", len(got.Jobs))
	}
	for i, j := range got.Jobs {
		w := want.Jobs[i]
		j.Job.Line = 0
		if !reflect.DeepEqual(j.Job, w.Job) || !slices.Equal(j.Nodes, w.Nodes) {
			t.Errorf("job %d: %+v %v, want %+v %v", i, j.Job, j.Nodes, w.Job, w.Nodes)
		}
	}
	// the job log has no year: by default, the first counters file's
	got2, _, err := ReadTreeScope(dir, TreeScopeOptions{})
	if err != nil || !got2.Jobs[0].Job.Start.Equal(jobs[0].Start) {
		t.Errorf("default year: %v", err)
	}
}

// TestTreeScopeBuiltRoundTrip: a built fabric with parallel cables and two
// levels, counters only.
func TestTreeScopeBuiltRoundTrip(t *testing.T) {
	f, err := fattree.Build(fattree.Spec{Pods: 1, L1PerPod: 4, NodesPerL1: 4, L2PerPod: 2, CablesL1L2: 6})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	rows, err := fattree.Simulate(context.Background(), f, fattree.DModK(f), []fattree.Job{{ID: "1", Nodes: []int{0, 5, 10, 15}, BytesPerPair: 1e5}}, start, start.Add(3*time.Minute), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteTreeScope(dir, &TreeScopeData{Fabric: f, Start: start, Counters: rows}); err != nil {
		t.Fatal(err)
	}
	got, warns, err := ReadTreeScope(dir, TreeScopeOptions{})
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if got.Fabric.Spec != f.Spec || !reflect.DeepEqual(got.Counters, rows) {
		t.Fatal("counters differ")
	}
}

const miniTopo = `{
 "name": "mini",
 "nodes": [
  {"id": "0000:0000:0000:0001", "desc": "n1 HCA-1", "lid": 1, "ports": [{"num": 1, "dest_node": "0000:0000:0000:0010", "dest_port": 1}]},
  {"id": "0000:0000:0000:0002", "desc": "n2 HCA-1", "lid": 2, "ports": [{"num": 1, "dest_node": "0000:0000:0000:0010", "dest_port": 2}]},
  {"id": "0000:0000:0000:0003", "desc": "n3 HCA-1", "lid": 3, "ports": [{"num": 1, "dest_node": "0000:0000:0000:0011", "dest_port": 1}]},
  {"id": "0000:0000:0000:0004", "desc": "n4 HCA-1", "lid": 4, "ports": [{"num": 1, "dest_node": "0000:0000:0000:0011", "dest_port": 2}]}
 ],
 "switches": [
  {"id": "0000:0000:0000:0010", "desc": "e0", "lid": 16, "lvl": 1, "pod": 0, "idx": 0, "ports": [
   {"num": 1, "dest_node": "0000:0000:0000:0001", "dest_port": 1}, {"num": 2, "dest_node": "0000:0000:0000:0002", "dest_port": 1},
   {"num": 3, "dest_node": "0000:0000:0000:0020", "dest_port": 1}, {"num": 4, "dest_node": "", "dest_port": -1}]},
  {"id": "0000:0000:0000:0011", "desc": "e1", "lid": 17, "lvl": 1, "pod": 0, "idx": 1, "ports": [
   {"num": 1, "dest_node": "0000:0000:0000:0003", "dest_port": 1}, {"num": 2, "dest_node": "0000:0000:0000:0004", "dest_port": 1},
   {"num": 3, "dest_node": "0000:0000:0000:0020", "dest_port": 2}]},
  {"id": "0000:0000:0000:0020", "desc": "a0", "lid": 32, "lvl": 2, "pod": 0, "idx": 0, "ports": [
   {"num": 1, "dest_node": "0000:0000:0000:0010", "dest_port": 3}, {"num": 2, "dest_node": "0000:0000:0000:0011", "dest_port": 3}]}
 ]
}
`

// writeDir writes files (name → content) into a new directory.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, c := range files {
		p := filepath.Join(dir, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTreeScopeOwnFormat reads files as TreeScope's tool writes them:
// rcv_data only (bytes), so every link's value comes from its
// destination's receive counter; the direction test; a reset; unknown
// devices and ports; the job log with an unknown node.
func TestTreeScopeOwnFormat(t *testing.T) {
	count := func(e0p3 string) string {
		return "node_id,port_idx,rcv_data\n" +
			"0000:0000:0000:0010,3," + e0p3 + "\n" + // e0 port 3: receives a0 → e0
			"0000:0000:0000:0001,1,5\n" + // n1 receives e0 → n1
			"0000:0000:0000:0099,1,7\n" + // unknown device
			"0000:0000:0000:0010,4,9\n" // a free port
	}
	dir := writeDir(t, map[string]string{
		"network.topo":           miniTopo,
		"20170823-101500.count":  count("1000"),
		"20170823-101600.count":  count("400"),
		"20170823-101600.rtable": "nodeid, lid:portnum, lid:portnum, ....\n0000:0000:0000:0010,1:1,2:2,3:3,16:0,32:3,\n",
		"notes.txt":              "x",
		"slurmqlog/sqlog.txt": fmt.Sprintf("%7s %6s %4s %5s %2s %14s %7s %2s %s\n", "JOBID", "PART", "NAME", "USER", "ST", "START", "TIME", "N", "NODELIST") +
			fmt.Sprintf("%7s %6s %4s %5s %2s %14s %7s %2s %s\n", "7", "pbatch", "lu", "alice", "CD", "08/23-10:15:10", "0:01:00", "3", "n[1-2],n9"),
		"20170823-101700.unknown1": "",
	})
	for _, d := range []fattree.Direction{fattree.PortDirection, fattree.TreeScopeDirection} {
		data, warns, err := ReadTreeScope(dir, TreeScopeOptions{Direction: d, Year: 2017})
		if err != nil {
			t.Fatal(err)
		}
		f := data.Fabric
		if f.Spec.Levels() != 2 || len(f.Nodes) != 4 || data.Name != "mini" {
			t.Fatalf("fabric %v", f.Spec)
		}
		e0 := switchNamed(t, f, "e0")
		a0 := switchNamed(t, f, "a0")
		// the link a0 → e0 (PortDirection) or e0 → a0 (TreeScope's drawing)
		p := f.ModelPort(e0, 3)
		want := f.Switches[e0].Ports[p-1].In
		other := f.Switches[e0].Ports[p-1].Out
		if d == fattree.TreeScopeDirection {
			want, other = other, want
		}
		if f.Links[f.Switches[e0].Ports[p-1].In].From != a0 {
			t.Fatal("port 3 of e0 is not a0's")
		}
		var got *fattree.CounterRow
		for i, r := range data.Counters {
			if r.Link == want {
				got = &data.Counters[i]
			}
			if r.Link == other {
				t.Errorf("%v: link %d has a row", d, other)
			}
		}
		if got == nil || got.Bytes != 400 || len(data.Counters) != 2 {
			t.Fatalf("%v: rows %+v", d, data.Counters)
		}
		var msgs []string
		for _, w := range warns {
			msgs = append(msgs, w.String())
		}
		all := strings.Join(msgs, "\n")
		for _, frag := range []string{
			`"20170823-101700.unknown1" is neither a counters file`,
			`"notes.txt" is neither a counters file`,
			"20170823-101500.count:4: 1 rows of devices that are not in network.topo, left out: 0000:0000:0000:0099",
			"20170823-101500.count:5: 1 blocks of ports that the fabric does not have (free or irregular ports), left out: e0 port 4",
			"20170823-101500.count: missing port: 10 directed links have no counters",
			"bytes went from 1000 to 400: a reset, counted from 0",
			"20170823-101600.rtable:2: switch e0 has no route to 1 nodes: n4 HCA-1",
			"20170823-101600.rtable: 2 switches of the fabric have no table in the file: e1, a0",
			"sqlog.txt:2: job 7: 1 of its 3 nodes are not in the network",
		} {
			if !strings.Contains(all, frag) {
				t.Errorf("%v: no warning %q in\n%s", d, frag, all)
			}
		}
		if len(data.Jobs) != 1 || !slices.Equal(data.Jobs[0].Nodes, []int{0, 1}) || data.Jobs[0].Job.Start.Year() != 2017 {
			t.Errorf("jobs %+v", data.Jobs)
		}
		if len(data.Routings) != 1 || data.Routings[0].Routing.Port(e0, nodeNamed(t, f, "n3 HCA-1")) != f.ModelPort(e0, 3) {
			t.Errorf("routings %+v", data.Routings)
		}
	}
	// TreeScope's numbers: e0 port 3's rcv_data on e0 → a0 whatever the
	// Direction, and its fall from 1000 to 400 counted 0 as counters.js's
	// fix() does (the default counts 400, above).
	data, warns, err := ReadTreeScope(dir, TreeScopeOptions{Source: TreeScope, Year: 2017})
	if err != nil {
		t.Fatal(err)
	}
	f := data.Fabric
	e0 := switchNamed(t, f, "e0")
	out := f.Switches[e0].Ports[f.ModelPort(e0, 3)-1].Out
	found := false
	for _, r := range data.Counters {
		found = found || r.Link == out
		if r.Bytes != 0 {
			t.Errorf("TreeScope: row %+v, want 0 bytes", r)
		}
	}
	if !found || len(data.Counters) != 2 {
		t.Errorf("TreeScope: rows %+v", data.Counters)
	}
	reset := false
	for _, w := range warns {
		reset = reset || strings.Contains(w.Msg, "bytes went from 1000 to 400: a reset, counted as 0 (TreeScope's rule)")
	}
	if !reset {
		t.Errorf("TreeScope: warnings %v", warns)
	}
}

func TestReadTreeScopeErrors(t *testing.T) {
	topo := func(s string) map[string]string { return map[string]string{"network.topo": s} }
	withCount := func(c string) map[string]string {
		return map[string]string{"network.topo": miniTopo, "20170823-101500.count": c}
	}
	withRT := func(c string) map[string]string {
		return map[string]string{"network.topo": miniTopo, "20170823-101500.rtable": c}
	}
	dev := `{"id": "0000:0000:0000:0001", "lid": 1, "ports": []}`
	for _, c := range []struct {
		name  string
		files map[string]string
		file  string
		line  int
		col   int
		msg   string
	}{
		{"empty topo", topo(""), "network.topo", 0, 0, "expected a JSON object with nodes and switches, found an empty file"},
		{"syntax", topo("{\n \"nodes\": [,]}"), "network.topo", 2, 12, "expected JSON, found a syntax error: invalid character ','"},
		{"truncated", topo("{\"nodes\": ["), "network.topo", 1, 12, "unexpected end of the file"},
		{"not object", topo("[1]"), "network.topo", 1, 1, "expected a JSON object with nodes and switches, found an array"},
		{"trailing", topo("{} x"), "network.topo", 1, 4, "expected the end of the file after the JSON object"},
		{"no nodes", topo("{\"switches\": []}"), "network.topo", 1, 1, `expected "nodes" in this object, found no such key`},
		{"nodes kind", topo("{\"nodes\": 3, \"switches\": []}"), "network.topo", 1, 11, `expected an array for "nodes", found a number`},
		{"device kind", topo("{\"nodes\": [3], \"switches\": []}"), "network.topo", 1, 12, `expected a device object in "nodes", found a number`},
		{"id", topo(`{"nodes": [{"id": "xyz", "ports": []}], "switches": []}`), "network.topo", 1, 19, `expected a device id, a non-zero hexadecimal GUID such as "0011:aaaa:bbbb:cccc", found "xyz"`},
		{"id twice", topo(`{"nodes": [` + dev + `, ` + dev + `], "switches": []}`), "network.topo", 1, 73, `expected each device once, found "0000:0000:0000:0001" again (first at line 1)`},
		{"lid", topo(`{"nodes": [{"id": "1", "lid": 70000, "ports": []}], "switches": []}`), "network.topo", 1, 31, `expected an integer from -1 to 49151 for "lid", found 70000`},
		{"port num", topo(`{"nodes": [{"id": "1", "ports": [{"num": 0, "dest_node": "", "dest_port": -1}]}], "switches": []}`), "network.topo", 1, 42, `expected an integer from 1 to 254 for "num", found 0`},
		{"dest_port", topo(`{"nodes": [{"id": "1", "ports": [{"num": 1, "dest_node": "2", "dest_port": -1}]}], "switches": []}`), "network.topo", 1, 76, `expected the port (1 to 254) of dest_node "2", found -1`},
		{"port twice", topo(`{"nodes": [{"id": "1", "ports": [{"num": 1, "dest_node": "", "dest_port": -1}, {"num": 1, "dest_node": "", "dest_port": -1}]}], "switches": []}`), "network.topo", 1, 88, `expected each port of a device once, found port 1 again`},
		{"key twice", topo(`{"nodes": [], "nodes": []}`), "network.topo", 1, 15, `expected each key once in an object, found "nodes" again`},
		{"no devices", topo(`{"nodes": [], "switches": []}`), "network.topo", 0, 0, `expected devices in nodes and switches, found none`},
		{"two peers", topo(`{"nodes": [{"id": "1", "ports": [{"num": 1, "dest_node": "3", "dest_port": 1}]}, {"id": "2", "ports": [{"num": 1, "dest_node": "3", "dest_port": 1}]}], "switches": [{"id": "3", "ports": [{"num": 1, "dest_node": "1", "dest_port": 1}]}]}`), "network.topo", 1, 104, `expected 0000:0000:0000:0003 port 1 to be cabled to 0000:0000:0000:0001 port 1, found it cabled to 0000:0000:0000:0002 port 1`},
		{"count header", withCount("node_id,rcv_data\n"), "20170823-101500.count", 1, 0, "expected a header with the columns node_id and port_idx, found no port_idx"},
		{"count header twice", withCount("node_id,port_idx,node_id\n"), "20170823-101500.count", 1, 18, `expected each column once in the header, found "node_id" again`},
		{"count fields", withCount("node_id,port_idx,rcv_data\n1,1\n"), "20170823-101500.count", 2, 4, "expected 3 fields as the header names, found 2"},
		{"count guid", withCount("node_id,port_idx,rcv_data\nzz,1,1\n"), "20170823-101500.count", 2, 1, `expected a device GUID in node_id, found "zz"`},
		{"count port", withCount("node_id,port_idx,rcv_data\n1,x,1\n"), "20170823-101500.count", 2, 3, `expected a port number (0 to 255) in port_idx, found "x"`},
		{"count value", withCount("node_id,port_idx,rcv_data\n1,1,-4\n"), "20170823-101500.count", 2, 5, `expected a counter value (a whole number ≥ 0) in rcv_data, found "-4"`},
		{"count twice", withCount("node_id,port_idx,rcv_data\n1,1,1\n1,1,2\n"), "20170823-101500.count", 3, 1, `expected each port once, found 1 port 1 again (first at line 2)`},
		{"count empty", withCount(""), "20170823-101500.count", 0, 0, `expected a CSV header node_id,port_idx,…, found an empty file`},
		{"rtable guid", withRT("h\nqq,1:1\n"), "20170823-101500.rtable", 2, 1, `expected a switch GUID, found "qq"`},
		{"rtable entry", withRT("h\n10,11\n"), "20170823-101500.rtable", 2, 4, `expected lid:port, found "11"`},
		{"rtable lid", withRT("h\n10,0:1\n"), "20170823-101500.rtable", 2, 4, `expected a LID (1 to 49151), found "0"`},
		{"rtable port", withRT("h\n10,1:x\n"), "20170823-101500.rtable", 2, 6, `expected a port (0 to 255), found "x"`},
		{"rtable lid twice", withRT("h\n10,1:1, 1:2\n"), "20170823-101500.rtable", 2, 9, `expected each LID once per switch, found 1 again`},
		{"rtable switch twice", withRT("h\n10,1:1\n10,1:1\n"), "20170823-101500.rtable", 3, 1, `expected each switch once, found 10 again (first at line 2)`},
	} {
		dir := writeDir(t, c.files)
		_, _, err := ReadTreeScope(dir, TreeScopeOptions{Year: 2017})
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != filepath.Join(dir, c.file) || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: got %s (line %d col %d), want %s:%d:%d: …%s…", c.name, pe, pe.Line, pe.Col, c.file, c.line, c.col, c.msg)
		}
	}
	// not parse errors
	if _, _, err := ReadTreeScope(t.TempDir(), TreeScopeOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no network.topo: %v", err)
	}
	if _, _, err := ReadTreeScope(writeDir(t, map[string]string{"network.topo": miniTopo, "slurmqlog/sqlog.txt": "JOBID NODELIST\n1 n1\n"}), TreeScopeOptions{}); err == nil || !strings.Contains(err.Error(), "set TreeScopeOptions.Year") {
		t.Errorf("no year: %v", err)
	}
	if err := WriteTreeScope(t.TempDir(), &TreeScopeData{}); err == nil {
		t.Error("WriteTreeScope without a fabric")
	}
}
