package otf2

import (
	"context"
	"testing"
)

// BenchmarkRead reads a 16-rank trace of 160,032 messages (48 pairs ×
// 3,334) written by libotf2.
func BenchmarkRead(b *testing.B) {
	anchor := generate(b, "3334", "16")
	b.ResetTimer()
	for b.Loop() {
		tr, err := Read(context.Background(), anchor)
		if err != nil {
			b.Fatal(err)
		}
		if len(tr.Messages) != 160032 {
			b.Fatalf("%d messages, want 160,032", len(tr.Messages))
		}
	}
}
