package mpijob

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"superstep/algo/vertex"
	"superstep/sdk/profile"
)

// twoHosts is two simulated hosts: two network namespaces, each with a
// veth pair whose other end is on a bridge in the root namespace, all in
// one private /29.
type twoHosts struct {
	NS, Names, Addrs [2]string // namespaces, host names, addresses
	Veth             [2]string // the veth ends in the root namespace
	Bridge           string
	Subnet           string // CIDR of the bridge and both hosts
	Map              string // the map file agent.sh reads
	Agent            string // agent.sh, copied and executable
}

// needTwoHosts sets up two hosts, or skips (fails under CI as root) when
// this machine cannot. Everything it made is removed by t.Cleanup, even
// if the setup fails half way.
func needTwoHosts(t *testing.T) *twoHosts {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("CI") != "" && os.Geteuid() == 0 {
		fail = t.Fatalf
	}
	if os.Geteuid() != 0 {
		t.Skip("simulating two hosts needs root (network namespaces, veth pairs, a bridge)")
	}
	for _, tool := range []string{"ip", "unshare", "awk", "hostname"} {
		if _, err := exec.LookPath(tool); err != nil {
			fail("simulating two hosts needs %s: %v", tool, err)
		}
	}
	pid := os.Getpid()
	subnet, base, err := freeSubnet(pid)
	if err != nil {
		fail("%v", err)
	}
	h := &twoHosts{Bridge: fmt.Sprintf("sstbr%d", pid), Subnet: subnet}
	for i, x := range []string{"a", "b"} {
		h.NS[i] = fmt.Sprintf("sst%d%s", pid, x)
		h.Names[i] = fmt.Sprintf("sst%dhost%s", pid, x)
		h.Veth[i] = fmt.Sprintf("sstv%d%s", pid, x)
		h.Addrs[i] = ipAdd(base, 2+i).String()
	}
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			fail("ip %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// Cleanup is registered first: it removes whatever exists.
	t.Cleanup(func() {
		for _, ns := range h.NS {
			// Processes a failed job left in the namespaces (ours).
			out, _ := exec.Command("ip", "netns", "pids", ns).Output()
			for _, f := range strings.Fields(string(out)) {
				if p, err := strconv.Atoi(f); err == nil {
					if proc, err := os.FindProcess(p); err == nil {
						_ = proc.Kill()
					}
				}
			}
		}
		for _, ns := range h.NS {
			_ = exec.Command("ip", "netns", "del", ns).Run()
		}
		for _, v := range h.Veth {
			_ = exec.Command("ip", "link", "del", v).Run()
		}
		_ = exec.Command("ip", "link", "del", h.Bridge).Run()
	})
	run("link", "add", h.Bridge, "type", "bridge")
	run("addr", "add", ipAdd(base, 1).String()+"/29", "dev", h.Bridge)
	run("link", "set", h.Bridge, "up")
	var lines []string
	for i := range 2 {
		run("netns", "add", h.NS[i])
		run("link", "add", h.Veth[i], "type", "veth", "peer", "name", "veth0", "netns", h.NS[i])
		run("link", "set", h.Veth[i], "master", h.Bridge, "up")
		run("-n", h.NS[i], "addr", "add", h.Addrs[i]+"/29", "dev", "veth0")
		run("-n", h.NS[i], "link", "set", "veth0", "up")
		run("-n", h.NS[i], "link", "set", "lo", "up")
		lines = append(lines, fmt.Sprintf("%s %s %s\n", h.Addrs[i], h.NS[i], h.Names[i]))
	}
	dir := t.TempDir()
	h.Map = filepath.Join(dir, "hosts")
	if err := os.WriteFile(h.Map, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "twohosts", "agent.sh"))
	if err != nil {
		t.Fatal(err)
	}
	h.Agent = filepath.Join(dir, "agent.sh")
	if err := os.WriteFile(h.Agent, script, 0o755); err != nil {
		t.Fatal(err)
	}
	// Each host must answer under its own name, over the bridge.
	for i := range 2 {
		out, err := exec.Command(h.Agent, h.Map, "-x", h.Addrs[i], "hostname").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != h.Names[i] {
			fail("agent.sh on %s: %v, printed %q, want %q", h.Addrs[i], err, out, h.Names[i])
		}
	}
	return h
}

