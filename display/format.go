package display

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatNumber formats v as every display writes a count or a measure:
// integers and values of 1000 or more rounded with thousands separators
// ("12,345"), others with three significant digits ("0.0123", "4.57").
// The browser runtime formats the same way.
func FormatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	if v == math.Trunc(v) || math.Abs(v) >= 1000 {
		return groupDigits(int64(math.Round(v)))
	}
	g, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return strconv.FormatFloat(g, 'f', -1, 64)
}

func groupDigits(i int64) string {
	s := strconv.FormatInt(i, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for k, r := range s {
		if k > 0 && (len(s)-k)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// FormatBytes formats a size in bytes as every display and summary writes
// it: an SI size with three significant digits, "512 B", "1.23 kB",
// "45.6 MB", "789 GB" (a whole number of bytes below 1000; from 1000 on,
// v/1000^p for the largest prefix p that keeps the mantissa under 999.5,
// with 2, 1 or 0 decimals for mantissas under 9.995, under 99.95, or
// above). The browser runtime formats the same way (matrixboard.js).
func FormatBytes(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	if math.Round(v) < 1000 {
		return fmt.Sprintf("%s%d B", sign, int64(math.Round(v)))
	}
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB"}
	p := 0
	v /= 1000
	for v >= 999.5 && p < len(prefixes)-1 {
		v /= 1000
		p++
	}
	dec := 2
	if v >= 99.95 {
		dec = 0
	} else if v >= 9.995 {
		dec = 1
	}
	return fmt.Sprintf("%s%.*f %s", sign, dec, v, prefixes[p])
}

// FormatValue formats v in unit: FormatBytes for "B", FormatNumber for
// no unit, else FormatNumber's text followed by the unit.
func FormatValue(v float64, unit string) string {
	switch unit {
	case "B":
		return FormatBytes(v)
	case "":
		return FormatNumber(v)
	}
	return FormatNumber(v) + " " + unit
}
