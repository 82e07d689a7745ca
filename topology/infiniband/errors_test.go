package infiniband

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"superstep/topology/fattree"
)

const sw1 = "Switch\t4 \"S-0000000000000001\"\t\t# \"sw one\" base port 0 lid 1 lmc 0\n"

func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"empty", "# nothing\n\n", 0, 0, "found no device"},
		{"unknown line", sw1 + "Bridge 4 \"S-2\"\n", 2, 1, `expected a node header (Switch, Ca, Rt), a port line "[n]", a key=value line or a comment, found "Bridge"`},
		{"port count", "Switch\tmany \"S-1\"\n", 1, 8, `expected a port count, found "many"`},
		{"port count range", "Switch\t300 \"S-1\"\n", 1, 8, `expected a port count (1 to 254), found "300"`},
		{"node id", "Switch\t4 S-1\n", 1, 10, `expected a node id "S-<guid>", "H-<guid>" or "R-<guid>", found "S-1"`},
		{"guid", "Switch\t4 \"S-00zz\"\n", 1, 13, `expected a hexadecimal GUID in the node id, found "00zz"`},
		{"long guid", "Switch\t4 \"S-00000000000000001\"\n", 1, 13, `expected a hexadecimal GUID`},
		{"kind", "Switch\t4 \"H-1\"\n", 1, 11, `expected a node id starting with S- after Switch, found "\"H-1\""`},
		{"twice", sw1 + "\n" + sw1, 3, 10, `expected each node once, found "\"S-0000000000000001\"" again (first described at line 1)`},
		{"port before node", "[1]\t\"S-2\"[1]\n", 1, 1, `expected a node header (Switch, Ca, Rt) before the first port line, found "[1]"`},
		{"port range", sw1 + "[5]\t\"S-2\"[1]\n", 2, 2, `expected a port number from 1 to 4 (the node's port count), found 5`},
		{"port syntax", sw1 + "[1\t\"S-2\"[1]\n", 2, 3, `expected "]", found "\t"`},
		{"remote port", sw1 + "[1]\t\"S-2\"\n", 2, 10, `expected a port number in brackets, [n], found the end of the line`},
		{"port twice", sw1 + "[1]\t\"S-2\"[1]\n[1]\t\"S-3\"[1]\n", 3, 1, `expected each port of a node once, found port 1 again`},
		{"two peers", sw1 + "[1]\t\"S-2\"[1]\n[2]\t\"S-2\"[1]\n", 3, 0, `expected S-0000000000000002 port 1 to be cabled to S-0000000000000001 port 1 as line 2 says, found it cabled to S-0000000000000001 port 2`},
		{"self", sw1 + "[1]\t\"S-1\"[1]\n", 2, 0, `found S-0000000000000001 port 1 cabled to itself`},
		{"remote beyond count", sw1 + "[1]\t\"S-2\"[1]\n\nSwitch\t2 \"S-2\"\n[2]\t\"S-1\"[7]\n", 5, 0, `expected a port from 1 to 4 of S-0000000000000001 (described at line 1), found port 7`},
		{"count below cables", sw1 + "[1]\t\"S-2\"[3]\n\nSwitch\t2 \"S-2\"\n", 4, 0, `expected at most 2 ports for "S-2", found port 3 cabled to it at line 2`},
		{"trailing", sw1 + "[1]\t\"S-2\"[1] junk\n", 2, 14, `expected "#" and a comment, or the end of the line, found "junk"`},
		{"desc quote", "Switch\t4 \"S-1\"\t# \"sw one base port 0 lid 1\n", 1, 43, `expected the closing " of the node description, found the end of the line`},
		{"header comment", "Ca\t1 \"H-1\" x\n", 1, 12, `expected "#" and the node description, found "x"`},
		{"switchguid", "switchguid=0xq(1)\n", 1, 12, `expected a hexadecimal GUID, found "0xq(1)"`},
		{"vendid", "vendid=foo\n", 1, 8, `expected a hexadecimal number, found "foo"`},
		{"port guid", sw1 + "[1](xyz)\t\"S-2\"[1]\n", 2, 5, `expected a hexadecimal port GUID, found "xyz"`},
		{"ports type", "CA  1  1 0x1 4x SDR - XX 2 1 0x2 ( 'a' - 'b' )\n", 1, 23, `expected a node type SW, CA or RT, found "XX"`},
		{"ports lid", "CA  1  1 0x1 4x SDR - SW x 1 0x2 ( 'a' - 'b' )\n", 1, 26, `expected a LID, found "x"`},
		{"ports port", "CA  1  0 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b' )\n", 1, 8, `expected a port number (1 to 254), found "0"`},
		{"ports guid", "CA  1  1 0x1 4x SDR - SW 2 1 0xg ( 'a' - 'b' )\n", 1, 30, `expected a hexadecimal port GUID, found "0xg"`},
		{"ports paren", "CA  1  1 0x1 4x SDR - SW 2 1 0x2 'a' - 'b'\n", 1, 34, `expected "(" and the two node descriptions, found "'a'"`},
		{"ports dash", "CA  1  1 0x1 4x SDR + SW 2 1 0x2 ( 'a' - 'b' )\n", 1, 21, `expected "-" and the remote port, or the node description in ' quotes, found "+"`},
		{"ports speed", "CA  1  1 0x1 4x\n", 1, 16, `expected a link speed (QDR), found the end of the line`},
		{"ports end", "CA  1  1 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b' ) x\n", 1, 48, `expected the end of the line, found "x"`},
		{"ports close", "CA  1  1 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b\n", 1, 44, `expected the closing ' of the node description, found the end of the line`},
		{"ports twice", "CA  1  1 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b' )\nCA  1  1 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b' )\n", 2, 1, `expected each port once, found H-0000000000000001 port 1 again`},
		{"ports in topology", sw1 + "CA  1  1 0x1 4x SDR - SW 2 1 0x2 ( 'a' - 'b' )\n", 2, 1, `expected a node header`},
	} {
		_, _, err := ReadIBNetDiscover(strings.NewReader(c.in), "t.txt")
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != "t.txt" || pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: got %q (line %d col %d), want line %d col %d %q", c.name, err, pe.Line, pe.Col, c.line, c.col, c.msg)
		}
	}
}