// freeSubnet picks a /29 in 10.213.0.0/16 from pid that no interface of
// this machine has an address in, and returns it and its first address.
func freeSubnet(pid int) (string, net.IP, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return "", nil, fmt.Errorf("listing addresses: %w", err)
	}
	for try := range 64 {
		k := (pid + try) % 8192
		base := net.IPv4(10, 213, byte(k/32), byte(k%32*8)).To4()
		_, block, _ := net.ParseCIDR(base.String() + "/29")
		clash := false
		for _, a := range addrs {
			if ip, _, err := net.ParseCIDR(a.String()); err == nil && block.Contains(ip) {
				clash = true
			}
		}
		if !clash {
			return block.String(), base, nil
		}
	}
	return "", nil, fmt.Errorf("no free /29 in 10.213.0.0/16 near %d", pid)
}

// ipAdd is the IPv4 address k after ip (k small, no carry past a /24).
func ipAdd(ip net.IP, k int) net.IP {
	v := append(net.IP(nil), ip.To4()...)
	v[3] += byte(k)
	return v
}

// vethBytes reads an interface's received and sent byte counters.
func vethBytes(t *testing.T, dev string) (rx, tx int64) {
	t.Helper()
	read := func(what string) int64 {
		b, err := os.ReadFile(filepath.Join("/sys/class/net", dev, "statistics", what))
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return read("rx_bytes"), read("tx_bytes")
}

// TestMPITwoHosts: PageRank on the 4elt mesh on 4 ranks, 2 on each of
// two hosts simulated by network namespaces (orted started in them by
// agent.sh, TCP forced). The profile's cluster has the two namespaces'
// host names, ranks 0,1 on the first and 2,3 on the second; in every
// superstep the host-level bytes (Profile.Aggregate at HostLevel) between
// the two hosts equal the sum over the cross-host rank pairs (0,1)×(2,3)
// both ways, and within a host the sum over the same-host pairs; both are
// positive while messages flow (supersteps 0–7). The veth counters of
// each host grew by at least the profile's bytes that left it and that
// reached it; the messages per pair and the values equal the in-process
// engine's.
func TestMPITwoHosts(t *testing.T) {
	h := needTwoHosts(t)
	agent := h.Agent + " " + h.Map
	if strings.ContainsAny(h.Agent, " \t") {
		t.Skipf("temporary directory %q has a space: Open MPI splits plm_rsh_agent at spaces", filepath.Dir(h.Map))
	}
	args := []string{
		"--mca", "plm_rsh_agent", agent,
		"--mca", "plm_rsh_no_tree_spawn", "1",
		"--mca", "btl", "tcp,self",
		"--mca", "oob_tcp_if_include", h.Subnet,
		"--mca", "btl_tcp_if_include", h.Subnet,
	}
	var rx0, tx0 [2]int64
	for i, v := range h.Veth {
		rx0[i], tx0[i] = vethBytes(t, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := launch(t, ctx, &Spec{Graph: "4elt", Program: "pagerank", Params: map[string]float64{"iterations": 8}}, 4,
		Options{Hosts: []string{h.Addrs[0] + ":2", h.Addrs[1] + ":2"}, MpirunArgs: args})
	elapsed := time.Since(start)
	if err != nil {
		out := ""
		if res != nil {
			out = res.Output
		}
		t.Fatalf("%v\n%s", err, out)
	}
	var grow [2][2]int64 // [veth][rx, tx]
	for i, v := range h.Veth {
		rx, tx := vethBytes(t, v)
		grow[i] = [2]int64{rx - rx0[i], tx - tx0[i]}
	}
	t.Logf("job ran %v: %s", elapsed.Round(time.Millisecond), strings.Join(res.Command, " "))

	// Placement: ranks 0,1 on the first host, 2,3 on the second.
	c := res.Profile.Cluster
	if len(c.Hosts) != 2 || c.Hosts[0].Name != h.Names[0] || c.Hosts[1].Name != h.Names[1] {
		t.Fatalf("hosts %+v, want %s and %s", c.Hosts, h.Names[0], h.Names[1])
	}
	hostOf := []int{0, 0, 1, 1}
	for k, w := range c.Workers {
		if w.Host != hostOf[k] {
			t.Errorf("rank %d (%s) on host %d, want %d", k, w.Name, w.Host, hostOf[k])
		}
	}
	if len(c.Workers) != 4 {
		t.Fatalf("%d workers, want 4", len(c.Workers))
	}

	// Values and messages as in process.
	want := inProcess(t, "4elt", vertex.PageRank{Iterations: 8}, 4)
	if res.Supersteps != want.Supersteps || len(res.Profile.Steps) != want.Supersteps {
		t.Fatalf("%d supersteps (%d in the profile), in-process %d", res.Supersteps, len(res.Profile.Steps), want.Supersteps)
	}
	worst := 0.0
	for i, x := range want.Values {
		worst = math.Max(worst, math.Abs(res.Values[i]-x)/x)
	}
	if worst > 1e-12 {
		t.Errorf("values differ by up to %g relative", worst)
	}

	// Host-level bytes against the rank pairs.
	agg, err := res.Profile.Aggregate(profile.Options{Level: profile.HostLevel})
	if err != nil {
		t.Fatal(err)
	}
	if len(agg.Frames) != len(res.Profile.Steps) || len(agg.Units) != 2 {
		t.Fatalf("%d frames, %d units", len(agg.Frames), len(agg.Units))
	}
	var sent [2][2]int64 // job total, [src host][dst host]
	var perStep []string
	for s, st := range res.Profile.Steps {
		var pair [2][2]int64
		for i := range 4 {
			for j := range 4 {
				m := st.Messages[i*4+j]
				if w := want.Profile.Steps[s].Messages[i*4+j]; m != w {
					t.Fatalf("superstep %d, ranks %d→%d: %d messages, in-process %d", s, i, j, m, w)
				}
				if (m > 0) != (st.Bytes[i*4+j] > 0) {
					t.Errorf("superstep %d, ranks %d→%d: %d messages in %d bytes", s, i, j, m, st.Bytes[i*4+j])
				}
				pair[hostOf[i]][hostOf[j]] += st.Bytes[i*4+j]
			}
		}
		// Hand count: the 4elt mesh sends 91,756 PageRank messages a
		// superstep over all 16 ordered rank pairs; an outbox is an
		// 8-byte header and 12 bytes a message (4-byte vertex id, 8-byte
		// value): 16×8 + 12×91,756 = 1,101,200 bytes.
		if total := pair[0][0] + pair[0][1] + pair[1][0] + pair[1][1]; s < 8 && total != 1101200 {
			t.Errorf("superstep %d: %d bytes over all rank pairs, want 1,101,200", s, total)
		}
		inter := pair[0][1] + pair[1][0]
		intra := pair[0][0] + pair[1][1]
		b := agg.Bytes[s]
		if got := int64(b[0][1] + b[1][0]); got != inter {
			t.Errorf("superstep %d: %d inter-host bytes at host level, %d over the cross-host rank pairs", s, got, inter)
		}
		if got := int64(b[0][0] + b[1][1]); got != intra {
			t.Errorf("superstep %d: %d intra-host bytes at host level, %d over the same-host rank pairs", s, got, intra)
		}
		if s < 8 && (inter <= 0 || intra <= 0) {
			t.Errorf("superstep %d: %d inter-host and %d intra-host bytes, want both > 0", s, inter, intra)
		}
		for a := range 2 {
			for d := range 2 {
				sent[a][d] += pair[a][d]
			}
		}
		perStep = append(perStep, fmt.Sprintf("%d: %d inter (%d a→b, %d b→a), %d intra", s, inter, pair[0][1], pair[1][0], intra))
	}
	t.Logf("bytes per superstep:\n%s", strings.Join(perStep, "\n"))

	// The traffic crossed the simulated network: what host a sent to b
	// left a's veth (received by its root end) and reached b's (sent by
	// its root end), and the other way round.
	t.Logf("profile: %d bytes a→b, %d b→a; veth a rx %d tx %d, veth b rx %d tx %d",
		sent[0][1], sent[1][0], grow[0][0], grow[0][1], grow[1][0], grow[1][1])
	for i := range 2 {
		out, in := sent[i][1-i], sent[1-i][i]
		if grow[i][0] < out || grow[i][1] < in {
			t.Errorf("host %s: veth %s received %d bytes from it and sent %d to it; the profile has %d bytes out of it and %d into it",
				h.Names[i], h.Veth[i], grow[i][0], grow[i][1], out, in)
		}
	}
}
