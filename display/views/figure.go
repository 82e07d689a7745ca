package views

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"superstep/display"
	"superstep/display/views/internal/raster"
)

// A figure is what every picture hands to the one mechanism that shows,
// exports and saves pictures: its SVG document, its text alternative, and
// the runtime view and spec that make it live.
//
// Shown in a notebook, a figure is one text/html output: a <div> holding
// the static picture as a PNG <img> (a data URL: JupyterLab's and Notebook
// 6's sanitizers keep it, and so does nbconvert --sanitize-html, which
// strips SVG data URLs), then a short script that asks the browser runtime
// to replace the picture with the live view drawn from the spec. The
// picture is stored once (no image/svg+xml beside it) and the runtime is
// not in the output at all: the kernel adds it to the first live display
// of a session (see Carrier).
type figure struct {
	svg string // a complete <svg> document, the picture
	// makeSVG, if set, writes the SVG on demand (for figures whose SVG is
	// big and rarely needed: the static picture comes from raster).
	makeSVG func() string
	alt     string // text alternative
	text    string // text/plain form ("" = alt)
	kind    string // runtime view
	spec    any    // what the runtime draws from (nil: the SVG itself)
	// raster, if set, draws the picture at scale pixels per px instead of
	// rasterising svg (a big drawing's SVG is slow to parse).
	raster func(scale float64) (*image.RGBA, error)
	err    error // why there is no picture
	// scales are the domains of the quantities the picture encodes
	// ("packets": [0, 4000]), written on its root as data-scales: the
	// views of one comparison must agree on them (the picture linter
	// checks).
	scales map[string][2]float64
}

// figureView is implemented by the views that are pictures.
type figureView interface {
	figure() figure
}

// StaticScale is the pixel density of the static pictures stored in
// notebooks: PNG pixels per CSS px.
const StaticScale = 1

// pngOf encodes img as PNG: paletted when it has at most 256 colours,
// else RGBA.
func pngOf(img *image.RGBA) ([]byte, error) {
	var src image.Image = img
	if p := paletted(img, 256); p != nil {
		src = p
	}
	return encodePNG(src)
}

// compactPNG encodes img as a paletted PNG of at most 256 colours: the
// most frequent ones, every other pixel mapped to the nearest of them.
// Views are flat colours with anti-aliased edges, so the palette holds
// every fill and the common edge shades, and the picture reads the same
// at a third of the bytes: what notebooks store.
func compactPNG(img *image.RGBA) ([]byte, error) {
	if p := paletted(img, 256); p != nil {
		return encodePNG(p)
	}
	return encodePNG(quantize(img, 256))
}

func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("encode PNG: %w", err)
	}
	return b.Bytes(), nil
}

// quantize maps img to its n most frequent colours (ties by colour value,
// so the result is deterministic), each other colour to the nearest of
// them in premultiplied RGBA.
func quantize(img *image.RGBA, n int) *image.Paletted {
	r := img.Bounds()
	count := map[uint32]int{}
	pixel := func(row []uint8, x int) uint32 {
		return uint32(row[4*x])<<24 | uint32(row[4*x+1])<<16 | uint32(row[4*x+2])<<8 | uint32(row[4*x+3])
	}
	for y := 0; y < r.Dy(); y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < r.Dx(); x++ {
			count[pixel(row, x)]++
		}
	}
	colours := make([]uint32, 0, len(count))
	for c := range count {
		colours = append(colours, c)
	}
	slices.SortFunc(colours, func(a, b uint32) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return cmp.Compare(a, b)
	})
	pal := colours[:min(n, len(colours))]
	index := make(map[uint32]uint8, len(colours))
	for i, c := range pal {
		index[c] = uint8(i)
	}
	nearest := func(c uint32) uint8 {
		best, bd := 0, math.MaxInt
		for i, p := range pal {
			d := 0
			for sh := 0; sh < 32; sh += 8 {
				e := int(c>>sh&0xff) - int(p>>sh&0xff)
				d += e * e
			}
			if d < bd {
				best, bd = i, d
			}
		}
		return uint8(best)
	}
	out := image.NewPaletted(r, nil)
	for _, c := range pal {
		out.Palette = append(out.Palette, premultiplied(c))
	}
	for y := 0; y < r.Dy(); y++ {
		row := img.Pix[y*img.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < r.Dx(); x++ {
			c := pixel(row, x)
			i, ok := index[c]
			if !ok {
				i = nearest(c)
				index[c] = i
			}
			dst[x] = i
		}
	}
	return out
}

