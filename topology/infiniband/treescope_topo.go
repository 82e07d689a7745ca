package infiniband

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"superstep/topology/fattree"
)

// jv is a JSON value with the byte offset where it starts, for errors
// that name a line and column.
type jv struct {
	off  int64
	kind byte // '{', '[', '"', 'n' (number), 'b' (bool), '0' (null)
	str  string
	num  json.Number
	keys []string
	obj  map[string]*jv
	arr  []*jv
}

// maxJSONDepth bounds the nesting ReadTopo accepts (the format needs 4).
const maxJSONDepth = 64

// jsonReader parses a JSON document into jv values with positions.
type jsonReader struct {
	file string
	data []byte
	dec  *json.Decoder
}

// pos turns a byte offset into a 1-based line and column.
func pos(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	head := data[:off]
	line := bytes.Count(head, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(head, '\n') + 1) + 1
	return line, col
}

func (p *jsonReader) errAt(off int64, format string, args ...any) error {
	line, col := pos(p.data, off)
	return &ParseError{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// start is the offset of the next token: after whitespace, ':' and ','.
func (p *jsonReader) start() int64 {
	off := p.dec.InputOffset()
	for off < int64(len(p.data)) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func (p *jsonReader) syntax(err error) error {
	var se *json.SyntaxError
	off := p.dec.InputOffset()
	msg := err.Error()
	if errors.As(err, &se) {
		off = se.Offset
		msg = se.Error()
	} else if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		off = int64(len(p.data))
		msg = "unexpected end of the file"
	}
	line, col := pos(p.data, off)
	return &ParseError{File: p.file, Line: line, Col: col, Msg: "expected JSON, found a syntax error: " + msg}
}

func (p *jsonReader) value(depth int) (*jv, error) {
	off := p.start()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err)
	}
	v := &jv{off: off}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, p.errAt(off, "expected at most %d nested arrays and objects, found more", maxJSONDepth)
		}
		switch t {
		case '{':
			v.kind, v.obj = '{', map[string]*jv{}
			for p.dec.More() {
				koff := p.start()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.syntax(err)
				}
				k, _ := kt.(string)
				if _, dup := v.obj[k]; dup {
					return nil, p.errAt(koff, "expected each key once in an object, found %q again", k)
				}
				e, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, k)
				v.obj[k] = e
			}
		case '[':
			v.kind = '['
			for p.dec.More() {
				e, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, e)
			}
		}
		if _, err := p.dec.Token(); err != nil { // the closing delimiter
			return nil, p.syntax(err)
		}
	case string:
		v.kind, v.str = '"', t
	case json.Number:
		v.kind, v.num = 'n', t
	case bool:
		v.kind = 'b'
	case nil:
		v.kind = '0'
	}
	return v, nil
}

func kindName(k byte) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

// field returns obj's member key, checking its kind; nil when absent and
// not required.
func (p *jsonReader) field(obj *jv, key string, kind byte, required bool) (*jv, error) {
	v, ok := obj.obj[key]
	if !ok {
		if required {
			return nil, p.errAt(obj.off, "expected %q in this object, found no such key", key)
		}
		return nil, nil
	}
	if v.kind != kind {
		return nil, p.errAt(v.off, "expected %s for %q, found %s", kindName(kind), key, kindName(v.kind))
	}
	return v, nil
}

// integer reads a number member in [lo, hi]; def when absent and not
// required.
func (p *jsonReader) integer(obj *jv, key string, lo, hi int, required bool, def int) (int, error) {
	v, err := p.field(obj, key, 'n', required)
	if err != nil || v == nil {
		return def, err
	}
	n, err := strconv.ParseInt(string(v.num), 10, 64)
	if err != nil || n < int64(lo) || n > int64(hi) {
		return 0, p.errAt(v.off, "expected an integer from %d to %d for %q, found %s", lo, hi, key, string(v.num))
	}
	return int(n), nil
}

// TreeScopeTopo is what network.topo says beyond the devices and cables.
type treeScopeTopo struct {
	name string
}

