package boxfish

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"

	"superstep/sdk/table"
	"superstep/topology/torus"
)

// bgqFixture is a 2×1×1×1×2 partition (a and e of extent 2): node
// v = a + 2e on line v+1 with rank 3−v, thread 0; counter k (0..59) of
// node v is 1000·v + k, except b, c, d (extent 1, no channel) which are 0.
// label says whether lines start with the field the script ignores.
func bgqFixture(label bool) string {
	var b strings.Builder
	for v := 0; v < 4; v++ {
		if label {
			fmt.Fprintf(&b, "%d ", v)
		}
		fmt.Fprintf(&b, "%d %d 0 0 0 %d 0 **", 3-v, v%2, v/2)
		for k := 0; k < 60; k++ {
			x := 1000*v + k
			if k >= 12 && k < 48 {
				x = 0
			}
			fmt.Fprintf(&b, " %d", x)
		}
		b.WriteString(" \n")
	}
	return b.String()
}

func TestReadBGQCounters(t *testing.T) {
	for _, label := range []bool{true, false} {
		run, err := ReadBGQCounters("f.cnt", strings.NewReader(bgqFixture(label)))
		if err != nil {
			t.Fatal(err)
		}
		if run.Torus.String() != "torus 2×1×1×1×2 (a, b, c, d, e)" || run.Torus.Channels() != 16 {
			t.Fatalf("torus %v with %d channels", run.Torus, run.Torus.Channels())
		}
		if len(run.Warnings) != 0 || run.Nodes != nil {
			t.Errorf("warnings %v, nodes %v", run.Warnings, run.Nodes)
		}
		if fmt.Sprint(run.RankToNode) != "[3 2 1 0]" {
			t.Errorf("rank map %v", run.RankToNode)
		}
		fields := torus.ChannelFields()
		for _, c := range BGQColumns() {
			fields = append(fields, arrow.Field{Name: c, Type: arrow.PrimitiveTypes.Int64})
		}
		cols, err := table.Read(run.Links, fields)
		if err != nil {
			t.Fatal(err)
		}
		// Channel 4v+0..3 = a+, a−, e+, e− of node v. The counters of a
		// direction start at k = 12·dim + 6·(1 for +): a+ 6, a− 0, e+ 54,
		// e− 48; sent_chunks +0 → packets, dynamic +1, deterministic +2,
		// col_packets +3 dropped, recv_packets +4, fifo_length +5.
		first := [4]int64{6, 0, 54, 48}
		if len(cols[2].Ints) != 16 {
			t.Fatalf("%d rows", len(cols[2].Ints))
		}
		for i := 0; i < 16; i++ {
			v, k := int64(i/4), first[i%4]
			base := 1000*v + k
			want := []int64{-2, 0, int64(i), base, base + 1, base + 2, base + 4, base + 5}
			for c, w := range want {
				if cols[c].Ints[i] != w {
					t.Errorf("label %v row %d %s = %d, want %d", label, i, fields[c].Name, cols[c].Ints[i], w)
				}
			}
		}
		// Node 1 is (1,0,0,0,0): its a+ channel (id 4) goes to node 0.
		if ch := run.Torus.Channel(4); ch.Node != 1 || ch.To != 0 || ch.Dir != 1 {
			t.Errorf("channel 4 = %+v", ch)
		}
		run.Release()
	}
}

