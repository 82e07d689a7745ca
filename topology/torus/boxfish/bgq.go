package boxfish

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"superstep/internal/linereader"
	"superstep/topology/torus"
)

// bgqCounterNames are the six counters a Blue Gene/Q .cnt line gives per
// link direction, in file order (Boxfish's scripts/bgq_counters,
// ConvertBGQDataRun.py).
var bgqCounterNames = [6]string{"sent_chunks", "dynamic_chunks", "deterministic_chunks", "col_packets", "recv_packets", "fifo_length"}

// BGQDims are the names of the five Blue Gene/Q torus dimensions.
func BGQDims() []string { return []string{"a", "b", "c", "d", "e"} }

// BGQColumns are the extra counter columns of the channel table
// ReadBGQCounters returns, after packets (which holds sent_chunks).
func BGQColumns() []string {
	return []string{"dynamic_chunks", "deterministic_chunks", "recv_packets", "fifo_length"}
}

// bgqLine is one parsed .cnt line.
type bgqLine struct {
	line     int
	rank     int64
	coord    [5]int
	thread   int
	rankCol  int // 1-based column of the rank
	coordCol int // 1-based column of coordinate a
	counters [60]int64
	cols     [60]int32 // 1-based column of each counter, for warnings
}

// bgqMaxCoord bounds a coordinate or thread number in a .cnt file.
const bgqMaxCoord = 1 << 16

// bgqMaxLine bounds a line of counters: 68 numbers take about 1 KiB.
const bgqMaxLine = 1 << 20