// paletted returns img as a paletted image when it has at most max
// distinct colours, else nil.
func paletted(img *image.RGBA, max int) *image.Paletted {
	index := map[uint32]uint8{}
	var pal []uint32
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[(y-r.Min.Y)*img.Stride : (y-r.Min.Y)*img.Stride+4*r.Dx()]
		for x := 0; x < len(row); x += 4 {
			c := uint32(row[x])<<24 | uint32(row[x+1])<<16 | uint32(row[x+2])<<8 | uint32(row[x+3])
			if _, ok := index[c]; ok {
				continue
			}
			if len(pal) == max {
				return nil
			}
			index[c] = uint8(len(pal))
			pal = append(pal, c)
		}
	}
	p := image.NewPaletted(r, nil)
	for _, c := range pal {
		p.Palette = append(p.Palette, premultiplied(c))
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[(y-r.Min.Y)*img.Stride:]
		out := p.Pix[(y-r.Min.Y)*p.Stride:]
		for x := 0; x < r.Dx(); x++ {
			c := uint32(row[4*x])<<24 | uint32(row[4*x+1])<<16 | uint32(row[4*x+2])<<8 | uint32(row[4*x+3])
			out[x] = index[c]
		}
	}
	return p
}

// premultiplied is the colour of an RGBA pixel (whose bytes are already
// alpha-premultiplied) as a color.RGBA.
func premultiplied(c uint32) color.RGBA {
	return color.RGBA{uint8(c >> 24), uint8(c >> 16), uint8(c >> 8), uint8(c)}
}

// render draws the figure at scale pixels per px.
func (f figure) render(scale float64) (*image.RGBA, error) {
	if f.err != nil {
		return nil, f.err
	}
	if f.raster != nil {
		return f.raster(scale)
	}
	return raster.Render([]byte(f.SVG()), scale)
}

// png encodes the figure at scale pixels per px.
func (f figure) png(scale float64) ([]byte, error) {
	img, err := f.render(scale)
	if err != nil {
		return nil, err
	}
	return pngOf(img)
}

// SVG is the figure's SVG document.
func (f figure) SVG() string {
	if f.makeSVG != nil {
		return f.makeSVG()
	}
	return f.svg
}

// specJSON is the figure's spec as JSON; a figure without a spec gives its
// SVG to the runtime.
func (f figure) specJSON() string {
	spec := f.spec
	if spec == nil {
		spec = map[string]string{"svg": f.SVG()}
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return "null"
	}
	return string(b)
}