// readTopo reads TreeScope's network.topo into a Discovered.
//
// The file is a JSON object with "nodes" and "switches", arrays of
// devices {"id": GUID, "desc" or "name": description, "lid": LID,
// "ports": [{"num": n, "dest_node": GUID or "", "dest_port": p or -1}]};
// "lvl", "pod", "idx" and "core" of switches and the global counts are
// not needed (Infer finds them) and not checked.
func readTopo(r io.Reader, name string) (fattree.Discovered, treeScopeTopo, []Warning, error) {
	var g fattree.Discovered
	var meta treeScopeTopo
	data, err := io.ReadAll(r)
	if err != nil {
		return g, meta, nil, &ParseError{File: name, Msg: "reading: " + err.Error(), Err: err}
	}
	p := &jsonReader{file: name, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	if len(bytes.TrimSpace(data)) == 0 {
		return g, meta, nil, &ParseError{File: name, Msg: "expected a JSON object with nodes and switches, found an empty file"}
	}
	root, err := p.value(0)
	if err != nil {
		return g, meta, nil, err
	}
	if off := p.start(); off < int64(len(data)) {
		return g, meta, nil, p.errAt(off, "expected the end of the file after the JSON object, found %s", found(string(data[off:min(len(data), int(off)+40)]), 0))
	}
	if root.kind != '{' {
		return g, meta, nil, p.errAt(root.off, "expected a JSON object with nodes and switches, found %s", kindName(root.kind))
	}
	if v, err := p.field(root, "name", '"', false); err != nil {
		return g, meta, nil, err
	} else if v != nil {
		meta.name = v.str
	}
	type port struct {
		num, destPort int
		dest          string
		off           int64
	}
	type dev struct {
		ports []port
		off   int64
	}
	var devs []dev
	index := map[uint64]int{}
	for _, list := range []struct {
		key  string
		kind fattree.DeviceKind
	}{{"nodes", fattree.HostDevice}, {"switches", fattree.SwitchDevice}} {
		arr, err := p.field(root, list.key, '[', true)
		if err != nil {
			return g, meta, nil, err
		}
		for _, d := range arr.arr {
			if d.kind != '{' {
				return g, meta, nil, p.errAt(d.off, "expected a device object in %q, found %s", list.key, kindName(d.kind))
			}
			id, err := p.field(d, "id", '"', true)
			if err != nil {
				return g, meta, nil, err
			}
			guid, ok := parseGUID(id.str)
			if !ok || guid == 0 {
				return g, meta, nil, p.errAt(id.off, "expected a device id, a non-zero hexadecimal GUID such as \"0011:aaaa:bbbb:cccc\", found %q", id.str)
			}
			if at, dup := index[guid]; dup {
				l, _ := pos(data, devs[at].off)
				return g, meta, nil, p.errAt(id.off, "expected each device once, found %q again (first at line %d)", id.str, l)
			}
			desc := ""
			for _, k := range []string{"desc", "name"} {
				v, err := p.field(d, k, '"', false)
				if err != nil {
					return g, meta, nil, err
				}
				if v != nil && desc == "" {
					desc = v.str
				}
			}
			lid, err := p.integer(d, "lid", -1, maxLID, false, 0)
			if err != nil {
				return g, meta, nil, err
			}
			ports, err := p.field(d, "ports", '[', true)
			if err != nil {
				return g, meta, nil, err
			}
			if len(ports.arr) > fattree.MaxPorts {
				return g, meta, nil, p.errAt(ports.off, "expected at most %d ports, found %d", fattree.MaxPorts, len(ports.arr))
			}
			var ds dev
			ds.off = d.off
			nports := 0
			seenPort := map[int]bool{}
			for _, pv := range ports.arr {
				if pv.kind != '{' {
					return g, meta, nil, p.errAt(pv.off, "expected a port object, found %s", kindName(pv.kind))
				}
				num, err := p.integer(pv, "num", 1, fattree.MaxPorts, true, 0)
				if err != nil {
					return g, meta, nil, err
				}
				if seenPort[num] {
					return g, meta, nil, p.errAt(pv.obj["num"].off, "expected each port of a device once, found port %d again", num)
				}
				seenPort[num] = true
				nports = max(nports, num)
				dn, err := p.field(pv, "dest_node", '"', true)
				if err != nil {
					return g, meta, nil, err
				}
				dp, err := p.integer(pv, "dest_port", -1, fattree.MaxPorts, true, 0)
				if err != nil {
					return g, meta, nil, err
				}
				if dn.str == "" {
					continue
				}
				if dp < 1 {
					return g, meta, nil, p.errAt(pv.obj["dest_port"].off, "expected the port (1 to %d) of dest_node %q, found %d", fattree.MaxPorts, dn.str, dp)
				}
				ds.ports = append(ds.ports, port{num: num, destPort: dp, dest: dn.str, off: pv.off})
			}
			if lid < 0 {
				lid = 0 // OSMHistoryParser's "unknown"
			}
			index[guid] = len(devs)
			devs = append(devs, ds)
			g.Devices = append(g.Devices, fattree.Device{Kind: list.kind, GUID: guid, Name: desc, Ports: nports, LID: uint16(lid)})
		}
	}
	if len(g.Devices) == 0 {
		return g, meta, nil, &ParseError{File: name, Msg: "expected devices in nodes and switches, found none"}
	}
	// cables: one per pair of ports, checked from both ends
	var warns []Warning
	type end struct{ dev, port int }
	peer := map[end]end{}
	for di, d := range devs {
		for _, pt := range d.ports {
			guid, ok := parseGUID(pt.dest)
			oj, known := index[guid]
			if !ok || !known {
				l, _ := pos(data, pt.off)
				warns = append(warns, Warning{File: name, Line: l, Msg: fmt.Sprintf("%s port %d is cabled to %q, which the file does not describe: cable left out", devName(g, di), pt.num, pt.dest)})
				continue
			}
			a, b := end{di, pt.num}, end{oj, pt.destPort}
			if a == b {
				return g, meta, nil, p.errAt(pt.off, "found %s port %d cabled to itself", devName(g, di), pt.num)
			}
			if g.Devices[oj].Ports > 0 && pt.destPort > g.Devices[oj].Ports {
				return g, meta, nil, p.errAt(pt.off, "expected a port from 1 to %d of %s, found port %d", g.Devices[oj].Ports, devName(g, oj), pt.destPort)
			}
			if q, ok := peer[b]; ok {
				if q != a {
					return g, meta, nil, p.errAt(pt.off, "expected %s port %d to be cabled to %s port %d, found it cabled to %s port %d",
						devName(g, oj), pt.destPort, devName(g, q.dev), q.port, devName(g, di), pt.num)
				}
				continue // the other end listed it first
			}
			if q, ok := peer[a]; ok && q != b {
				return g, meta, nil, p.errAt(pt.off, "expected %s port %d to be cabled to %s port %d, found it cabled to %s port %d",
					devName(g, di), pt.num, devName(g, q.dev), q.port, devName(g, oj), pt.destPort)
			}
			peer[a], peer[b] = b, a
			g.Cables = append(g.Cables, fattree.Cable{A: fattree.Endpoint{Device: di, Port: pt.num}, B: fattree.Endpoint{Device: oj, Port: pt.destPort}})
		}
	}
	// a cable listed at one end only
	for di, d := range devs {
		for _, pt := range d.ports {
			guid, _ := parseGUID(pt.dest)
			oj, known := index[guid]
			if !known {
				continue
			}
			back := false
			for _, q := range devs[oj].ports {
				if q.num == pt.destPort {
					back = true
					break
				}
			}
			if !back {
				l, _ := pos(data, pt.off)
				warns = append(warns, Warning{File: name, Line: l, Msg: fmt.Sprintf("%s port %d does not list its cable to %s port %d: kept", devName(g, oj), pt.destPort, devName(g, di), pt.num)})
			}
		}
	}
	return g, meta, warns, nil
}

func devName(g fattree.Discovered, i int) string {
	d := g.Devices[i]
	if d.Name != "" {
		return fmt.Sprintf("%q (%s)", d.Name, colonGUID(d.GUID))
	}
	return colonGUID(d.GUID)
}

// colonGUID writes a GUID as OpenSM's tools do, "0011:aaaa:bbbb:cccc".
func colonGUID(g uint64) string {
	return fmt.Sprintf("%04x:%04x:%04x:%04x", g>>48, g>>32&0xffff, g>>16&0xffff, g&0xffff)
}

// writeTopo writes f as network.topo: the devices that were discovered
// (GUID ≠ 0), with their real port numbers.
func writeTopo(w io.Writer, f *fattree.Fabric, name string) error {
	type jport struct {
		Num      int    `json:"num"`
		DestNode string `json:"dest_node"`
		DestPort int    `json:"dest_port"`
	}
	type jdev struct {
		ID    string  `json:"id"`
		Desc  string  `json:"desc"`
		LID   int     `json:"lid"`
		Lvl   int     `json:"lvl,omitempty"`
		Pod   *int    `json:"pod,omitempty"`
		Idx   *int    `json:"idx,omitempty"`
		Core  string  `json:"core,omitempty"`
		Ports []jport `json:"ports"`
	}
	s := f.Spec
	out := struct {
		Name     string `json:"name"`
		Cores    int    `json:"num_cores"`
		Pods     int    `json:"num_pods"`
		L1L0     int    `json:"num_L1L0"`
		L1L2     int    `json:"num_L1L2"`
		L2L1     int    `json:"num_L2L1"`
		L2L3     int    `json:"num_L2L3"`
		L3L2     int    `json:"num_L3L2"`
		Nodes    []jdev `json:"nodes"`
		Switches []jdev `json:"switches"`
	}{Name: name, Cores: s.Bundles, Pods: s.Pods, L1L0: s.DownPorts(1), L1L2: s.UpPorts(1), L2L1: s.DownPorts(2), L2L3: s.UpPorts(2), L3L2: s.DownPorts(3)}
	guidOf := func(level, i int) uint64 {
		if level == 0 {
			return f.Nodes[i].GUID
		}
		return f.Switches[i].GUID
	}
	for i, n := range f.Nodes {
		if n.GUID == 0 {
			continue
		}
		d := jdev{ID: colonGUID(n.GUID), Desc: n.Name, LID: int(n.LID)}
		hp := f.NodeHCAPort(i)
		if hp == 0 {
			hp = 1
		}
		for p := 1; p <= hp; p++ {
			jp := jport{Num: p, DestPort: -1}
			l := f.Links[n.Up]
			if p == hp && f.Switches[l.To].GUID != 0 {
				jp.DestNode, jp.DestPort = colonGUID(f.Switches[l.To].GUID), f.PhysicalPort(l.To, l.ToPort)
			}
			d.Ports = append(d.Ports, jp)
		}
		out.Nodes = append(out.Nodes, d)
	}
	for i, sw := range f.Switches {
		if sw.GUID == 0 {
			continue
		}
		d := jdev{ID: colonGUID(sw.GUID), Desc: sw.Name, LID: int(sw.LID), Lvl: sw.Level}
		idx := sw.Index
		d.Idx = &idx
		if sw.Level < 3 {
			pod := sw.Pod
			d.Pod = &pod
		}
		if sw.Bundle >= 0 {
			d.Core = "bundle-" + strconv.Itoa(sw.Bundle)
		}
		nphys := 0
		byPhys := map[int]jport{}
		for p, port := range sw.Ports {
			pp := f.PhysicalPort(i, p+1)
			if pp == 0 {
				continue
			}
			l := f.Links[port.Out]
			g := guidOf(l.Kind.To(), l.To)
			if g == 0 {
				continue
			}
			var dp int
			if l.Kind.To() == 0 {
				dp = f.NodeHCAPort(l.To)
			} else {
				dp = f.PhysicalPort(l.To, l.ToPort)
			}
			byPhys[pp] = jport{Num: pp, DestNode: colonGUID(g), DestPort: dp}
			nphys = max(nphys, pp)
		}
		nphys = max(nphys, len(sw.Ports))
		for p := 1; p <= nphys; p++ {
			jp, ok := byPhys[p]
			if !ok {
				jp = jport{Num: p, DestPort: -1}
			}
			d.Ports = append(d.Ports, jp)
		}
		out.Switches = append(out.Switches, d)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}
