package sdk

import (
	"bytes"
	"math"
	"testing"
)

func TestWritePositionsTSV(t *testing.T) {
	var b bytes.Buffer
	err := writePositionsTSV(&b, []string{"a", "tab\there", "line\nbreak"}, []float64{0, -1.5, 1e21}, []float64{0.1, 2, math.NaN()}, []int32{3, 0, -1})
	if err != nil {
		t.Fatal(err)
	}
	want := "id\tlabel\tx\ty\tgroup\n" +
		"0\ta\t0\t0.1\t3\n" +
		"1\ttab here\t-1.5\t2\t0\n" +
		"2\tline break\t1e+21\tNaN\t-1\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := writePositionsTSV(&b, nil, []float64{1.25}, []float64{0.3333333333333333}, nil); err != nil || b.String() != "id\tlabel\tx\ty\tgroup\n0\t\t1.25\t0.3333333333333333\t\n" {
		t.Errorf("without labels and groups: %q, %v", b.String(), err)
	}
	if err := writePositionsTSV(&b, nil, []float64{1}, nil, nil); err == nil {
		t.Error("mismatched x and y: no error")
	}
	if err := writePositionsTSV(&b, []string{"a", "b"}, []float64{1}, []float64{1}, nil); err == nil {
		t.Error("mismatched labels: no error")
	}
}
