package fattree

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDeltasResetToZero: TreeScope's rule counts a decrease as 0 and the
// next interval from the new value; the default counts the new value.
// Link 1's bytes go 9000 → 300 → 700: TreeScope 0 + 400 = 400, the
// default 300 + 400 = 700. Packets 9 → 12 → 15 are not reset: 3 + 3.
func TestDeltasResetToZero(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	snaps := []Snapshot{
		{Time: at(0), Where: "p", Links: []LinkCounters{{Link: 1, Bytes: 9000, Packets: 9}}},
		{Time: at(60), Where: "p", Links: []LinkCounters{{Link: 1, Bytes: 300, Packets: 12, Line: 4}}},
		{Time: at(120), Where: "p", Links: []LinkCounters{{Link: 1, Bytes: 700, Packets: 15}}},
	}
	for _, c := range []struct {
		rule  ResetRule
		bytes []int64
		how   string
	}{
		{ResetToZero, []int64{0, 400}, "a reset, counted as 0 (TreeScope's rule)"},
		{ResetFromZero, []int64{300, 400}, "a reset, counted from 0"},
	} {
		rows, warns, err := DeltasWith(snaps, c.rule)
		if err != nil {
			t.Fatal(err)
		}
		var bytes []int64
		for _, r := range rows {
			bytes = append(bytes, r.Bytes)
			if r.Packets != 3 {
				t.Errorf("%v: row %+v", c.rule, r)
			}
		}
		if !slices.Equal(bytes, c.bytes) {
			t.Errorf("%v: bytes %v, want %v", c.rule, bytes, c.bytes)
		}
		if len(warns) != 1 || warns[0].Msg != "link 1 at 2026-11-24T15:01:00Z (p:4): bytes went from 9000 to 300: "+c.how {
			t.Errorf("%v: warnings %v", c.rule, warns)
		}
	}
	if _, _, err := DeltasWith(snaps, ResetRule(5)); err == nil || !strings.Contains(err.Error(), "unknown reset rule") {
		t.Errorf("an unknown rule: %v", err)
	}
}
