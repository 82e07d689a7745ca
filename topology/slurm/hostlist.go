package slurm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MaxHostlistNames is the most host names one hostlist may expand to.
// Slurm's own limit is 64K names per range; a larger count is almost
// certainly a typing error ("n[1-1000000000]"), and the limit bounds the
// memory ExpandHostlist uses.
const MaxHostlistNames = 1_000_000

// maxHostlistBytes bounds the total length of the names one hostlist
// expands to (a million names of a kilobyte each would take a gigabyte).
const maxHostlistBytes = 64 << 20

// maxDigits is the longest number a hostlist range may hold; it keeps
// every value below 10^18, far from overflow.
const maxDigits = 18

// ExpandHostlist expands a Slurm hostlist into host names, in the order
// `scontrol show hostnames` prints them.
//
// A hostlist is a list of entries separated by commas or white space
// ("a[1-2],b3 c"). An entry is a host name in which bracket groups
// "[ranges]" stand for numbers; ranges are "lo" or "lo-hi" separated by
// commas. Every number of a range is written with at least as many digits
// as its lo, so zero padding is kept: "n[08-10]" is n08 n09 n10 and
// "n[8-10]" is n8 n9 n10. Names keep their order and duplicates: "b,a,a"
// is b a a.
//
// With several bracket groups in one entry the last group varies fastest,
// as in Slurm: "rack[1-2]-n[01-02]" is rack1-n01 rack1-n02 rack2-n01
// rack2-n02. With three or more groups Slurm's order (which this function
// follows) is not an odometer: after the last group, the first varies
// fastest and the second-to-last slowest, so "a[1-2]b[3-4]c[5-6]" is
// a1b3c5 a1b3c6 a2b3c5 a2b3c6 a1b4c5 … a2b4c6. Unlike Slurm, text after
// the last group is accepted ("n[1-2]-ib" is n1-ib n2-ib).
//
// An error is a *ParseError whose Col is the 1-based byte column in s of
// what is wrong and whose message says what was expected: a ']' for every
// '[', a number (at most 18 digits) for every range bound, lo ≤ hi, and at
// most MaxHostlistNames names (and 64 MiB of names) in all. The empty
// hostlist expands to no names.
func ExpandHostlist(s string) ([]string, error) {
	names, herr := expandHostlist(s)
	if herr != nil {
		return nil, &ParseError{Col: herr.pos + 1, Msg: "hostlist " + quote(s) + ": " + herr.msg}
	}
	return names, nil
}

// hostlistError is an error at byte pos of a hostlist; the readers turn it
// into a *ParseError at the column of the hostlist field.
type hostlistError struct {
	pos int
	msg string
}

