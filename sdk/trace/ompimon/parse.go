package ompimon

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"superstep/internal/linereader"
)

// maxRank bounds rank numbers so that a corrupt file cannot make callers
// allocate huge dense matrices.
const maxRank = 1 << 24

// maxLine bounds a line: a D line lists up to maxRank members of about
// nine bytes each.
const maxLine = 256 << 20

// maxBins bounds the histogram length (Open MPI writes 66 bins).
const maxBins = 1024

type section int

const (
	secNone section = iota
	secP2P
	secOSC
	secColl
)

type parser struct {
	file string
	line int
	text string
}

func (p *parser) errf(col int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// field is one tab-separated field with its 1-based byte column.
type field struct {
	s   string
	col int
}

func splitTabs(s string) []field {
	var out []field
	col := 1
	for {
		i := strings.IndexByte(s, '\t')
		if i < 0 {
			return append(out, field{s, col})
		}
		out = append(out, field{s[:i], col})
		col += i + 1
		s = s[i+1:]
	}
}

func (p *parser) rank(f field, what string) (int, error) {
	r, err := strconv.Atoi(f.s)
	if err != nil || r < 0 || r >= maxRank {
		return 0, p.errf(f.col, "expected %s rank, found %q", what, f.s)
	}
	return r, nil
}

// counted parses "<n> <unit>" such as "40960 bytes" or "20 msgs sent".
func (p *parser) counted(f field, unit string) (uint64, error) {
	num, ok := strings.CutSuffix(f.s, " "+unit)
	if !ok {
		return 0, p.errf(f.col, "expected \"<number> %s\", found %q", unit, f.s)
	}
	v, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, p.errf(f.col, "expected \"<number> %s\", found %q", unit, f.s)
	}
	return v, nil
}

func (p *parser) hist(f field) ([]uint64, error) {
	parts := strings.Split(f.s, ",")
	if len(parts) > maxBins {
		return nil, p.errf(f.col, "expected at most %d histogram bins, found %d", maxBins, len(parts))
	}
	h := make([]uint64, len(parts))
	col := f.col
	for i, s := range parts {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, p.errf(col, "expected histogram count, found %q", s)
		}
		h[i] = v
		col += len(s) + 1
	}
	return h, nil
}

// pairLine parses "X\tsrc\tdst\t<B> bytes\t<N> msgs sent" with an optional
// histogram field (only when allowHist).
func (p *parser) pairLine(fs []field, allowHist bool) (src, dst int, msgs, nbytes uint64, h []uint64, err error) {
	maxFields := 5
	if allowHist {
		maxFields = 6
	}
	if len(fs) < 5 || len(fs) > maxFields {
		return 0, 0, 0, 0, nil, p.errf(1, "expected %s line with 5 tab-separated fields, found %d", fs[0].s, len(fs))
	}
	if src, err = p.rank(fs[1], "source"); err != nil {
		return
	}
	if dst, err = p.rank(fs[2], "destination"); err != nil {
		return
	}
	if nbytes, err = p.counted(fs[3], "bytes"); err != nil {
		return
	}
	if msgs, err = p.counted(fs[4], "msgs sent"); err != nil {
		return
	}
	if len(fs) == 6 {
		h, err = p.hist(fs[5])
	}
	return
}

