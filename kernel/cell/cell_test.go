package cell

import (
	"errors"
	"strings"
	"testing"
)

func TestSplitMixedCell(t *testing.T) {
	src := "import \"strings\"\n" +
		"x := 2\n" +
		"func double(v int) int { return 2 * v }\n" +
		"type pair struct{ a, b int }\n" +
		"func (p pair) sum() int { return p.a + p.b }\n" +
		"y := double(x); var z = 3\n" +
		"strings.Repeat(\"a\", y)"
	sp, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := func(s string) []string { return strings.Split(s, "\n") }
	if got := strings.TrimSpace(lines(sp.Imports)[0]); got != `import "strings"` {
		t.Errorf("imports line 1 = %q", got)
	}
	st := lines(sp.Stmts)
	if strings.TrimSpace(st[1]) != "x := 2" || strings.TrimSpace(st[5]) != "y := double(x)" || strings.TrimSpace(st[6]) != `strings.Repeat("a", y)` {
		t.Errorf("statements not on their lines: %q", sp.Stmts)
	}
	dl := lines(sp.Decls)
	if !strings.HasPrefix(strings.TrimSpace(dl[2]), "func double") || !strings.HasPrefix(strings.TrimSpace(dl[4]), "func (p pair) sum()") ||
		strings.TrimSpace(dl[5]) != "var z = 3" {
		t.Errorf("declarations not on their lines: %q", sp.Decls)
	}
	if !sp.ShowsResult {
		t.Error("final expression not shown")
	}
	if sp.ImportPaths["strings"] != "strings" {
		t.Errorf("imports %v", sp.ImportPaths)
	}
	want := map[string]bool{"x": true, "double": true, "pair": true, "y": true, "z": true}
	for _, n := range sp.Names {
		delete(want, n)
	}
	if len(want) > 0 {
		t.Errorf("names %v miss %v", sp.Names, want)
	}
}

func TestFuncLiteralIsStatement(t *testing.T) {
	for _, src := range []string{
		"func() { println(1) }()",
		"func() int { return 1 }()",
		"func() (int, error) { return 1, nil }()",
		"func(a int) { println(a) }(3)",
	} {
		sp, err := Parse(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if !sp.HasStmts || sp.HasDecls {
			t.Errorf("%q: stmts=%v decls=%v", src, sp.HasStmts, sp.HasDecls)
		}
	}
	sp, _ := Parse("func (r *T) M() {}")
	if !sp.HasDecls || sp.HasStmts {
		t.Error("method declaration taken as statement")
	}
}

func TestPrintIsNotAResult(t *testing.T) {
	for src, want := range map[string]bool{
		`fmt.Println("hi")`:         false,
		`fmt.Printf("%d", 1)`:       false,
		`println(1)`:                false,
		`x := 1`:                    false,
		`6*7`:                       true,
		`strings.ToUpper("a")`:      true,
		"x := 1\nx":                 true,
		"x := 1\nfunc f() {}":       false,
		"func f() int { return 1 }": false,
	} {
		sp, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if sp.ShowsResult != want {
			t.Errorf("%q: ShowsResult = %v, want %v", src, sp.ShowsResult, want)
		}
	}
}

func TestSyntaxErrorLine(t *testing.T) {
	_, err := Parse("x := 1\ny := 2\nz := )\n")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 {
		t.Fatalf("err = %v, want a syntax error on line 3", err)
	}
	_, err = Parse("func f() {\n  return 1 +\n}\n")
	if !errors.As(err, &se) || se.Line != 3 {
		t.Fatalf("decl err = %v, want line 3", err)
	}
	_, err = Parse("x := \"unterminated\n")
	if !errors.As(err, &se) || se.Line != 1 {
		t.Fatalf("scan err = %v", err)
	}
}

func TestIsComplete(t *testing.T) {
	cases := map[string]Completeness{
		`fmt.Println("hello, world")`: Complete,
		"x := 1":                      Complete,
		"":                            Complete,
		"func f() {":                  Incomplete,
		"for i := 0; i < 3; i++ {\n\tfmt.Println(i)": Incomplete,
		"x := []int{1,\n2,":                          Incomplete,
		"s := `raw":                                  Incomplete,
		"x := )":                                     Invalid,
		"}":                                          Invalid,
		"func f() { x := ) ":                         Invalid,
		"x := 'ab'":                                  Invalid,
	}
	for src, want := range cases {
		got, _ := IsComplete(src)
		if got != want {
			t.Errorf("IsComplete(%q) = %s, want %s", src, got, want)
		}
	}
	if _, indent := IsComplete("func f() {"); indent != "\t" {
		t.Errorf("indent %q", indent)
	}
}

func TestRewriteGo(t *testing.T) {
	src := "for i := 0; i < 3; i++ {\n\tgo work(i, \"x\", xs...)\n}\ngo func() {\n\tgo inner()\n}()"
	sp, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := RewriteGo(sp.Stmts, true, 7)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != strings.Count(sp.Stmts, "\n") {
		t.Fatalf("rewrite moved lines:\n%s", out)
	}
	if strings.Count(out, GuardName+".Report(7, r)") != 3 {
		t.Fatalf("want 3 guarded goroutines:\n%s", out)
	}
	if !strings.Contains(out, `work(_ssg7_`) || !strings.Contains(out, `"x", _ssg7_`) || !strings.Contains(out, "...)") {
		t.Fatalf("arguments not bound before the goroutine:\n%s", out)
	}
	// Rewriting is idempotent.
	again, err := RewriteGo(out, true, 7)
	if err != nil || again != out {
		t.Fatalf("second rewrite changed the code (%v):\n%s", err, again)
	}
	// Declarations: a go statement inside a function.
	decl, err := RewriteGo("func f() { go g(1) }", false, 2)
	if err != nil || !strings.Contains(decl, "Report(2, r)") {
		t.Fatalf("decl rewrite: %v\n%s", err, decl)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"x := 1", "func f() {}\nf()", "import \"fmt\"\nfmt.Println(1)", "go f(x)", "type T struct{}", "{", "}", "func (", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sp, err := Parse(src)
		if err != nil {
			return
		}
		if len(sp.Stmts) > len(src) || len(sp.Decls) > len(src) {
			t.Fatal("a part is longer than the cell")
		}
		if sp.HasStmts {
			if _, err := RewriteGo(sp.Stmts, true, 1); err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("rewrite: %v", err)
				}
			}
		}
		IsComplete(src)
	})
}