func hostErrorf(pos int, format string, args ...any) *hostlistError {
	return &hostlistError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

// numRange is lo-hi of a bracket group, each number written with at least
// width digits.
type numRange struct {
	lo, hi uint64
	width  int
}

// bracketGroup is one "[…]" of an entry.
type bracketGroup struct {
	ranges []numRange
	count  uint64 // names the group stands for
	bytes  uint64 // total length of the numbers it writes
}

// hostEntry is one comma-separated entry: lits[0] group[0] lits[1] … .
type hostEntry struct {
	lits   []string
	groups []bracketGroup
}

// isHostSep reports whether c separates hostlist entries: a comma or
// white space, as for Slurm.
func isHostSep(c byte) bool {
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func expandHostlist(s string) ([]string, *hostlistError) {
	var names []string
	var total, bytes uint64
	for i := 0; i < len(s); {
		if isHostSep(s[i]) {
			i++
			continue
		}
		start := i
		e, next, err := parseEntry(s, i)
		if err != nil {
			return nil, err
		}
		n, size := e.size()
		if n > MaxHostlistNames-total {
			return nil, hostErrorf(start, "expected at most %d host names in all, found %s expanding to more", MaxHostlistNames, quote(s[start:next]))
		}
		if size > maxHostlistBytes-bytes {
			return nil, hostErrorf(start, "expected at most %d MiB of host names in all, found %s expanding to more", maxHostlistBytes>>20, quote(s[start:next]))
		}
		total += n
		bytes += size
		names = e.expand(names)
		i = next
	}
	return names, nil
}

// parseEntry reads the entry starting at s[i] up to the next separator.
func parseEntry(s string, i int) (hostEntry, int, *hostlistError) {
	var e hostEntry
	lit := i
	for i < len(s) && !isHostSep(s[i]) {
		switch s[i] {
		case '[':
			e.lits = append(e.lits, s[lit:i])
			g, next, err := parseGroup(s, i)
			if err != nil {
				return e, 0, err
			}
			e.groups = append(e.groups, g)
			i = next
			lit = i
		case ']':
			return e, 0, hostErrorf(i, "expected a host name or '[', found ']' without a '[' before it")
		default:
			i++
		}
	}
	e.lits = append(e.lits, s[lit:i])
	return e, i, nil
}

// parseGroup reads the bracket group whose '[' is s[open].
func parseGroup(s string, open int) (bracketGroup, int, *hostlistError) {
	var g bracketGroup
	j := open + 1
	for {
		loPos := j
		lo, width, next, err := parseNumber(s, j, open)
		if err != nil {
			return g, 0, err
		}
		hi := lo
		j = next
		if j < len(s) && s[j] == '-' {
			hi, _, next, err = parseNumber(s, j+1, open)
			if err != nil {
				return g, 0, err
			}
			j = next
			if lo > hi {
				return g, 0, hostErrorf(loPos, "expected a range lo-hi with lo ≤ hi, found %s", quote(s[loPos:j]))
			}
		}
		n := hi - lo + 1
		if n > MaxHostlistNames {
			return g, 0, hostErrorf(loPos, "expected at most %d host names in all, found the range %s of %d", MaxHostlistNames, quote(s[loPos:j]), n)
		}
		if g.count+n > MaxHostlistNames {
			return g, 0, hostErrorf(open, "expected at most %d host names in all, found more in the '[' at column %d", MaxHostlistNames, open+1)
		}
		g.count += n
		r := numRange{lo: lo, hi: hi, width: width}
		g.bytes += r.bytes()
		g.ranges = append(g.ranges, r)
		if j >= len(s) {
			return g, 0, hostErrorf(open, "expected ']' to close the '[' at column %d, found the end of the hostlist", open+1)
		}
		switch s[j] {
		case ',':
			j++
		case ']':
			return g, j + 1, nil
		default:
			return g, 0, hostErrorf(j, "expected ',', '-' or ']' after a number in the '[' at column %d, found %s", open+1, foundAt(s, j, ""))
		}
	}
}

// parseNumber reads the decimal number at s[i] inside the group opened at
// s[open]; width is its count of digits.
func parseNumber(s string, i, open int) (v uint64, width, next int, err *hostlistError) {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		if i >= len(s) {
			return 0, 0, 0, hostErrorf(open, "expected ']' to close the '[' at column %d, found the end of the hostlist", open+1)
		}
		return 0, 0, 0, hostErrorf(i, "expected a number in the '[' at column %d, found %s", open+1, foundAt(s, i, ""))
	}
	if j-i > maxDigits {
		return 0, 0, 0, hostErrorf(i, "expected a number of at most %d digits, found %d digits", maxDigits, j-i)
	}
	v, _ = strconv.ParseUint(s[i:j], 10, 64) // at most 18 digits: no error
	return v, j - i, j, nil
}

// bytes returns the total length of the numbers the range writes.
func (r numRange) bytes() uint64 {
	var total uint64
	first, pow := uint64(0), uint64(10) // numbers of d digits are first..pow-1
	for d := 1; d <= maxDigits; d++ {
		if a, b := max(first, r.lo), min(pow-1, r.hi); a <= b {
			total += (b - a + 1) * uint64(max(d, r.width))
		}
		if pow-1 >= r.hi {
			break
		}
		first, pow = pow, pow*10
	}
	return total
}

// size returns how many names the entry stands for (saturating above
// MaxHostlistNames) and their total length in bytes (saturating above
// maxHostlistBytes).
func (e *hostEntry) size() (n, bytes uint64) {
	n = 1
	for _, g := range e.groups {
		if n > (MaxHostlistNames+1)/g.count {
			return MaxHostlistNames + 1, maxHostlistBytes + 1
		}
		n *= g.count
	}
	if n > MaxHostlistNames {
		return n, maxHostlistBytes + 1
	}
	for _, l := range e.lits {
		bytes += n * uint64(len(l))
	}
	for _, g := range e.groups {
		bytes += n / g.count * g.bytes // each number of g is in n/count names
	}
	if bytes > maxHostlistBytes {
		return n, maxHostlistBytes + 1
	}
	return n, bytes
}

// expand appends the entry's names to out in Slurm's order: the loops run,
// from outermost to innermost, over groups k-2, k-3, …, 0 and then k-1.
func (e *hostEntry) expand(out []string) []string {
	k := len(e.groups)
	if k == 0 {
		return append(out, e.lits[0])
	}
	order := make([]int, 0, k)
	for x := k - 2; x >= 0; x-- {
		order = append(order, x)
	}
	order = append(order, k-1)
	digits := make([]string, k)
	var b strings.Builder
	var rec func(d int)
	rec = func(d int) {
		if d == k {
			b.Reset()
			for x, l := range e.lits {
				b.WriteString(l)
				if x < k {
					b.WriteString(digits[x])
				}
			}
			out = append(out, b.String())
			return
		}
		g := order[d]
		for _, r := range e.groups[g].ranges {
			for v := r.lo; ; v++ {
				digits[g] = padNumber(v, r.width)
				rec(d + 1)
				if v == r.hi {
					break
				}
			}
		}
	}
	rec(0)
	return out
}

// padNumber writes v in decimal with at least width digits.
func padNumber(v uint64, width int) string {
	s := strconv.FormatUint(v, 10)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// CompressHostlist writes names as a canonical Slurm hostlist, the inverse
// of ExpandHostlist: ExpandHostlist(CompressHostlist(names)) gives the same
// set of names, each once.
//
// Canonical means the same set of names always gives the same string:
// names are split into a prefix and a trailing number ("rack1-n07" is
// "rack1-n" and "07"); entries are sorted by prefix (a name without a
// trailing number sorts by itself, before a group with the same prefix);
// each prefix's numbers are sorted and consecutive ones merged into ranges,
// keeping each number's zero padding ("n[08-10]", "n[8-10]", "n[1,01]").
// A prefix with a single number is written without brackets ("b3"). Only
// the trailing number is compressed, as Slurm does: "a1b1" and "a2b1" stay
// two entries. Duplicates and empty names are dropped.
//
// The names should be host names as ExpandHostlist returns them: a name
// holding a comma, white space or a bracket is written unchanged and will
// not expand back to itself.
func CompressHostlist(names []string) string {
	type number struct {
		v uint64
		s string
	}
	groups := make(map[string][]number)
	plain := make(map[string]bool)
	for _, name := range names {
		if name == "" {
			continue
		}
		i := len(name)
		for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
			i--
		}
		if i == len(name) || len(name)-i > maxDigits {
			plain[name] = true
			continue
		}
		v, _ := strconv.ParseUint(name[i:], 10, 64)
		groups[name[:i]] = append(groups[name[:i]], number{v, name[i:]})
	}

	type item struct {
		key   string
		plain bool
		text  string
	}
	items := make([]item, 0, len(groups)+len(plain))
	for name := range plain {
		items = append(items, item{key: name, plain: true, text: name})
	}
	for prefix, nums := range groups {
		sort.Slice(nums, func(a, b int) bool {
			if nums[a].v != nums[b].v {
				return nums[a].v < nums[b].v
			}
			if len(nums[a].s) != len(nums[b].s) {
				return len(nums[a].s) < len(nums[b].s)
			}
			return nums[a].s < nums[b].s
		})
		// Merge consecutive numbers into ranges. A number extends a range
		// ending just below it when the range's width writes it as it is;
		// several ranges may end there (n9 and n09), so keep those open.
		var ranges []numRange
		var open []int // ranges whose hi is last
		var last uint64
		haveLast := false
		for x := 0; x < len(nums); {
			v := nums[x].v
			y := x
			for y < len(nums) && nums[y].v == v {
				y++
			}
			var candidates []int
			if haveLast && last+1 == v {
				candidates = open
			}
			used := make([]bool, len(candidates))
			var next []int
			for z := x; z < y; z++ {
				if z > x && nums[z].s == nums[z-1].s {
					continue // a duplicate
				}
				s := nums[z].s
				found := -1
				for c, r := range candidates {
					if !used[c] && padNumber(v, ranges[r].width) == s {
						found = c
						break
					}
				}
				if found >= 0 {
					used[found] = true
					ranges[candidates[found]].hi = v
					next = append(next, candidates[found])
				} else {
					ranges = append(ranges, numRange{lo: v, hi: v, width: len(s)})
					next = append(next, len(ranges)-1)
				}
			}
			open, last, haveLast = next, v, true
			x = y
		}
		var b strings.Builder
		b.WriteString(prefix)
		if len(ranges) == 1 && ranges[0].lo == ranges[0].hi {
			b.WriteString(padNumber(ranges[0].lo, ranges[0].width))
		} else {
			b.WriteByte('[')
			for x, r := range ranges {
				if x > 0 {
					b.WriteByte(',')
				}
				b.WriteString(padNumber(r.lo, r.width))
				if r.hi != r.lo {
					b.WriteByte('-')
					b.WriteString(padNumber(r.hi, r.width))
				}
			}
			b.WriteByte(']')
		}
		items = append(items, item{key: prefix, text: b.String()})
	}
	sort.Slice(items, func(a, b int) bool {
		if items[a].key != items[b].key {
			return items[a].key < items[b].key
		}
		return items[a].plain && !items[b].plain
	})
	parts := make([]string, len(items))
	for x, it := range items {
		parts[x] = it.text
	}
	return strings.Join(parts, ",")
}
