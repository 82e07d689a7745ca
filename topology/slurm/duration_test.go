package slurm

import (
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"00:00:00", 0, true},
		{"01:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"1-00:00:00", 24 * time.Hour, true},
		{"2-03:04:05", 51*time.Hour + 4*time.Minute + 5*time.Second, true},
		{"0-01:00:00", time.Hour, true},
		{"12:34", 12*time.Minute + 34*time.Second, true},
		{"1:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"0:00", 0, true},
		{":07", 7 * time.Second, true},
		{"125:00:00", 125 * time.Hour, true},
		{"90:00", 90 * time.Minute, true},
		{"01:02.500", time.Minute + 2*time.Second + 500*time.Millisecond, true},
		{"00:01:02.123456", time.Minute + 2*time.Second + 123456*time.Microsecond, true},
		{"", 0, false},
		{"5", 0, false},
		{"INVALID", 0, false},
		{"UNLIMITED", 0, false},
		{"1:2:3:4", 0, false},
		{"01:60", 0, false},
		{"01:60:00", 0, false},
		{"1-24:00:00", 0, false},
		{"1-10:00", 0, false},
		{"-01:00:00", 0, false},
		{"1--01:00:00", 0, false},
		{"01:02.", 0, false},
		{"01:02.1234567890", 0, false},
		{"a1:00", 0, false},
		{"01:1x", 0, false},
		{"1:", 0, false},
		{"::", 0, false},
		{"100000-23:59:59", 100000*24*time.Hour + 23*time.Hour + 59*time.Minute + 59*time.Second, true},
		{"9999999-23:59:59", 0, false}, // too long for a time.Duration
		{"999999999:59:59", 0, false},  // too long for a time.Duration
	}
	for _, tt := range tests {
		got, ok := parseDuration(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
