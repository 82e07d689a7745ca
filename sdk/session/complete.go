package session

import (
	"context"
	"go/token"
	"os/exec"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// identBefore returns the identifier (possibly qualified, "pkg.Na") that
// ends at byte offset cursor, and where its last part starts.
func identBefore(code string, cursor int) (qual, partial string, start int) {
	if cursor > len(code) {
		cursor = len(code)
	}
	i := cursor
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:i])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			break
		}
		i -= size
	}
	partial, start = code[i:cursor], i
	if i > 0 && code[i-1] == '.' {
		j := i - 1
		for j > 0 {
			r, size := utf8.DecodeLastRuneInString(code[:j])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
				break
			}
			j -= size
		}
		qual = code[j : i-1]
	}
	return qual, partial, start
}

// runeOffset converts a cursor given in Unicode code points (as Jupyter
// does) to a byte offset, and back.
func runeOffset(code string, cursorRunes int) int {
	if cursorRunes < 0 {
		return 0
	}
	n := 0
	for i := range code {
		if n == cursorRunes {
			return i
		}
		n++
	}
	return len(code)
}

func runeCount(code string, byteOffset int) int { return utf8.RuneCountInString(code[:byteOffset]) }

// peek evaluates a plain identifier to look at its value (no side effects:
// only identifiers a cell defined are evaluated).
func (s *Session) peek(name string) (reflect.Value, bool) {
	if _, known := s.checker.objs[name]; !known || !token.IsIdentifier(name) {
		return reflect.Value{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	v, err := s.interp.EvalWithContext(ctx, name)
	if err != nil || !v.IsValid() {
		return reflect.Value{}, false
	}
	return v, true
}

// goDoc asks the Go tool for documentation, if it is installed; the kernel
// works without it.
func goDoc(query string, source bool) string {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	args := []string{"doc"}
	if source {
		args = append(args, "-src")
	}
	cmd := exec.CommandContext(ctx, goTool, append(args, query)...)
	cmd.Dir = SourceDir()
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// SourceDir is where go doc runs: the Superstep source tree when the kernel
// knows it (SUPERSTEP_SRC, set by install.sh), so that SDK packages are
// found, or the working directory.
func SourceDir() string {
	if d := lookupEnv("SUPERSTEP_SRC"); d != "" {
		return d
	}
	return ""
}
