// Package cluster models the machines a BSP job runs on: racks of hosts,
// hosts running workers (the inclusion tree of GiViP), and an optional
// network model that turns the bytes sent between two workers into time
// according to how far apart they are (same host, same rack, across racks).
package cluster

import (
	"fmt"
	"time"
)

// Cluster is an inclusion tree: every worker is on one host, every host in
// one rack. Workers, hosts and racks are numbered densely from 0.
type Cluster struct {
	Racks   []Rack
	Hosts   []Host
	Workers []Worker
}

// Rack is a rack of hosts.
type Rack struct{ Name string }

// Host is a machine in a rack.
type Host struct {
	Name string
	Rack int
}

// Worker is one computing unit (a goroutine in the engine) on a host.
type Worker struct {
	Name string
	Host int
}

// New builds a regular cluster: racks × hostsPerRack hosts, each running
// workersPerHost workers. Names are r0, r0h1 (host 1 of rack 0) and w5.
func New(racks, hostsPerRack, workersPerHost int) (*Cluster, error) {
	if racks < 1 || hostsPerRack < 1 || workersPerHost < 1 {
		return nil, fmt.Errorf("cluster.New(%d, %d, %d): every count must be at least 1", racks, hostsPerRack, workersPerHost)
	}
	c := &Cluster{}
	for r := 0; r < racks; r++ {
		c.Racks = append(c.Racks, Rack{Name: fmt.Sprintf("r%d", r)})
		for h := 0; h < hostsPerRack; h++ {
			host := len(c.Hosts)
			c.Hosts = append(c.Hosts, Host{Name: fmt.Sprintf("r%dh%d", r, h), Rack: r})
			for w := 0; w < workersPerHost; w++ {
				c.Workers = append(c.Workers, Worker{Name: fmt.Sprintf("w%d", len(c.Workers)), Host: host})
			}
		}
	}
	return c, nil
}

// Single is one host in one rack with n workers.
func Single(workers int) (*Cluster, error) { return New(1, 1, workers) }

// Validate checks that every index points somewhere.
func (c *Cluster) Validate() error {
	if len(c.Workers) == 0 {
		return fmt.Errorf("cluster has no workers")
	}
	for i, h := range c.Hosts {
		if h.Rack < 0 || h.Rack >= len(c.Racks) {
			return fmt.Errorf("host %d (%s) is in rack %d, which does not exist", i, h.Name, h.Rack)
		}
	}
	for i, w := range c.Workers {
		if w.Host < 0 || w.Host >= len(c.Hosts) {
			return fmt.Errorf("worker %d (%s) is on host %d, which does not exist", i, w.Name, w.Host)
		}
	}
	return nil
}

// NumWorkers is the number of workers.
func (c *Cluster) NumWorkers() int { return len(c.Workers) }

// HostOf is the host of worker w.
func (c *Cluster) HostOf(w int) int { return c.Workers[w].Host }

// RackOf is the rack of worker w.
func (c *Cluster) RackOf(w int) int { return c.Hosts[c.Workers[w].Host].Rack }

// Level says how far apart two workers are.
type Level int

// The distances between two workers.
const (
	SameWorker Level = iota
	SameHost
	SameRack
	CrossRack
)

func (l Level) String() string {
	return [...]string{"same worker", "same host", "same rack", "across racks"}[l]
}

// Distance is how far apart workers a and b are.
func (c *Cluster) Distance(a, b int) Level {
	switch {
	case a == b:
		return SameWorker
	case c.HostOf(a) == c.HostOf(b):
		return SameHost
	case c.RackOf(a) == c.RackOf(b):
		return SameRack
	}
	return CrossRack
}

// Link is the speed of the connection between two workers at one level.
type Link struct {
	BytesPerSecond float64 // 0 means infinitely fast
	Latency        time.Duration
}

// Network turns traffic into time, per level. The zero Network costs
// nothing (the engine's default).
type Network struct {
	SameHost, SameRack, CrossRack Link
}

// TypicalNetwork is a commodity cluster: shared memory within a host
// (10 GB/s, 1 µs), 10 Gbit/s within a rack (50 µs), 1 Gbit/s across racks
// (200 µs).
func TypicalNetwork() Network {
	return Network{
		SameHost:  Link{BytesPerSecond: 10e9, Latency: time.Microsecond},
		SameRack:  Link{BytesPerSecond: 1.25e9, Latency: 50 * time.Microsecond},
		CrossRack: Link{BytesPerSecond: 125e6, Latency: 200 * time.Microsecond},
	}
}

// Time is how long sending bytes from a to b takes in one superstep: the
// link's latency once (if anything is sent) plus bytes over bandwidth.
func (n Network) Time(l Level, bytes int64) time.Duration {
	if bytes <= 0 || l == SameWorker {
		return 0
	}
	var link Link
	switch l {
	case SameHost:
		link = n.SameHost
	case SameRack:
		link = n.SameRack
	default:
		link = n.CrossRack
	}
	t := link.Latency
	if link.BytesPerSecond > 0 {
		t += time.Duration(float64(bytes) / link.BytesPerSecond * float64(time.Second))
	}
	return t
}
