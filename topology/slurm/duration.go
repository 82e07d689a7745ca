package slurm

import (
	"math"
	"strings"
	"time"
)

// parseDuration parses a run time as Slurm writes it: "[D-]HH:MM:SS"
// (sacct's Elapsed, squeue's TIME), "H:MM:SS", "MM:SS" and "M:SS", sqlog's
// ":SS", each with an optional fraction of a second ("MM:SS.mmm", or the
// microseconds sacct gives CPU times). With days the rest must be
// HH:MM:SS. The first part may exceed its unit ("125:00:00"); the parts
// after it are at most two digits, below 60 (hours after days: below 24).
// It reports whether s is such a time.
func parseDuration(s string) (time.Duration, bool) {
	var days int64
	withDays := false
	if i := strings.IndexByte(s, '-'); i >= 0 {
		d, ok := parseDigits(s[:i], 1, 7)
		if !ok {
			return 0, false
		}
		days, s, withDays = d, s[i+1:], true
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 || (withDays && len(parts) != 3) {
		return 0, false
	}
	// The fraction of a second, if any, ends the last part.
	last := parts[len(parts)-1]
	var frac time.Duration
	if i := strings.IndexByte(last, '.'); i >= 0 {
		f := last[i+1:]
		v, ok := parseDigits(f, 1, 9)
		if !ok {
			return 0, false
		}
		for n := len(f); n < 9; n++ {
			v *= 10
		}
		frac, last = time.Duration(v), last[:i]
	}
	parts[len(parts)-1] = last
	var secs int64
	for k, p := range parts {
		var v int64
		var ok bool
		switch {
		case k == 0 && len(parts) == 2 && p == "":
			v, ok = 0, true // sqlog's ":SS"
		case k == 0 && !withDays:
			v, ok = parseDigits(p, 1, 9)
		default:
			v, ok = parseDigits(p, 1, 2)
			limit := int64(60)
			if k == 0 {
				limit = 24 // hours after days
			}
			ok = ok && v < limit
		}
		if !ok {
			return 0, false
		}
		secs = secs*60 + v
	}
	secs += days * 86400
	if secs > math.MaxInt64/int64(time.Second)-1 {
		return 0, false
	}
	return time.Duration(secs)*time.Second + frac, true
}

// parseDigits parses a decimal number of minDigits to maxDigits digits
// (maxDigits at most 18).
func parseDigits(s string, minDigits, maxDigits int) (int64, bool) {
	if len(s) < minDigits || len(s) > maxDigits {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}
