package session

import (
	"context"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The README's Go snippets run as written, in order, in one session.
func TestREADMESnippetsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's jobs and layouts")
	}
	text := readme(t)
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(text, -1)
	if len(blocks) < 3 {
		t.Fatalf("found %d Go blocks in the README", len(blocks))
	}
	t.Chdir(t.TempDir()) // snippets save files
	s := newKernelSession(t)
	for i, b := range blocks {
		if _, err := s.Execute(context.Background(), b[1], i+1); err != nil {
			t.Errorf("README Go block %d:\n%s\nfails: %v", i+1, b[1], err)
		}
	}
}

// The README names every package a cell starts with, and no other.
func TestREADMEListsThePreloadedPackages(t *testing.T) {
	text := readme(t)
	i := strings.Index(text, "starts with these packages imported")
	if i < 0 {
		t.Fatal("the README does not say which packages a cell starts with")
	}
	para := text[i:]
	if j := strings.Index(para, "\n\n"); j > 0 {
		para = para[:j]
	}
	var named []string
	for _, m := range regexp.MustCompile("`([a-z0-9]+)`").FindAllStringSubmatch(para, -1) {
		named = append(named, m[1])
	}
	var want []string
	for _, p := range Preload() {
		want = append(want, p[strings.LastIndex(p, "/")+1:])
	}
	sort.Strings(named)
	sort.Strings(want)
	if strings.Join(named, " ") != strings.Join(want, " ") {
		t.Fatalf("the README names %v; cells start with %v", named, want)
	}
}