func TestReadLongLineAndIOError(t *testing.T) {
	_, _, err := ReadIBNetDiscover(strings.NewReader(sw1+strings.Repeat("#", maxLine+1)+"\n"), "big")
	if err == nil || !strings.Contains(err.Error(), "big:2: expected a line of at most") {
		t.Fatalf("error %v", err)
	}
	boom := errors.New("boom")
	_, _, err = ReadIBNetDiscover(iotest.ErrReader(boom), "io")
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "io:1: reading: boom") {
		t.Fatalf("error %v", err)
	}
}

// sample is hand-written in the topology format: a dual-port CA whose
// second port is down, a router, a switch only referenced, a cable listed
// at one end only, colon-grouped and 0x GUIDs, grouping (-g) lines.
const sample = `#
# Topology file: generated on Tue Nov 24 14:41:54 2026
#
# Initiated from node 0002c90300a1b2c0 port 0002c90300a1b2c1

Chassis 1 (guid 0x2c9020040aaaa)
Non-Chassis Nodes

vendid=0x2c9
devid=0xc738
sysimgguid=0x2c90200401234
switchguid=0x2c90200401234(2c90200401234)
Switch	36 "S-0002c90200401234"		# "MF0;sw-a:SX6036/U1" enhanced port 0 lid 5 lmc 0
[1]	"H-0002:c903:00a1:b2c0"[1](2c90300a1b2c1) 		# "node017 HCA-1" lid 11 4xFDR
[2][ext 2]	"R-0002c90200409999"[1]		# "gw" lid 9 4xQDR
[35]	"S-0002c90200405678"[12]		# "sw \"b\"" lid 7 4xQDR

vendid=0x2c9
devid=0x1003
sysimgguid=0x2c90300a1b2c3
caguid=0x2c90300a1b2c0
Ca	2 "H-0002c90300a1b2c0"		# "node017 HCA-1"
[1](2c90300a1b2c1) 	"S-0002c90200401234"[1]		# lid 11 lmc 0 "MF0;sw-a:SX6036/U1" lid 5 4xFDR

vendid=0x2c9
devid=0x1003
caguid=0x2c90300a1b2d0
Ca	1 "H-0x0002c90300a1b2d0"		# "node018 HCA-1"
[1](2c90300a1b2d1) 	"S-0002c90200405678"[1]		# lid 12 lmc 0 "sw b" lid 7 4xFDR

rtguid=0x2c90200409999
Rt	1 "R-0002c90200409999"		# "gw"
[1]	"S-0002c90200401234"[2]		# lid 9 lmc 0 "MF0;sw-a:SX6036/U1" lid 5 4xQDR
`

