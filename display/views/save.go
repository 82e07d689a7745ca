package views

import (
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"

	"superstep/display"
)

// A SaveOption sets how Save draws a picture.
type SaveOption func(*saveOptions)

type saveOptions struct {
	width float64 // px of the output (0: the picture's own)
	scale float64 // PNG pixels per px
}

// Width makes the saved picture px wide, its height in proportion: the
// PNG's width in pixels, or the SVG's width attribute. It overrides Scale.
func Width(px int) SaveOption { return func(o *saveOptions) { o.width = float64(px) } }

// Scale sets a PNG's pixels per px of the picture (default 2, for print
// and high-density screens).
func Scale(s float64) SaveOption { return func(o *saveOptions) { o.scale = s } }

// Save writes v to a file whose format the extension names:
//
//   - .svg: the picture as an SVG document;
//   - .png: the picture as a PNG, 2 pixels per px unless Width or Scale
//     says otherwise;
//   - .html: a self-contained page that shows v live (the runtime is
//     inlined; it needs no network), for any value a cell can show.
//
// Any view of this package or of the SDK is a picture. An unknown
// extension, a value that is no picture saved as .svg or .png, a size out
// of range or a file that cannot be written is an error that says so.
func Save(v any, path string, options ...SaveOption) error {
	o := saveOptions{scale: 2}
	for _, opt := range options {
		opt(&o)
	}
	if !(o.scale > 0 && o.scale <= 16) {
		return fmt.Errorf("views.Save %s: scale %v outside (0, 16]", path, o.scale)
	}
	if o.width < 0 || o.width > 20000 {
		return fmt.Errorf("views.Save %s: width %v px outside 1..20000", path, o.width)
	}
	data, err := encodeFor(v, path, o)
	if err != nil {
		return fmt.Errorf("views.Save %s: %w", path, err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("views.Save: %w", err)
	}
	return nil
}

func encodeFor(v any, path string, o saveOptions) ([]byte, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".html", ".htm":
		return []byte(standaloneHTML(v, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))), nil
	case ".svg", ".png":
	default:
		if ext == "" {
			return nil, fmt.Errorf("no extension: name the file .svg, .png or .html")
		}
		return nil, fmt.Errorf("unknown extension %q: want .svg, .png or .html", ext)
	}
	f, ok := figureOf(v)
	if !ok {
		return nil, fmt.Errorf("a %T is not a picture: save it as .html", v)
	}
	if f.err != nil {
		return nil, f.err
	}
	if ext == ".svg" {
		return []byte(sizedSVG(f.SVG(), o.width)), nil
	}
	scale := o.scale
	if o.width > 0 {
		w, _, err := f.size()
		if err != nil {
			return nil, err
		}
		scale = o.width / w
	}
	return f.png(scale)
}

// figureOf returns the picture of v, if it is one.
func figureOf(v any) (figure, bool) {
	switch x := v.(type) {
	case figureView:
		if isNilPointer(v) {
			return figure{}, false
		}
		return x.figure(), true
	}
	return figure{}, false
}

// size is the figure's size in px.
func (f figure) size() (w, h float64, err error) {
	if f.raster != nil {
		img, err := f.raster(1)
		if err != nil {
			return 0, 0, err
		}
		return float64(img.Bounds().Dx()), float64(img.Bounds().Dy()), nil
	}
	return rasterSize(f.SVG())
}

// sizedSVG sets the root's width (and height in proportion) to width px,
// keeping its viewBox; width 0 leaves svg as it is.
func sizedSVG(svg string, width float64) string {
	if width <= 0 {
		return svg
	}
	w, h, err := rasterSize(svg)
	if err != nil || w <= 0 {
		return svg
	}
	end := strings.Index(svg, ">")
	if end < 0 {
		return svg
	}
	tag := svg[:end]
	tag = setAttr(tag, "width", n2(width))
	tag = setAttr(tag, "height", n2(math.Round(width*h/w*100)/100))
	if !strings.Contains(tag, "viewBox=") {
		tag += fmt.Sprintf(` viewBox="0 0 %s %s"`, n2(w), n2(h))
	}
	return tag + svg[end:]
}

// setAttr replaces (or adds) attribute name in an opening tag.
func setAttr(tag, name, value string) string {
	key := " " + name + `="`
	i := strings.Index(tag, key)
	if i < 0 {
		return tag + key + value + `"`
	}
	j := strings.Index(tag[i+len(key):], `"`)
	if j < 0 {
		return tag
	}
	return tag[:i+len(key)] + value + tag[i+len(key)+j:]
}

// standaloneHTML is a page showing v live, the runtime inlined.
func standaloneHTML(v any, title string) string {
	b := display.WithRuntime(display.BundleOf(v))
	body, ok := b.Data["text/html"].(string)
	if !ok {
		body = "<pre>" + html.EscapeString(b.Text()) + "</pre>"
	}
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) +
		"</title></head>\n<body style=\"font-family:sans-serif;margin:16px\">\n" + body + "\n</body></html>\n"
}
