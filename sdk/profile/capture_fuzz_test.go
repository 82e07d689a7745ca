package profile

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// FuzzReadCapture: any bytes give a profile or a *CaptureError naming a
// record, never a panic; a profile read is valid and survives being
// written and read again.
func FuzzReadCapture(f *testing.F) {
	data, ends := captureBytes(f, fixtureProfile())
	f.Add(data)
	f.Add(data[:ends[0]])
	f.Add(data[:ends[2]])
	f.Add(data[:len(data)-1])
	small, _ := captureBytes(f, synthProfile(2, 3))
	f.Add(small)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := ReadCapture(bytes.NewReader(in), "fuzz.capture")
		if err != nil {
			var ce *CaptureError
			if !errors.As(err, &ce) || ce.Record < 1 || ce.Name != "fuzz.capture" {
				t.Fatalf("error %v is not a *CaptureError naming the file and a record", err)
			}
			if p != nil {
				if err := p.Validate(); err != nil {
					t.Fatalf("partial profile invalid: %v", err)
				}
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("profile read without error is invalid: %v", err)
		}
		again, _ := captureBytes(t, p)
		q, err := ReadCapture(bytes.NewReader(again), "again")
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatal("write/read round trip differs")
		}
	})
}
