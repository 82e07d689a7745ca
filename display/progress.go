package display

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
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
	html := fmt.Sprintf(`<div class="superstep-progress" style="display:flex;gap:8px;align-items:center">%s<span style="font-family:monospace">%s</span></div>`,
		progressImage(frac), html.EscapeString(status))
	bar := strings.Repeat("█", int(frac*20+0.5)) + strings.Repeat("░", 20-int(frac*20+0.5))
	return Bundle{Data: map[string]any{"text/html": html, "text/plain": bar + " " + status}}
}

// progressImage draws a bar filled to frac as a PNG <img> (a data URL,
// which every sanitizer keeps): a grey track with a border, filled in
// blue from the left.
func progressImage(frac float64) string {
	const w, h = 300, 14
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{
		color.White,
		color.RGBA{0x99, 0x99, 0x99, 0xff}, // border
		color.RGBA{0xee, 0xee, 0xee, 0xff}, // track
		color.RGBA{0x4c, 0x78, 0xa8, 0xff}, // fill
	})
	fill := 1 + int(frac*float64(w-2)+0.5)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := uint8(2)
			switch {
			case x == 0 || y == 0 || x == w-1 || y == h-1:
				c = 1
			case x < fill:
				c = 3
			}
			img.SetColorIndex(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Sprintf("%.0f%%", 100*frac) // never for an in-memory paletted image
	}
	return fmt.Sprintf(`<img alt="%.0f%%" width="%d" height="%d" src="data:image/png;base64,%s"/>`,
		100*frac, w, h, base64.StdEncoding.EncodeToString(b.Bytes()))
}
