package trace

import (
	"fmt"
	"slices"
	"testing"
)

func TestWarningsKeepAFewOfEachKind(t *testing.T) {
	var w Warnings
	for i := 1; i <= 8; i++ {
		w.Add("unknown record", "a.1.events", i, "record %q skipped", fmt.Sprint("Q", i))
	}
	w.Add("counter on a process group", "a.2.events", 3, "counter skipped")
	got := w.List()
	want := []string{
		`a.1.events:1: record "Q1" skipped`, `a.1.events:2: record "Q2" skipped`, `a.1.events:3: record "Q3" skipped`,
		`a.1.events:4: record "Q4" skipped`, `a.1.events:5: record "Q5" skipped`,
		"a.1.events: … and 3 more: unknown record",
		"a.2.events:3: counter skipped",
	}
	if !slices.Equal(got, want) {
		t.Errorf("List() =\n%q\nwant\n%q", got, want)
	}
	if w.Len() != 9 {
		t.Errorf("Len() = %d, want 9", w.Len())
	}
}

func TestWarningsMergeInOrder(t *testing.T) {
	var a, b Warnings
	for i := 1; i <= 4; i++ {
		a.Add("k", "f1", i, "x")
		b.Add("k", "f2", i, "y")
	}
	b.Add("other", "f2", 0, "whole file")
	a.Merge(&b)
	got := a.List()
	want := []string{"f1:1: x", "f1:2: x", "f1:3: x", "f1:4: x", "f2:1: y", "f1: … and 3 more: k", "f2: whole file"}
	if !slices.Equal(got, want) {
		t.Errorf("merged List() =\n%q\nwant\n%q", got, want)
	}
	if a.Len() != 9 {
		t.Errorf("Len() = %d, want 9", a.Len())
	}
}
