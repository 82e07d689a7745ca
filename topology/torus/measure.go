package torus

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Totals summarise per-channel loads.
type Totals struct {
	Names []string // dimension names
	// Per dimension d: the load of its channels, all, "+" and "−".
	Dim, Plus, Minus []int64
	// Per dimension d: its channels, and those with load 0.
	Channels, Idle []int
	Total          int64
	// Max is the largest channel load and MaxChannel its channel (the
	// lowest id on a tie), −1 when the torus has no channel.
	Max        int64
	MaxChannel int
}

// Measure sums loads (one per channel of t, as RoutePairs, Loads and
// ChannelLoads return) per dimension and direction, and finds the idle
// channels and the busiest one.
func Measure(t *Torus, loads []int64) (Totals, error) {
	if len(loads) != t.Channels() {
		return Totals{}, fmt.Errorf("torus: measure: %d loads for the %d channels of %s", len(loads), t.Channels(), t)
	}
	n := len(t.extents)
	m := Totals{
		Names: t.Names(), Dim: make([]int64, n), Plus: make([]int64, n), Minus: make([]int64, n),
		Channels: make([]int, n), Idle: make([]int, n), MaxChannel: -1,
	}
	for id, l := range loads {
		slot := int(t.slots[id])
		d := slot / 2 % n
		m.Dim[d] += l
		if slot%2 == 0 {
			m.Plus[d] += l
		} else {
			m.Minus[d] += l
		}
		m.Channels[d]++
		if l == 0 {
			m.Idle[d]++
		}
		m.Total += l
		if m.MaxChannel < 0 || l > m.Max {
			m.Max, m.MaxChannel = l, id
		}
	}
	return m, nil
}

// String prints the totals as a small table: one line per dimension
// (load, + and −, idle of all channels), a total line and the busiest
// channel.
func (m Totals) String() string {
	rows := [][]string{{"dim", "load", "+", "−", "idle"}}
	var ch, idle int
	for d, name := range m.Names {
		rows = append(rows, []string{name, fmt.Sprint(m.Dim[d]), fmt.Sprint(m.Plus[d]), fmt.Sprint(m.Minus[d]), fmt.Sprintf("%d/%d", m.Idle[d], m.Channels[d])})
		ch += m.Channels[d]
		idle += m.Idle[d]
	}
	rows = append(rows, []string{"all", fmt.Sprint(m.Total), "", "", fmt.Sprintf("%d/%d", idle, ch)})
	width := make([]int, 5)
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		// The name left-aligned, the numbers right-aligned.
		b.WriteString(r[0] + strings.Repeat(" ", width[0]-utf8.RuneCountInString(r[0])))
		for i := 1; i < len(r); i++ {
			b.WriteString(strings.Repeat(" ", 2+width[i]-utf8.RuneCountInString(r[i])) + r[i])
		}
		b.WriteString("\n")
	}
	if m.MaxChannel >= 0 {
		fmt.Fprintf(&b, "max %d on channel %d\n", m.Max, m.MaxChannel)
	}
	return b.String()
}

// NodeInOut returns, per node, the load of the channels leaving it (out)
// and entering it (in): what it sent and received through channels,
// forwarded traffic included.
func NodeInOut(t *Torus, loads []int64) (in, out []int64, err error) {
	if len(loads) != t.Channels() {
		return nil, nil, fmt.Errorf("torus: node in/out: %d loads for the %d channels of %s", len(loads), t.Channels(), t)
	}
	in = make([]int64, t.nodes)
	out = make([]int64, t.nodes)
	for id, l := range loads {
		c := t.Channel(id)
		out[c.Node] += l
		in[c.To] += l
	}
	return in, out, nil
}

// HopBytes is Σ packets · Dist(src, dst) over rows: the channel load
// shortest-path routing puts on the network, equal to the total of
// Loads(t, rows, …) whatever the route options.
func HopBytes(t *Torus, rows []PairRow) (int64, error) {
	var s int64
	for i, r := range rows {
		if r.Src < 0 || r.Src >= t.nodes || r.Dst < 0 || r.Dst >= t.nodes {
			return 0, fmt.Errorf("torus: hop-bytes: row %d: %d→%d: node outside 0..%d", i, r.Src, r.Dst, t.nodes-1)
		}
		s += r.Packets * int64(t.Dist(r.Src, r.Dst))
	}
	return s, nil
}
