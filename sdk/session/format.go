package session

import (
	"fmt"
	"image"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"superstep/display"
	"superstep/display/views"
)

// Limits of a result's text form: a notebook shows the start of a large
// value and says how much more there is, never a megabyte of numbers.
const (
	maxItems = 20   // elements of a slice, array or map before "… n more"
	maxDepth = 4    // nesting shown before "…"
	maxText  = 4000 // characters of a String() or of the whole text
)

// Plain is the text/plain form of a cell's result: Go's %+v, with strings
// quoted (so that an empty string shows as ""), errors and Stringers by
// their text, and long slices, maps and texts cut with a count of what
// was left out.
func Plain(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.String {
		return cutText(strconv.Quote(v.String()))
	}
	var b strings.Builder
	f := formatter{b: &b}
	f.value(v, 0)
	return cutText(b.String())
}

func cutText(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more characters)", s[:cut], len(s)-cut)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

type formatter struct{ b *strings.Builder }

func (f formatter) value(v reflect.Value, depth int) {
	if !v.IsValid() {
		f.b.WriteString("<nil>")
		return
	}
	if f.b.Len() > maxText {
		return
	}
	if v.CanInterface() && (v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface || !v.IsNil()) {
		switch x := v.Interface().(type) {
		case error:
			f.b.WriteString(cutText(safeString(x.Error)))
			return
		case fmt.Stringer:
			f.b.WriteString(cutText(safeString(x.String)))
			return
		}
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			f.b.WriteString("<nil>")
			return
		}
		f.value(v.Elem(), depth)
	case reflect.Pointer:
		if v.IsNil() {
			f.b.WriteString("<nil>")
			return
		}
		if depth == 0 {
			switch v.Elem().Kind() {
			case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
				f.b.WriteString("&")
				f.value(v.Elem(), depth+1)
				return
			}
		}
		fmt.Fprintf(f.b, "%#x", v.Pointer())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			f.b.WriteString("[]")
			return
		}
		if depth >= maxDepth {
			f.b.WriteString("[…]")
			return
		}
		f.b.WriteString("[")
		n := v.Len()
		for i := 0; i < min(n, maxItems); i++ {
			if i > 0 {
				f.b.WriteString(" ")
			}
			f.value(v.Index(i), depth+1)
		}
		if n > maxItems {
			fmt.Fprintf(f.b, " … %d more", n-maxItems)
		}
		f.b.WriteString("]")
	case reflect.Map:
		if depth >= maxDepth {
			f.b.WriteString("map[…]")
			return
		}
		keys := v.MapKeys()
		sortKeys(keys)
		f.b.WriteString("map[")
		for i, k := range keys {
			if i == maxItems {
				fmt.Fprintf(f.b, " … %d more", len(keys)-maxItems)
				break
			}
			if i > 0 {
				f.b.WriteString(" ")
			}
			f.value(k, depth+1)
			f.b.WriteString(":")
			f.value(v.MapIndex(k), depth+1)
		}
		f.b.WriteString("]")
	case reflect.Struct:
		if depth >= maxDepth {
			f.b.WriteString("{…}")
			return
		}
		t := v.Type()
		f.b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				f.b.WriteString(" ")
			}
			f.b.WriteString(t.Field(i).Name)
			f.b.WriteString(":")
			f.value(v.Field(i), depth+1)
		}
		f.b.WriteString("}")
	case reflect.String:
		f.b.WriteString(cutText(v.String()))
	default:
		if v.CanInterface() {
			fmt.Fprintf(f.b, "%v", v.Interface())
		} else {
			f.b.WriteString(v.String())
		}
	}
}

// safeString calls a String or Error method, turning its panic into text.
func safeString(f func() string) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("<panic in String: %v>", r)
		}
	}()
	return f()
}

// sortKeys orders map keys as fmt does for the common kinds: numbers by
// value, strings and the rest by their text.
func sortKeys(keys []reflect.Value) {
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch a.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return a.Int() < b.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return a.Uint() < b.Uint()
		case reflect.Float32, reflect.Float64:
			return a.Float() < b.Float()
		case reflect.String:
			return a.String() < b.String()
		}
		return fmt.Sprint(a) < fmt.Sprint(b)
	})
}

// bundleOf is the rich form of a cell's result: the value's own bundle if
// it renders itself (an SDK view, an image, an Arrow table), else its
// text.
func bundleOf(vals []reflect.Value) display.Bundle {
	if len(vals) == 1 {
		v := vals[0]
		if v.IsValid() && v.CanInterface() {
			x := v.Interface()
			switch x.(type) {
			case display.Renderer, image.Image:
				return display.BundleOf(x)
			}
			if b, ok := views.TableOf(x); ok {
				return b // an Arrow table or record
			}
		}
		return display.TextBundle(Plain(v))
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = Plain(v)
	}
	return display.TextBundle("(" + strings.Join(parts, ", ") + ")")
}
