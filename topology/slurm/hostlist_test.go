package slurm

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestExpandHostlist(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ", nil},
		{"node1", []string{"node1"}},
		{"login,db", []string{"login", "db"}},
		{"n[01-04]", []string{"n01", "n02", "n03", "n04"}},
		{"n[1-3,7,10-11]", []string{"n1", "n2", "n3", "n7", "n10", "n11"}},
		{"n[8-10]", []string{"n8", "n9", "n10"}},
		{"n[08-10]", []string{"n08", "n09", "n10"}},
		{"n[008-10]", []string{"n008", "n009", "n010"}},
		{"n[1,01]", []string{"n1", "n01"}},
		{"n[7]", []string{"n7"}},
		{"n[0-0]", []string{"n0"}},
		{"[1-2]", []string{"1", "2"}},
		{"rack[1-2]-n[01-02]", []string{"rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02"}},
		// Slurm's order with three groups: the last fastest, then the first, the middle slowest.
		{"a[1-2]b[3-4]c[5-6]", []string{"a1b3c5", "a1b3c6", "a2b3c5", "a2b3c6", "a1b4c5", "a1b4c6", "a2b4c5", "a2b4c6"}},
		{"a[1-2],b3,c[05-06]", []string{"a1", "a2", "b3", "c05", "c06"}},
		{"a[1-2] b3\tc[05-06]", []string{"a1", "a2", "b3", "c05", "c06"}},
		{"n[1-2]-ib", []string{"n1-ib", "n2-ib"}},
		{"b,a,a", []string{"b", "a", "a"}},
		{"cab[100-102],cab200", []string{"cab100", "cab101", "cab102", "cab200"}},
	}
	for _, tt := range tests {
		got, err := ExpandHostlist(tt.in)
		if err != nil {
			t.Errorf("ExpandHostlist(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ExpandHostlist(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpandHostlistErrors(t *testing.T) {
	tests := []struct {
		in   string
		col  int
		want string // part of the message
	}{
		{"n[1-3", 2, "expected ']' to close the '[' at column 2, found the end"},
		{"n[1-3,", 2, "expected ']' to close the '[' at column 2, found the end"},
		{"n[", 2, "expected ']' to close"},
		{"n1-3]", 5, "found ']' without a '['"},
		{"n[1-2]]", 7, "found ']' without a '['"},
		{"n[]", 3, "expected a number in the '[' at column 2, found ']'"},
		{"n[1,]", 5, "expected a number in the '[' at column 2, found ']'"},
		{"n[,1]", 3, "expected a number in the '[' at column 2, found ','"},
		{"n[1-]", 5, "expected a number in the '[' at column 2, found ']'"},
		{"n[5-3]", 3, `expected a range lo-hi with lo ≤ hi, found "5-3"`},
		{"a,n[10-3]", 5, `found "10-3"`},
		{"n[a-b]", 3, "expected a number in the '[' at column 2, found 'a'"},
		{"n[1-b]", 5, "found 'b'"},
		{"n[1-2-3]", 6, "expected ',', '-' or ']' after a number in the '[' at column 2, found '-'"},
		{"n[1 2]", 4, "found ' '"},
		{"n[1[2]]", 4, "found '['"},
		{"n[-1]", 3, "found '-'"},
		{"n[0-1000000]", 3, `expected at most 1000000 host names in all, found the range "0-1000000" of 1000001`},
		{"n[0-999999],m", 13, "expected at most 1000000 host names in all"},
		{"n[0-999999,5]", 2, "expected at most 1000000 host names in all, found more in the '[' at column 2"},
		{"a[0-999]b[0-1000]", 1, "expected at most 1000000 host names in all"},
		{"n[1234567890123456789]", 3, "expected a number of at most 18 digits, found 19 digits"},
		{"n[1-é]", 5, "found 'é'"},
	}
	for _, tt := range tests {
		got, err := ExpandHostlist(tt.in)
		if err == nil {
			t.Errorf("ExpandHostlist(%q) = %d names, want an error", tt.in, len(got))
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("ExpandHostlist(%q): %T is not a *ParseError", tt.in, err)
			continue
		}
		if pe.Col != tt.col || !strings.Contains(pe.Msg, tt.want) || pe.File != "" || pe.Line != 0 {
			t.Errorf("ExpandHostlist(%q): %v (col %d), want col %d and %q", tt.in, err, pe.Col, tt.col, tt.want)
		}
		if !strings.HasPrefix(err.Error(), "hostlist "+quote(tt.in)+": ") {
			t.Errorf("ExpandHostlist(%q): %q does not name the hostlist", tt.in, err)
		}
	}
}

func TestExpandHostlistBytesLimit(t *testing.T) {
	long := strings.Repeat("x", 100) + "[0-999999]" // 10^6 names of ~106 bytes
	_, err := ExpandHostlist(long)
	if err == nil || !strings.Contains(err.Error(), "MiB of host names") {
		t.Fatalf("err = %v, want the byte limit", err)
	}
	names, err := ExpandHostlist("n[0-999999]") // exactly the limit
	if err != nil || len(names) != MaxHostlistNames || names[999999] != "n999999" {
		t.Fatalf("%d names, %v", len(names), err)
	}
}

func TestCompressHostlist(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{""}, ""},
		{[]string{"n01", "n02", "n03", "n04"}, "n[01-04]"},
		{[]string{"n7", "n10", "n11", "n2", "n1", "n3"}, "n[1-3,7,10-11]"},
		{[]string{"n8", "n9", "n10"}, "n[8-10]"},
		{[]string{"n08", "n09", "n10"}, "n[08-10]"},
		{[]string{"n1", "n01"}, "n[1,01]"},
		{[]string{"n9", "n09", "n10", "n010"}, "n[9-10,09,010]"},
		{[]string{"n099", "n100"}, "n[099-100]"},
		{[]string{"c06", "b3", "a2", "c05", "a1"}, "a[1-2],b3,c[05-06]"},
		{[]string{"rack2-n01", "rack1-n02", "rack1-n01", "rack2-n02"}, "rack1-n[01-02],rack2-n[01-02]"},
		{[]string{"login", "db", "n1", "n1"}, "db,login,n1"},
		{[]string{"b1", "b", "a"}, "a,b,b1"},
		{[]string{"7", "8", "x"}, "[7-8],x"},
		{[]string{"n1-ib", "n2-ib"}, "n1-ib,n2-ib"},
		{[]string{"n0", "n1"}, "n[0-1]"},
		{[]string{"n12345678901234567890"}, "n12345678901234567890"},
	}
	for _, tt := range tests {
		got := CompressHostlist(tt.in)
		if got != tt.want {
			t.Errorf("CompressHostlist(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		back, err := ExpandHostlist(got)
		if err != nil {
			t.Errorf("ExpandHostlist(%q): %v", got, err)
			continue
		}
		if !sameSet(back, tt.in) {
			t.Errorf("ExpandHostlist(CompressHostlist(%q)) = %q", tt.in, back)
		}
	}
}

// sameSet reports whether a and b hold the same non-empty names.
func sameSet(a, b []string) bool {
	set := func(s []string) map[string]bool {
		m := make(map[string]bool)
		for _, x := range s {
			if x != "" {
				m[x] = true
			}
		}
		return m
	}
	return reflect.DeepEqual(set(a), set(b))
}