func TestReadSample(t *testing.T) {
	g, warns, err := ReadIBNetDiscover(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	want := fattree.Discovered{
		Devices: []fattree.Device{
			{Kind: fattree.SwitchDevice, GUID: 0x0002c90200401234, Name: "MF0;sw-a:SX6036/U1", Ports: 36, LID: 5},
			{Kind: fattree.HostDevice, GUID: 0x0002c90300a1b2c0, Name: "node017 HCA-1", Ports: 2, LID: 11},
			{Kind: fattree.SwitchDevice, GUID: 0x0002c90200405678, Name: `sw \"b\"`},
			{Kind: fattree.HostDevice, GUID: 0x0002c90300a1b2d0, Name: "node018 HCA-1", Ports: 1, LID: 12},
		},
		Cables: []fattree.Cable{
			{A: fattree.Endpoint{Device: 0, Port: 1}, B: fattree.Endpoint{Device: 1, Port: 1}},
			{A: fattree.Endpoint{Device: 0, Port: 35}, B: fattree.Endpoint{Device: 2, Port: 12}},
			{A: fattree.Endpoint{Device: 3, Port: 1}, B: fattree.Endpoint{Device: 2, Port: 1}},
		},
	}
	if !equalDiscovered(g, want) {
		t.Fatalf("got %+v\nwant %+v", g, want)
	}
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.String())
	}
	all := strings.Join(msgs, "\n")
	for _, w := range []string{
		`sample:15: router R-0002c90200409999 "gw" left out`,
		`sample:16: S-0002c90200405678 "sw \\\"b\\\"" is cabled to but not described`,
	} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings\n%s\nlack %s", all, w)
		}
	}
	if len(warns) != 2 {
		t.Errorf("warnings\n%s", all)
	}
}

// TestReadSampleLineEndings: the sample with CRLF line endings and a
// UTF-8 byte order mark reads like the plain one.
func TestReadSampleLineEndings(t *testing.T) {
	want, _, err := ReadIBNetDiscover(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	got, warns, err := ReadIBNetDiscover(strings.NewReader("\uFEFF"+strings.ReplaceAll(sample, "\n", "\r\n")), "sample")
	if err != nil || len(warns) != 2 || !equalDiscovered(got, want) {
		t.Fatalf("got %+v, %v, %v\nwant %+v", got, warns, err, want)
	}
}

func equalDiscovered(a, b fattree.Discovered) bool {
	if len(a.Devices) != len(b.Devices) || len(a.Cables) != len(b.Cables) {
		return false
	}
	for i := range a.Devices {
		if a.Devices[i] != b.Devices[i] {
			return false
		}
	}
	for i := range a.Cables {
		if a.Cables[i] != b.Cables[i] {
			return false
		}
	}
	return true
}

func TestReadOneSidedCable(t *testing.T) {
	in := sw1 + "[1]\t\"H-2\"[1]\n\nCa\t1 \"H-2\"\t\t# \"h\"\n"
	g, warns, err := ReadIBNetDiscover(strings.NewReader(in), "one")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Cables) != 1 || len(warns) != 1 || !strings.Contains(warns[0].String(), "one:2: H-0000000000000002 port 1 does not list its cable to S-0000000000000001 port 1") {
		t.Fatalf("cables %v warnings %v", g.Cables, warns)
	}
}