func parse(name string, nameRank int, data []byte) (*RankFile, error) {
	f := &RankFile{File: name, Rank: nameRank}
	p := &parser{file: name}
	sec := secNone
	pairs := map[int]*Pair{}
	oscs := map[int]*OSC{}
	colls := map[int]*Coll{}
	var comm *Comm
	var commSeen [3]bool
	checkSrc := func(r int, col int) error {
		if f.Rank < 0 {
			f.Rank = r
		} else if r != f.Rank {
			return p.errf(col, "expected rank %d (this file's rank), found %d", f.Rank, r)
		}
		return nil
	}
	lr := linereader.New(bytes.NewReader(data), name, maxLine)
	for lr.Next() {
		p.line = lr.Line()
		p.text = lr.Text()
		if strings.TrimSpace(p.text) == "" {
			continue
		}
		switch p.text {
		case "# POINT TO POINT":
			sec = secP2P
			continue
		case "# OSC":
			sec = secOSC
			continue
		case "# COLLECTIVES":
			sec = secColl
			continue
		}
		fs := splitTabs(p.text)
		kind := fs[0].s
		switch {
		case sec == secNone:
			return nil, p.errf(1, "expected section header \"# POINT TO POINT\", found %q", clip(p.text))
		case sec == secP2P && (kind == "E" || kind == "I"):
			src, dst, msgs, nb, h, err := p.pairLine(fs, true)
			if err != nil {
				return nil, err
			}
			if err := checkSrc(src, fs[1].col); err != nil {
				return nil, err
			}
			pr := pairs[dst]
			if pr == nil {
				pr = &Pair{Src: src, Dst: dst}
				pairs[dst] = pr
			}
			if kind == "E" {
				if pr.ExtMsgs != 0 || pr.ExtBytes != 0 {
					return nil, p.errf(1, "expected one E line for pair %d->%d, found a second", src, dst)
				}
				pr.ExtMsgs, pr.ExtBytes = msgs, nb
			} else {
				if pr.IntMsgs != 0 || pr.IntBytes != 0 {
					return nil, p.errf(1, "expected one I line for pair %d->%d, found a second", src, dst)
				}
				pr.IntMsgs, pr.IntBytes = msgs, nb
			}
			if h != nil {
				if pr.Hist != nil {
					return nil, p.errf(fs[5].col, "expected one histogram for pair %d->%d, found a second", src, dst)
				}
				pr.Hist = h
			}
		case sec == secOSC && (kind == "S" || kind == "R"):
			src, dst, msgs, nb, _, err := p.pairLine(fs, false)
			if err != nil {
				return nil, err
			}
			if err := checkSrc(src, fs[1].col); err != nil {
				return nil, err
			}
			o := oscs[dst]
			if o == nil {
				o = &OSC{Rank: src, Peer: dst}
				oscs[dst] = o
			}
			if kind == "S" {
				o.SentMsgs += msgs
				o.SentBytes += nb
			} else {
				o.RecvMsgs += msgs
				o.RecvBytes += nb
			}
		case sec == secColl && kind == "C":
			src, dst, msgs, nb, _, err := p.pairLine(fs, false)
			if err != nil {
				return nil, err
			}
			if err := checkSrc(src, fs[1].col); err != nil {
				return nil, err
			}
			c := colls[dst]
			if c == nil {
				c = &Coll{Rank: src, Peer: dst}
				colls[dst] = c
			}
			c.Msgs += msgs
			c.Bytes += nb
		case sec == secColl && kind == "D":
			if comm != nil && !(commSeen[0] && commSeen[1] && commSeen[2]) {
				return nil, p.errf(1, "expected O2A, A2O and A2A lines for communicator %q, found D", comm.Name)
			}
			c, err := p.commHeader()
			if err != nil {
				return nil, err
			}
			c.Rank = f.Rank
			f.Comms = append(f.Comms, c)
			comm = &f.Comms[len(f.Comms)-1]
			commSeen = [3]bool{}
		case sec == secColl && (kind == "O2A" || kind == "A2O" || kind == "A2A"):
			if comm == nil {
				return nil, p.errf(1, "expected \"D <name> procs: ...\" before %s, found %s", kind, kind)
			}
			if len(fs) != 4 {
				return nil, p.errf(1, "expected %s line with 4 tab-separated fields, found %d", kind, len(fs))
			}
			r, err := p.rank(fs[1], "own")
			if err != nil {
				return nil, err
			}
			if err := checkSrc(r, fs[1].col); err != nil {
				return nil, err
			}
			comm.Rank = r
			nb, err := p.counted(fs[2], "bytes")
			if err != nil {
				return nil, err
			}
			msgs, err := p.counted(fs[3], "msgs sent")
			if err != nil {
				return nil, err
			}
			i := map[string]int{"O2A": 0, "A2O": 1, "A2A": 2}[kind]
			if commSeen[i] {
				return nil, p.errf(1, "expected one %s line for communicator %q, found a second", kind, comm.Name)
			}
			commSeen[i] = true
			*[]*Counter{&comm.O2A, &comm.A2O, &comm.A2A}[i] = Counter{Msgs: msgs, Bytes: nb}
		default:
			want := map[section]string{secP2P: "E or I", secOSC: "S or R", secColl: "C, D, O2A, A2O or A2A"}[sec]
			return nil, p.errf(1, "expected %s line, found %q", want, clip(kind))
		}
	}
	if err := lr.Err(); err != nil {
		return nil, err
	}
	if comm != nil && !(commSeen[0] && commSeen[1] && commSeen[2]) {
		return nil, p.errf(0, "expected O2A, A2O and A2A lines for communicator %q, found end of file", comm.Name)
	}
	for i := range f.Comms {
		f.Comms[i].Rank = f.Rank
	}
	for _, pr := range pairs {
		f.Pairs = append(f.Pairs, *pr)
	}
	sort.Slice(f.Pairs, func(i, j int) bool { return f.Pairs[i].Dst < f.Pairs[j].Dst })
	for _, o := range oscs {
		f.OSC = append(f.OSC, *o)
	}
	sort.Slice(f.OSC, func(i, j int) bool { return f.OSC[i].Peer < f.OSC[j].Peer })
	for _, c := range colls {
		f.Coll = append(f.Coll, *c)
	}
	sort.Slice(f.Coll, func(i, j int) bool { return f.Coll[i].Peer < f.Coll[j].Peer })
	return f, nil
}

// commHeader parses "D\t<name>\tprocs: a,b,c" (the name may hold tabs).
func (p *parser) commHeader() (Comm, error) {
	rest := strings.TrimPrefix(p.text, "D\t")
	i := strings.LastIndex(rest, "\tprocs: ")
	if i < 0 {
		if strings.HasSuffix(rest, "\tprocs:") {
			return Comm{Name: strings.TrimSuffix(rest, "\tprocs:")}, nil
		}
		return Comm{}, p.errf(3, "expected \"<name>\\tprocs: <ranks>\", found %q", clip(rest))
	}
	c := Comm{Name: rest[:i]}
	list := rest[i+len("\tprocs: "):]
	col := 3 + i + len("\tprocs: ")
	if list == "" || list == "(null)" {
		return c, nil
	}
	parts := strings.Split(list, ",")
	if len(parts) > maxRank {
		return Comm{}, p.errf(col, "expected at most %d procs, found %d", maxRank, len(parts))
	}
	for _, s := range parts {
		r, err := p.rank(field{s, col}, "member")
		if err != nil {
			return Comm{}, err
		}
		c.Procs = append(c.Procs, r)
		col += len(s) + 1
	}
	return c, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
