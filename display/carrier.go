package display

import (
	"strings"
	"sync"
)

// Carrier decides which display carries the browser runtime (RuntimeJS).
// A notebook needs it once, before or after its live displays: the first
// live display of a kernel session carries it, and the others queue for it
// (see liveCall). The carrier is chosen again whenever the output that
// holds the runtime may be gone: its cell cleared its output, ran again or
// was deleted. A display updated in place keeps it in every update.
//
// The kernel keeps one Carrier per session and passes every bundle it
// sends through Prepare. Its methods are safe for concurrent use.
type Carrier struct {
	mu sync.Mutex
	// run is the execute request running now; cell its front-end cell id
	// ("" when the front end sends none, as Notebook 6 does).
	run  int
	cell string
	// The output that holds the runtime: the request and cell it was
	// shown in and its display id ("" for none). held is false when no
	// output is known to hold it.
	held                bool
	heldRun             int
	heldCell, displayID string
}

// BeginCell tells the carrier that an execute request starts, from the
// front-end cell with id cellID ("" if unknown), after the front end
// deleted the cells deleted (JupyterLab says so in the request's
// metadata). If the cell that holds the runtime runs again or is gone, its
// output will be replaced: the next live display carries the runtime.
func (c *Carrier) BeginCell(cellID string, deleted []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.run++
	c.cell = cellID
	if !c.held || c.heldCell == "" {
		return
	}
	if c.heldCell == cellID {
		c.held = false
	}
	for _, d := range deleted {
		if d == c.heldCell {
			c.held = false
		}
	}
}

// Cleared tells the carrier that the running cell cleared its output.
func (c *Carrier) Cleared() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held && c.heldRun == c.run {
		c.held = false
	}
}

// ViewMIME is the MIME type of Superstep's live views, which its
// JupyterLab extension (lab/) renders in JupyterLab and Notebook, trusted
// or not. Its data is {"version": ViewVersion}; the views themselves
// (each static picture and the spec the extension draws it from) are the
// bundle's text/html, stored once for every front end.
const ViewMIME = "application/vnd.superstep.view+json"

// ViewVersion is the version of the views' HTML that ViewMIME announces.
const ViewVersion = 1

// Prepare returns b as it should be sent. A bundle whose HTML holds live
// views gets ViewMIME, and the runtime in front of its HTML if no output
// holds it yet or if b replaces (displayID) the output that holds it.
func (c *Carrier) Prepare(b Bundle, displayID string) Bundle {
	if !b.NeedsRuntime {
		return b
	}
	html, ok := b.Data["text/html"].(string)
	if !ok {
		return b
	}
	b = withData(b, ViewMIME, map[string]any{"version": ViewVersion})
	c.mu.Lock()
	defer c.mu.Unlock()
	replacesHolder := c.held && displayID != "" && displayID == c.displayID
	if c.held && !replacesHolder {
		return b
	}
	c.held, c.heldRun, c.heldCell, c.displayID = true, c.run, c.cell, displayID
	return withData(b, "text/html", runtimeScript()+html)
}

// WithRuntime returns b with the runtime in its HTML: a display that works
// on its own (an exported page, a saved file).
func WithRuntime(b Bundle) Bundle {
	html, ok := b.Data["text/html"].(string)
	if !ok || !b.NeedsRuntime {
		return b
	}
	return withData(b, "text/html", runtimeScript()+html)
}

// withData returns b with data[mime] = v, b's own map unchanged.
func withData(b Bundle, mime string, v any) Bundle {
	data := make(map[string]any, len(b.Data)+1)
	for k, x := range b.Data {
		data[k] = x
	}
	data[mime] = v
	b.Data = data
	return b
}

// runtimeScript is the runtime in a <script> element.
func runtimeScript() string {
	// "</script" cannot occur inside a script element.
	js := strings.ReplaceAll(RuntimeJS, "</script", `<\/script`)
	return "<script type=\"text/javascript\">\n" + js + "\n</script>"
}
