package cluster

import (
	"testing"
	"time"
)

func TestRegularCluster(t *testing.T) {
	c, err := New(2, 3, 2) // 2 racks × 3 hosts × 2 workers = 12 workers
	if err != nil {
		t.Fatal(err)
	}
	if c.NumWorkers() != 12 || len(c.Hosts) != 6 || len(c.Racks) != 2 {
		t.Fatalf("%d workers, %d hosts, %d racks", c.NumWorkers(), len(c.Hosts), len(c.Racks))
	}
	if c.HostOf(5) != 2 || c.RackOf(5) != 0 || c.RackOf(6) != 1 || c.Hosts[3].Name != "r1h0" {
		t.Fatal("hierarchy")
	}
	for _, tc := range []struct {
		a, b int
		want Level
	}{{0, 0, SameWorker}, {0, 1, SameHost}, {0, 2, SameRack}, {0, 6, CrossRack}} {
		if got := c.Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%d,%d) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := New(0, 1, 1); err == nil {
		t.Fatal("empty cluster accepted")
	}
}

func TestNetworkTime(t *testing.T) {
	n := Network{CrossRack: Link{BytesPerSecond: 1e6, Latency: time.Millisecond}}
	if got := n.Time(CrossRack, 500_000); got != 501*time.Millisecond {
		t.Fatalf("cross-rack time %v", got)
	}
	if n.Time(SameHost, 1<<20) != 0 || n.Time(CrossRack, 0) != 0 || n.Time(SameWorker, 1e9) != 0 {
		t.Fatal("free links cost time")
	}
}
