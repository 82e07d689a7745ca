// Package display is Superstep's display contract: how a value shows
// itself in a notebook. The kernel speaks it; every view builds on it. It
// uses the standard library only and knows nothing else of Superstep.
//
//   - Bundle, Renderer: a MIME bundle, and a value that shows itself as one
//     (any other value shows as text: BundleOf).
//   - Sink, Output: where displays go. The kernel gives each session a Sink;
//     Show, ShowWithID, Update, Clear and Page show on it (outside a kernel,
//     on standard output).
//   - Carrier, RuntimeJS: the browser runtime, added by the kernel to the
//     first live display of a session.
//   - The plain formats: HTML, Markdown, JSON, PNG and Image, Table, and
//     NewProgress, a bar updated in place.
//   - FormatNumber and FormatBytes: the one way numbers and sizes are
//     written, in text and pictures alike.
//
// The pictures (trends, chords, rings, fat-tree boards, timelines,
// drawings, animations), Save and Row live in the package views beside
// this one.
package display

import (
	"crypto/rand"
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
// Bundle is one), a PNG for an image.Image, text for anything else. (An
// Output made with OnWith asks its own formatter first: that is how a
// kernel session shows an Arrow table as a table.)
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
	rich func(v any) (Bundle, bool)
}

// On returns an Output that shows on sink.
func On(sink Sink) *Output { return &Output{sink: sink} }

// OnWith returns an Output that shows on sink and, for a value that is no
// Renderer, asks rich for its bundle first (false: BundleOf's). The
// contract knows no domain type; whoever makes the Output does, as a
// kernel session knows Arrow tables.
func OnWith(sink Sink, rich func(v any) (Bundle, bool)) *Output {
	return &Output{sink: sink, rich: rich}
}

// bundleOf is BundleOf, after o's own formatter.
func (o *Output) bundleOf(v any) Bundle {
	if _, ok := v.(Renderer); !ok && o.rich != nil {
		if b, ok := o.rich(v); ok {
			return b
		}
	}
	return BundleOf(v)
}

// Sink returns where the output goes.
func (o *Output) Sink() Sink { return o.sink }

// Show displays v now, in the middle of the cell.
func (o *Output) Show(v any) { o.report(o.sink.Display(o.bundleOf(v), "")) }

// ShowWithID displays v under an id that Update can replace later, and
// returns the id.
func (o *Output) ShowWithID(v any) string {
	id := NewID()
	o.report(o.sink.Display(o.bundleOf(v), id))
	return id
}

// Update replaces the display shown under id with v.
func (o *Output) Update(id string, v any) { o.report(o.sink.Update(o.bundleOf(v), id)) }

// Clear clears the cell's output. With wait, the clearing happens when the
// next output arrives, which avoids flicker in animations.
func (o *Output) Clear(wait bool) { o.report(o.sink.Clear(wait)) }

// Page shows v in the front end's pager.
func (o *Output) Page(v any) { o.report(o.sink.Page(o.bundleOf(v))) }

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

// truncate shortens s to n runes with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