// MIMEBundle shows the figure: its static PNG and the call that makes it
// live (see figure). A figure whose picture cannot be drawn shows why, as
// text.
func (f figure) MIMEBundle() display.Bundle {
	text := f.text
	if text == "" {
		text = f.alt
	}
	if f.err != nil {
		return display.TextBundle(f.err.Error())
	}
	img, err := f.render(StaticScale)
	if err != nil {
		return display.TextBundle(fmt.Sprintf("views: cannot draw %s: %v", f.kind, err))
	}
	pic, err := compactPNG(img)
	if err != nil {
		return display.TextBundle(fmt.Sprintf("views: cannot draw %s: %v", f.kind, err))
	}
	width, height := float64(img.Bounds().Dx())/StaticScale, float64(img.Bounds().Dy())/StaticScale
	spec := packSpec(f.specJSON())
	b64 := base64.StdEncoding.EncodeToString(pic)
	id := contentID(f.kind, f.alt, b64, spec)
	if dir := os.Getenv(FigureSVGDirEnv); dir != "" {
		f.writeSVG(dir, id)
	}
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="superstep-display" id="%s" data-kind="%s"%s>`, id, html.EscapeString(f.kind), scalesAttr(f.scales))
	fmt.Fprintf(&h, `<img alt="%s" width="%d" height="%d" src="data:image/png;base64,%s" style="max-width:100%%;height:auto"/></div>`,
		html.EscapeString(f.alt), int(math.Round(width)), int(math.Round(height)), b64)
	h.WriteString(liveCall(id, f.kind, spec))
	return display.Bundle{
		Data:         map[string]any{"text/html": h.String(), "text/plain": text},
		NeedsRuntime: true,
	}
}

// FigureSVGDirEnv names the environment variable that, when set to a
// directory, has every picture shown write its SVG document there as
// <display id>.svg: the picture the static PNG is drawn from, for the
// picture linter to check what a reader of an exported notebook sees
// (.ci/test.sh sets it while it runs the notebooks).
const FigureSVGDirEnv = "SUPERSTEP_FIGURE_SVG_DIR"

// writeSVG writes the figure's SVG document to dir/id.svg; a failure is
// reported on stderr, the display is shown all the same.
func (f figure) writeSVG(dir, id string) {
	svg := f.svg
	if svg == "" && f.makeSVG != nil {
		svg = f.makeSVG()
	}
	if svg == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, id+".svg"), []byte(svg), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "views: %s: %v\n", FigureSVGDirEnv, err)
	}
}

// scalesAttr is the data-scales attribute of a figure's root ("" when it
// has no scales): a JSON object, keys sorted.
func scalesAttr(scales map[string][2]float64) string {
	if len(scales) == 0 {
		return ""
	}
	b, err := json.Marshal(scales)
	if err != nil {
		return ""
	}
	return fmt.Sprintf(` data-scales="%s"`, html.EscapeString(string(b)))
}

// SpecMIME is the type of the <script> element that holds a live
// display's spec, right after the display's <div>: data, never run. The
// front ends that run Superstep's extension read it from there (with the
// static picture before it), and so does the call after it in a page that
// runs scripts (a notebook exported to HTML): the spec is stored once.
const SpecMIME = "application/vnd.superstep.spec+json"

// liveCall is what follows a live display's <div>: its spec as JSON data
// (SpecMIME), then the script that hands the display to the runtime, or
// queues it until the runtime has loaded (the runtime is in an earlier or
// later output of the notebook; without it the static picture stays). The
// spec is JSON from encoding/json, whose output never holds "<", so it
// cannot end its element early.
func liveCall(id, kind, spec string) string {
	return fmt.Sprintf("<script type=\"%s\">%s</script>", SpecMIME, spec) +
		fmt.Sprintf("<script type=\"text/javascript\">(function(c){var j=c.previousElementSibling,a=[%q,%q,JSON.parse(j.textContent),j],s=window.superstep;if(s&&s.live)s.live.apply(s,a);else(window.superstepPending=window.superstepPending||[]).push(a)})(document.currentScript);</script>",
			id, kind)
}

// whiteRGBA returns a w×h opaque white image.
func whiteRGBA(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	return img
}

// errorSVG is a picture that says why there is none.
func errorSVG(err error) string {
	var w svgw
	w.open(drawingWidth, 60, "hatch")
	w.text(4, 30, err.Error(), fmt.Sprintf(` fill="%s"`, inkColor))
	w.close()
	return w.String()
}

// rasterSize is an SVG document's size in px.
func rasterSize(svg string) (w, h float64, err error) { return raster.Size([]byte(svg)) }

// packedSpecMin is the size from which a spec is stored compressed.
const packedSpecMin = 4096

// packSpec returns a spec of packedSpecMin bytes or more as
// {"deflate":"<base64 of its zlib stream>"}, which the runtime inflates
// (DecompressionStream) before drawing: a spec of numbers shrinks three- to
// fourfold, and notebooks stay light. Smaller specs stay as they are.
func packSpec(spec string) string {
	if len(spec) < packedSpecMin {
		return spec
	}
	var b bytes.Buffer
	z, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	z.Write([]byte(spec))
	z.Close()
	return `{"deflate":"` + base64.StdEncoding.EncodeToString(b.Bytes()) + `"}`
}
