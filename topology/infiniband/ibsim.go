package infiniband

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"superstep/topology/fattree"
)

// WriteIBSimNet writes f as a net file of ibsim, the InfiniBand fabric
// simulator of the linux-rdma project ("ibsim -s net"): one record per
// device, a header line `Switch|Hca <ports> "<id>"` and one line
// `[<port>] "<remote id>"[<remote port>]` per cabled port, records
// separated by a blank line. Hosts come first, node 0 first of all,
// because ibsim puts the subnet manager's port on the first port of the
// file. Device ids are the names of f's nodes and switches with every
// character other than a letter, a digit, '-', '_' or '.' replaced by '-'
// ("node 3" becomes "node-3"); ibsim makes up its own GUIDs. Hosts are
// written as single-port HCAs.
func WriteIBSimNet(w io.Writer, f *fattree.Fabric) error {
	bw := bufio.NewWriter(w)
	nodeID := make([]string, len(f.Nodes))
	swID := make([]string, len(f.Switches))
	seen := map[string]bool{}
	for i, n := range f.Nodes {
		nodeID[i] = netID(n.Name)
	}
	for i, s := range f.Switches {
		swID[i] = netID(s.Name)
	}
	for _, id := range append(append([]string(nil), nodeID...), swID...) {
		if seen[id] {
			return fmt.Errorf("infiniband: WriteIBSimNet: two devices are named %q", id)
		}
		seen[id] = true
	}
	end := func(l fattree.Link) string {
		if l.Kind.To() == 0 {
			return nodeID[l.To]
		}
		return swID[l.To]
	}
	for i, n := range f.Nodes {
		l := f.Links[n.Up]
		fmt.Fprintf(bw, "Hca\t1 %q\n[1]\t%q[%d]\n\n", nodeID[i], end(l), l.ToPort)
	}
	for i, s := range f.Switches {
		fmt.Fprintf(bw, "Switch\t%d %q\n", len(s.Ports), swID[i])
		for p, port := range s.Ports {
			l := f.Links[port.Out]
			fmt.Fprintf(bw, "[%d]\t%q[%d]\n", p+1, end(l), l.ToPort)
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

func netID(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, name)
}
