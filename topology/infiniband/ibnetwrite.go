package infiniband

import (
	"bufio"
	"fmt"
	"io"

	"superstep/topology/fattree"
)

// WriteIBNetDiscover writes f in ibnetdiscover's topology format, as
// ibnetdiscover prints a fabric that ibsim simulates: a record per switch
// (switches in id order, then nodes), each with its key=value lines, its
// header and a line per cabled port, which ReadIBNetDiscover reads back to
// the same devices and cables (and fattree.Infer to the same Fabric).
// Port GUIDs of hosts are the node GUID + 1, as ibsim makes them; the
// link width and speed are written as 4xSDR. Devices that were not
// discovered (GUID 0) and their cables are left out. It fails only on a
// write error.
func WriteIBNetDiscover(w io.Writer, f *fattree.Fabric) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "#\n# Topology file: written by superstep's WriteIBNetDiscover\n#\n\n")
	end := func(level, i int) (kind byte, guid uint64, name string, lid uint16) {
		if level == 0 {
			n := &f.Nodes[i]
			return 'H', n.GUID, n.Name, n.LID
		}
		s := &f.Switches[i]
		return 'S', s.GUID, s.Name, s.LID
	}
	for i, s := range f.Switches {
		if s.GUID == 0 {
			continue
		}
		nports := len(s.Ports)
		for p := 1; p <= len(s.Ports); p++ {
			nports = max(nports, f.PhysicalPort(i, p))
		}
		fmt.Fprintf(bw, "vendid=0x0\ndevid=0x0\nsysimgguid=0x%x\nswitchguid=0x%x(%x)\n", s.GUID, s.GUID, s.GUID)
		fmt.Fprintf(bw, "Switch\t%d \"S-%016x\"\t\t# %q base port 0 lid %d lmc 0\n", nports, s.GUID, s.Name, s.LID)
		for p, port := range s.Ports {
			pp := f.PhysicalPort(i, p+1)
			l := f.Links[port.Out]
			kind, guid, name, lid := end(l.Kind.To(), l.To)
			if pp == 0 || guid == 0 {
				continue
			}
			if kind == 'H' {
				hp := f.NodeHCAPort(l.To)
				fmt.Fprintf(bw, "[%d]\t\"H-%016x\"[%d](%x) \t\t# %q lid %d 4xSDR\n", pp, guid, hp, guid+uint64(hp), name, lid)
			} else {
				fmt.Fprintf(bw, "[%d]\t\"S-%016x\"[%d]\t\t# %q lid %d 4xSDR\n", pp, guid, f.PhysicalPort(l.To, l.ToPort), name, lid)
			}
		}
		bw.WriteString("\n")
	}
	for i, n := range f.Nodes {
		if n.GUID == 0 {
			continue
		}
		hp := f.NodeHCAPort(i)
		if hp == 0 {
			hp = 1
		}
		fmt.Fprintf(bw, "vendid=0x0\ndevid=0x0\nsysimgguid=0x%x\ncaguid=0x%x\n", n.GUID, n.GUID)
		fmt.Fprintf(bw, "Ca\t%d \"H-%016x\"\t\t# %q\n", hp, n.GUID, n.Name)
		l := f.Links[n.Up]
		sw := &f.Switches[l.To]
		if pp := f.PhysicalPort(l.To, l.ToPort); pp > 0 && sw.GUID != 0 {
			fmt.Fprintf(bw, "[%d](%x) \t\"S-%016x\"[%d]\t\t# lid %d lmc 0 %q lid %d 4xSDR\n", hp, n.GUID+uint64(hp), sw.GUID, pp, n.LID, sw.Name, sw.LID)
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}