// ReadBGQCounters reads a Blue Gene/Q raw link-counter file (".cnt", what
// Boxfish's scripts/bgq_counters converts). Each line is
//
//	[label] rank a b c d e t ** then 60 counters
//
// — the script splits off and ignores a first field before the rank, so
// 8 fields before "**" are read as label, rank, a…t and 7 as rank, a…t.
// The counters are 10 link directions (a−, a+, b−, b+, c−, c+, d−, d+, e−,
// e+) × 6 counters: sent_chunks, dynamic_chunks, deterministic_chunks,
// col_packets, recv_packets, fifo_length. As Boxfish's converter does,
// col_packets is dropped; the other five belong to the channel leaving
// the node in that direction, and sent_chunks (32-byte chunks sent) is
// the table's packets column, the main count; the others follow as the
// extra columns BGQColumns. Blank lines and # comments are skipped.
//
// The torus shape is the largest coordinate + 1 per dimension, as the
// script finds it (dimensions a…e; opts go to torus.New, e.g.
// torus.Extent2Channels(1) to keep only e+). A node's counters come from its thread-0 line (the
// script's "link data for each node is for the t = 0 thread"); every line
// maps its rank to its node in RankToNode. The channel table has region −2
// (the whole run) and phase 0; run.Nodes is nil.
//
// Errors are *ParseError "name:line:col: expected …, found …": a line
// without "**", a count of fields other than 7 or 8 before it or 60
// after it, a value that is not a non-negative integer, a rank at or above
// the number of lines or listed twice, a (node, thread) listed twice, and
// a shape of more nodes than 4 × lines. Warnings: nodes without a thread-0
// line (missing nodes) and non-zero counters on a direction where the
// torus has no channel (extent 1, mesh edge, torus.Extent2Channels(1)).
func ReadBGQCounters(name string, r io.Reader, opts ...torus.Option) (*Run, error) {
	errAt := func(line, col int, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	var lines []bgqLine
	var f [80][2]int // token start, end
	var err error
	lr := linereader.New(r, name, bgqMaxLine)
	for lr.Next() {
		line, row := lr.Line(), lr.Bytes()
		n, star := 0, -1
		for i, j, ok := bfNextField(row, 0); ok; i, j, ok = bfNextField(row, j) {
			if n == len(f) {
				return nil, errAt(line, i+1, "expected at most %d fields, found more", len(f))
			}
			if star < 0 && string(row[i:j]) == "**" {
				star = n
			}
			f[n] = [2]int{i, j}
			n++
		}
		if n == 0 {
			continue
		}
		if star < 0 {
			return nil, errAt(line, len(row)+1, "expected \"**\" after rank and a b c d e t, found the end of the line")
		}
		if star != 7 && star != 8 {
			return nil, errAt(line, f[star][0]+1, "expected 7 fields (rank a b c d e t) or 8 (label rank a b c d e t) before \"**\", found %d", star)
		}
		if n-star-1 != 60 {
			col := len(row) + 1
			if n-star-1 > 60 {
				col = f[star+61][0] + 1
			}
			return nil, errAt(line, col, "expected 60 counters (10 directions × 6) after \"**\", found %d", n-star-1)
		}
		var l bgqLine
		l.line = line
		num := func(k int, what string) (int64, error) {
			tok := row[f[k][0]:f[k][1]]
			v, ok := bfParseInt(tok)
			if !ok || v < 0 {
				return 0, errAt(line, f[k][0]+1, "expected a non-negative integer (%s), found %q", what, tok)
			}
			return v, nil
		}
		first := star - 7
		l.rankCol, l.coordCol = f[first][0]+1, f[first+1][0]+1
		if l.rank, err = num(first, "rank"); err != nil {
			return nil, err
		}
		for d := 0; d < 6; d++ {
			what := "thread t"
			if d < 5 {
				what = "coordinate " + BGQDims()[d]
			}
			v, err := num(first+1+d, what)
			if err != nil {
				return nil, err
			}
			if v >= bgqMaxCoord {
				return nil, errAt(line, f[first+1+d][0]+1, "expected %s below %d, found %d", what, bgqMaxCoord, v)
			}
			if d < 5 {
				l.coord[d] = int(v)
			} else {
				l.thread = int(v)
			}
		}
		for k := 0; k < 60; k++ {
			dir := BGQDims()[k/12] + [2]string{"−", "+"}[k/6%2]
			if l.counters[k], err = num(star+1+k, dir+" "+bgqCounterNames[k%6]); err != nil {
				return nil, err
			}
			l.cols[k] = int32(f[star+1+k][0] + 1)
		}
		lines = append(lines, l)
	}
	if err := lr.Err(); err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, errAt(0, 0, "expected counter lines (rank a b c d e t ** counters), found none")
	}
	ext := make([]int, 5)
	for _, l := range lines {
		for d, x := range l.coord {
			ext[d] = max(ext[d], x+1)
		}
	}
	total := int64(1)
	for _, k := range ext {
		total *= int64(k)
	}
	if limit := int64(4*len(lines) + 64); total > limit {
		return nil, errAt(0, 0, "expected at most %d nodes for %d lines, found the shape %s", limit, len(lines), bgqShape(ext))
	}
	t, err := torus.New(BGQDims(), ext, opts...)
	if err != nil {
		return nil, &ParseError{File: name, Msg: err.Error(), Err: err}
	}
	rankLine := make([]int, len(lines))
	r2n := make([]int, len(lines))
	for i := range r2n {
		r2n[i] = -1
	}
	type nodeThread struct{ node, thread int }
	seen := map[nodeThread]int{}
	main := make([]int, t.Nodes()) // index+1 of the node's thread-0 line
	for i, l := range lines {
		v, _ := t.ID(l.coord[:])
		if l.rank >= int64(len(lines)) {
			return nil, errAt(l.line, l.rankCol, "expected a rank in 0..%d (the file has %d lines), found %d", len(lines)-1, len(lines), l.rank)
		}
		if rankLine[l.rank] > 0 {
			return nil, errAt(l.line, l.rankCol, "expected rank %d once, found it again (first on line %d)", l.rank, rankLine[l.rank])
		}
		rankLine[l.rank] = l.line
		r2n[l.rank] = v
		key := nodeThread{v, l.thread}
		if prev, ok := seen[key]; ok {
			return nil, errAt(l.line, l.coordCol, "expected node %s thread %d once, found it again (first on line %d)", bfCoordString(t, v), l.thread, prev)
		}
		seen[key] = l.line
		if l.thread == 0 {
			main[v] = i + 1
		}
	}
	run := &Run{Torus: t, RankToNode: r2n}
	var miss []string
	nmiss := 0
	var chans []int32
	cols := make([][]int64, 5)
	for v := 0; v < t.Nodes(); v++ {
		if main[v] == 0 {
			if nmiss < 5 {
				miss = append(miss, bfCoordString(t, v))
			}
			nmiss++
			continue
		}
		l := &lines[main[v]-1]
		for d := 0; d < 5; d++ {
			for _, dir := range [2]int{+1, -1} {
				k := 12*d + 6*(dir+1)/2 // first counter of this direction
				c, ok := t.ChannelID(v, d, dir)
				if !ok {
					for j := k; j < k+6; j++ {
						if l.counters[j] != 0 {
							run.Warnings = append(run.Warnings, Warning{File: name, Line: l.line, Msg: fmt.Sprintf("column %d: %s%s has non-zero counters but %s has no such channel; not kept", l.cols[j], BGQDims()[d], [2]string{"−", "+"}[(dir+1)/2], t)})
							break
						}
					}
					continue
				}
				chans = append(chans, int32(c))
				cols[0] = append(cols[0], l.counters[k])   // sent_chunks → packets
				cols[1] = append(cols[1], l.counters[k+1]) // dynamic_chunks
				cols[2] = append(cols[2], l.counters[k+2]) // deterministic_chunks
				cols[3] = append(cols[3], l.counters[k+4]) // recv_packets
				cols[4] = append(cols[4], l.counters[k+5]) // fifo_length
			}
		}
	}
	if nmiss > 0 {
		more := ""
		if nmiss > len(miss) {
			more = fmt.Sprintf(" and %d more", nmiss-len(miss))
		}
		run.Warnings = append(run.Warnings, Warning{File: name, Msg: fmt.Sprintf("%d missing nodes (no line with t = 0): %s%s", nmiss, strings.Join(miss, ", "), more)})
	}
	fields := torus.ChannelFields()
	for _, c := range BGQColumns() {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.PrimitiveTypes.Int64})
	}
	md := bfSchemaMeta(t, torus.KindChannels)
	sc := arrow.NewSchema(fields, &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	zero := make([]int32, len(chans))
	regions := make([]int32, len(chans))
	for i := range regions {
		regions[i] = -2
	}
	b.Field(0).(*array.Int32Builder).AppendValues(regions, nil)
	b.Field(1).(*array.Int32Builder).AppendValues(zero, nil)
	b.Field(2).(*array.Int32Builder).AppendValues(chans, nil)
	for k := 0; k < 5; k++ {
		b.Field(3+k).(*array.Int64Builder).AppendValues(cols[k], nil)
	}
	rec := b.NewRecord()
	defer rec.Release()
	run.Links = array.NewTableFromRecords(sc, []arrow.Record{rec})
	return run, nil
}

// bgqShape writes extents as "6×5×4×3×2".
func bgqShape(ext []int) string {
	parts := make([]string, len(ext))
	for i, k := range ext {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, "×")
}
