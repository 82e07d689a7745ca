// Package display is the one display contract of Superstep: how a value
// shows itself in a notebook.
//
// A value that implements Renderer is shown as rich output (a MIME bundle);
// any other value as text. Show displays a value in the middle of a cell;
// a display created with an id can later be replaced in place with Update,
// which is how progress bars and live pictures work.
//
// Every picture carries a static image, a PNG <img> with a data URL, that
// reads correctly on its own: it survives JupyterLab's and Notebook 6's
// sanitizers (an untrusted notebook) and every nbconvert export, sanitized
// or not. When the front end runs scripts, the browser runtime replaces it
// with the live view and adds interaction. The runtime travels once per
// notebook, in the first live display of a kernel session (Carrier). Save
// writes any picture to an SVG, PNG or HTML file.
//
// The package knows no domain: it draws plain data (text, tables, SVG,
// images, progress, and series, matrices and hierarchies as trend small
// multiples, chord diagrams, treemaps and a dashboard linking them). Domain
// packages build their pictures on top of it. Layout is computed here, in Go,
// and tested (ChordLayout, SquarifiedLayout); the runtime only draws it.
package display

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"io"
	"os"
	"reflect"
)

// Bundle is a MIME bundle: the same content in several formats, keyed by
// MIME type, and optional metadata per type.
type Bundle struct {
	Data     map[string]any
	Metadata map[string]any
	// NeedsRuntime says that the text/html calls the browser runtime,
	// which the kernel adds to the first such display of a session (see
	// Carrier). It is not sent to the front end.
	NeedsRuntime bool
}

// Text returns the bundle's text/plain form, or "".
func (b Bundle) Text() string {
	s, _ := b.Data["text/plain"].(string)
	return s
}

// MIMEBundle returns b itself, so a Bundle is a Renderer too (a function
// returning a Renderer can return an error message as a TextBundle).
func (b Bundle) MIMEBundle() Bundle { return b }

// Renderer is implemented by values that show themselves as rich output.
type Renderer interface {
	MIMEBundle() Bundle
}

// Sink receives displays. The kernel provides one per session; outside the
// kernel, displays print their text form to standard output.
type Sink interface {
	// Display shows a bundle. A non-empty id lets Update replace it later.
	Display(b Bundle, id string) error
	// Update replaces the display shown with id.
	Update(b Bundle, id string) error
	// Clear clears the cell's output; wait defers it to the next output.
	Clear(wait bool) error
	// Page shows a bundle in the front end's pager (help panel).
	Page(b Bundle) error
}

// BundleOf returns the bundle that shows v: its own for a Renderer (a
// Bundle is one), a PNG for an image.Image, a table for an Arrow table or
// record, text for anything else.
func BundleOf(v any) Bundle {
	switch x := v.(type) {
	case Renderer:
		if isNilPointer(v) {
			return TextBundle("<nil>")
		}
		return x.MIMEBundle()
	case image.Image:
		return Image(x).MIMEBundle()
	case error:
		return TextBundle(x.Error())
	case string:
		return TextBundle(x)
	}
	if b, ok := TableOf(v); ok {
		return b
	}
	return TextBundle(fmt.Sprintf("%+v", v))
}

// Render returns r's bundle. In a notebook cell it is how a value of a type
// defined in the cell shows itself: the interpreter hands such a value to
// compiled code with its methods only through a parameter of interface
// type, so write display.Render(v) (or display.Show(display.Render(v)))
// where a compiled type would need nothing.
func Render(r Renderer) Bundle {
	if r == nil || isNilPointer(r) {
		return TextBundle("<nil>")
	}
	return r.MIMEBundle()
}

func isNilPointer(v any) bool {
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// TextBundle is a bundle with only text/plain.
func TextBundle(s string) Bundle {
	return Bundle{Data: map[string]any{"text/plain": s}}
}

// Output shows values on a Sink. Cells use the package-level functions
// (Show, Update, NewProgress, ...), which the kernel binds to the cell's
// output; compiled code that displays while it runs takes an *Output.
type Output struct {
	sink Sink
}

// On returns an Output that shows on sink.
func On(sink Sink) *Output { return &Output{sink: sink} }

// Sink returns where the output goes.
func (o *Output) Sink() Sink { return o.sink }

// Show displays v now, in the middle of the cell.
func (o *Output) Show(v any) { o.report(o.sink.Display(BundleOf(v), "")) }

// ShowWithID displays v under an id that Update can replace later, and
// returns the id.
func (o *Output) ShowWithID(v any) string {
	id := NewID()
	o.report(o.sink.Display(BundleOf(v), id))
	return id
}

// Update replaces the display shown under id with v.
func (o *Output) Update(id string, v any) { o.report(o.sink.Update(BundleOf(v), id)) }

// Clear clears the cell's output. With wait, the clearing happens when the
// next output arrives, which avoids flicker in animations.
func (o *Output) Clear(wait bool) { o.report(o.sink.Clear(wait)) }

// Page shows v in the front end's pager.
func (o *Output) Page(v any) { o.report(o.sink.Page(BundleOf(v))) }

// NewProgress shows a progress bar for total steps, updated in place.
func (o *Output) NewProgress(total int, label string) *Progress {
	return newProgress(o, total, label)
}

func (o *Output) report(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "display: %v\n", err)
	}
}

// textSink prints text/plain forms to a writer: displays outside a kernel.
type textSink struct{ w io.Writer }

func (t textSink) Display(b Bundle, _ string) error {
	_, err := fmt.Fprintln(t.w, b.Text())
	return err
}
func (t textSink) Update(b Bundle, id string) error { return t.Display(b, id) }
func (t textSink) Clear(bool) error                 { return nil }
func (t textSink) Page(b Bundle) error              { return t.Display(b, "") }

// TextOutput returns an Output that prints the text form of displays to w.
func TextOutput(w io.Writer) *Output { return On(textSink{w}) }

// Here returns the Output of the running cell. In the kernel it is the
// notebook; in compiled programs, standard output as text.
func Here() *Output { return TextOutput(os.Stdout) }

// Show displays v now. In a notebook cell the kernel binds it to the cell.
func Show(v any) { Here().Show(v) }

// ShowWithID displays v under a new id and returns the id, for Update.
func ShowWithID(v any) string { return Here().ShowWithID(v) }

// Update replaces the display shown under id with v.
func Update(id string, v any) { Here().Update(id, v) }

// Clear clears the cell's output (wait: at the next output).
func Clear(wait bool) { Here().Clear(wait) }

// Page shows v in the front end's pager.
func Page(v any) { Here().Page(v) }

// NewProgress shows a progress bar for total steps, updated in place.
func NewProgress(total int, label string) *Progress { return Here().NewProgress(total, label) }

// contentID is the element id of a live display: derived from what it
// shows, so that a re-executed notebook stores the same bytes. Two equal
// displays share it; the runtime finds each by the script beside it.
func contentID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return "ss-" + hex.EncodeToString(h.Sum(nil)[:12])
}

// NewID returns a fresh display id, for displays updated in place (the
// front end keeps such ids with the output while the kernel runs; they
// are not stored in the notebook).
func NewID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never on Linux
	}
	return "ss-" + hex.EncodeToString(b[:])
}

// htmlEscape escapes text for HTML content and attributes.
func htmlEscape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// truncate shortens s to n runes with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