func TestMarkStatements(t *testing.T) {
	src := "x := 1\nfor i := 0; i < 2; i++ {\n\tx++\n}\n  y := x; z := y"
	out, marks := MarkStatements(src)
	if strings.Count(out, "\n") != strings.Count(src, "\n") {
		t.Fatal("lines moved")
	}
	if len(marks) != 3 || marks[0].Line != 1 || marks[1].Line != 2 || marks[2].Line != 5 || marks[2].Col != 3 {
		t.Fatalf("markers %+v", marks)
	}
	if !strings.HasPrefix(out, GuardName+".Line(1); x := 1") || !strings.Contains(out, "  "+GuardName+".Line(5); y := x; z := y") {
		t.Fatalf("marked:\n%s", out)
	}
	if strings.Contains(out, "Line(3)") {
		t.Fatal("a nested statement was marked")
	}
}

func TestWrapBlocks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Wrapped: a nested definition of several variables from one value.
		{"for i := 0; i < 2; i++ {\n\tx, _ := f()\n\tuse(x)\n}", "func() { for i := 0; i < 2; i++ {\n\tx, _ := f()\n\tuse(x)\n} }()"},
		{"if ok {\n\tv, found := m[k]\n}\ny := 1", "func() { if ok {\n\tv, found := m[k]\n} }()\ny := 1"},
		{"{\n\ta, b := g()\n}", "func() { {\n\ta, b := g()\n} }()"},
		// Left alone: top-level definitions (they carry to later cells),
		// several values, function literals, no definition at all.
		{"x, err := f()\nuse(x, err)", "x, err := f()\nuse(x, err)"},
		{"for {\n\ta, b := 1, 2\n}", "for {\n\ta, b := 1, 2\n}"},
		{"for {\n\tgo func() { a, b := f() }()\n}", "for {\n\tgo func() { a, b := f() }()\n}"},
		{"for i := range xs {\n\tuse(i)\n}", "for i := range xs {\n\tuse(i)\n}"},
	} {
		got, err := WrapBlocks(c.in)
		if err != nil || got != c.want {
			t.Errorf("WrapBlocks(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if strings.Count(got, "\n") != strings.Count(c.in, "\n") {
			t.Errorf("WrapBlocks(%q) moved lines", c.in)
		}
	}
	if _, err := WrapBlocks("for {"); err == nil {
		t.Error("a syntax error passed")
	}
}