func TestReadBGQCountersThreadsAndWarnings(t *testing.T) {
	src := bgqFixture(true)
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	// A thread-1 line of node 0 with rank 4 and other counters: it maps
	// the rank but its counters are not used.
	extra := "9 4 0 0 0 0 0 1 **" + strings.Repeat(" 7", 60)
	// Node 3 loses its thread-0 line; node 2 gets a non-zero b+ counter.
	lines[3] = strings.Replace(lines[3], " 0 **", " 2 **", 1) // node 3 is thread 2 now
	f := strings.Fields(lines[2])
	f[9+18] = "5" // counter 18 (b+ sent_chunks) of node 2
	lines[2] = strings.Join(f, " ")
	col := len(strings.Join(f[:9+18], " ")) + 2
	run, err := ReadBGQCounters("f.cnt", strings.NewReader(strings.Join(append(lines, extra), "\n")))
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	want := []string{
		fmt.Sprintf("f.cnt:3: column %d: b+ has non-zero counters but torus 2×1×1×1×2 (a, b, c, d, e) has no such channel; not kept", col),
		"f.cnt: 1 missing nodes (no line with t = 0): (1,0,0,0,1)",
	}
	var got []string
	for _, w := range run.Warnings {
		got = append(got, w.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fmt.Sprint(run.RankToNode) != "[3 2 1 0 0]" {
		t.Errorf("rank map %v", run.RankToNode)
	}
	if run.Links.NumRows() != 12 {
		t.Errorf("%d rows, want 12 (3 nodes × 4 channels)", run.Links.NumRows())
	}
}

func TestReadBGQCountersErrors(t *testing.T) {
	zeros := strings.Repeat(" 0", 60)
	with := func(k int, s string) string {
		f := strings.Fields(zeros)
		f[k] = s
		return " " + strings.Join(f, " ")
	}
	for _, tc := range []struct{ src, want string }{
		{"0 0 0 0 0 0 0 0\n", `x.cnt:1:16: expected "**" after rank and a b c d e t, found the end of the line`},
		{"0 0 0 0 0 0 **" + zeros, `x.cnt:1:13: expected 7 fields (rank a b c d e t) or 8 (label rank a b c d e t) before "**", found 6`},
		{"0 0 0 0 0 0 0 0 **" + zeros[2:], `x.cnt:1:137: expected 60 counters (10 directions × 6) after "**", found 59`},
		{"0 0 0 0 0 0 0 0 **" + zeros + " 0", `x.cnt:1:140: expected 60 counters (10 directions × 6) after "**", found 61`},
		{"0 0 0 0 0 0 0 0 **" + with(6, "x"), `x.cnt:1:32: expected a non-negative integer (a+ sent_chunks), found "x"`},
		{"0 0 0 0 0 0 0 0 **" + with(59, "-4"), `x.cnt:1:138: expected a non-negative integer (e+ fifo_length), found "-4"`},
		{"0 0 -1 0 0 0 0 0 **" + zeros, `x.cnt:1:5: expected a non-negative integer (coordinate a), found "-1"`},
		{"0 0 0 0 0 0 70000 0 **" + zeros, `x.cnt:1:13: expected coordinate e below 65536, found 70000`},
		{"0 3 0 0 0 0 0 0 **" + zeros, `x.cnt:1:3: expected a rank in 0..0 (the file has 1 lines), found 3`},
		{"0 0 0 0 0 0 0 0 **" + zeros + "\n1 0 1 0 0 0 0 0 **" + zeros, `x.cnt:2:3: expected rank 0 once, found it again (first on line 1)`},
		{"0 0 0 0 0 0 0 0 **" + zeros + "\n1 1 0 0 0 0 0 0 **" + zeros, `x.cnt:2:5: expected node (0,0,0,0,0) thread 0 once, found it again (first on line 1)`},
		{"0 0 9999 0 0 0 0 0 **" + zeros, `x.cnt: expected at most 68 nodes for 1 lines, found the shape 10000×1×1×1×1`},
		{"# nothing\n\n", `x.cnt: expected counter lines (rank a b c d e t ** counters), found none`},
	} {
		_, err := ReadBGQCounters("x.cnt", strings.NewReader(tc.src))
		var fe *ParseError
		if !errors.As(err, &fe) || err.Error() != tc.want {
			t.Errorf("%.30q…:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestBGQToBoxfish: a BG/Q run written as Boxfish files reads back the
// same (what Boxfish's converter script does).
func TestBGQToBoxfish(t *testing.T) {
	run, err := ReadBGQCounters("f.cnt", strings.NewReader(bgqFixture(true)))
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	dir := t.TempDir()
	if err := Write(dir, "bgq", run); err != nil {
		t.Fatal(err)
	}
	back, err := Read(dir + "/bgq_meta.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if len(back.Warnings) != 0 {
		t.Errorf("warnings %v", back.Warnings)
	}
	bfSameRun(t, run, back)
}
