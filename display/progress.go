package display

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Progress is a progress bar that updates in place.
type Progress struct {
	out   *Output
	id    string
	total int
	label string

	mu       sync.Mutex
	done     int
	started  time.Time
	lastSent time.Time
	finished bool
}

// progressInterval is the least time between two updates sent to the front
// end: a loop of a million steps sends at most ten updates a second.
const progressInterval = 100 * time.Millisecond

func newProgress(o *Output, total int, label string) *Progress {
	if total < 0 {
		total = 0
	}
	p := &Progress{out: o, id: NewID(), total: total, label: label, started: time.Now()}
	p.lastSent = p.started
	o.report(o.sink.Display(p.MIMEBundle(), p.id))
	return p
}

// Add advances the bar by n steps.
func (p *Progress) Add(n int) { p.set(func() { p.done += n }) }

// Set sets the steps done.
func (p *Progress) Set(done int) { p.set(func() { p.done = done }) }

// Done completes the bar.
func (p *Progress) Done() {
	p.set(func() {
		p.done = p.total
		p.finished = true
	})
}

// Finish ends the bar where it is, as complete (for work that ended before
// the total it was shown against), with a new label.
func (p *Progress) Finish(label string) {
	p.set(func() {
		p.total = p.done
		p.label = label
		p.finished = true
	})
}

// ID is the bar's display id.
func (p *Progress) ID() string { return p.id }

func (p *Progress) set(change func()) {
	p.mu.Lock()
	change()
	if p.done > p.total {
		p.done = p.total
	}
	if p.done == p.total {
		p.finished = true
	}
	now := time.Now()
	send := p.finished || now.Sub(p.lastSent) >= progressInterval
	if send {
		p.lastSent = now
	}
	p.mu.Unlock()
	if send {
		p.out.report(p.out.sink.Update(p.MIMEBundle(), p.id))
	}
}

// MIMEBundle implements Renderer: a bar as a static picture with the counts.
func (p *Progress) MIMEBundle() Bundle {
	p.mu.Lock()
	done, total, label, elapsed := p.done, p.total, p.label, time.Since(p.started)
	p.mu.Unlock()
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	status := fmt.Sprintf("%d/%d (%.0f%%) %s", done, total, 100*frac, elapsed.Round(100*time.Millisecond))
	if label != "" {
		status = label + " " + status
	}
	const w, h = 300, 14
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+
		`<rect x="0.5" y="0.5" width="%d" height="%d" rx="3" fill="#eee" stroke="#999"/>`+
		`<rect x="1" y="1" width="%.1f" height="%d" rx="3" fill="#4c78a8"/></svg>`,
		w, h, w, h, w-1, h-1, frac*float64(w-2), h-2)
	html := fmt.Sprintf(`<div class="superstep-progress" style="display:flex;gap:8px;align-items:center">%s<span style="font-family:monospace">%s</span></div>`,
		staticImage(svg, fmt.Sprintf("%.0f%%", 100*frac)), htmlEscape(status))
	bar := strings.Repeat("█", int(frac*20+0.5)) + strings.Repeat("░", 20-int(frac*20+0.5))
	return Bundle{Data: map[string]any{"text/html": html, "text/plain": bar + " " + status}}
}
