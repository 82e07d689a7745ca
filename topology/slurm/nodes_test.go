package slurm

import (
	"reflect"
	"strings"
	"testing"
)

func TestHCAHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"host HCA-1", "host"},
		{"node042 mlx5_0", "node042"},
		{`"cab123 qib0"`, "cab123"},
		{"  lonely  ", "lonely"},
		{"a\tb", "a"},
		{"", ""},
		{`""`, ""},
		{"   ", ""},
	}
	for _, tt := range tests {
		if got := HCAHost(tt.in); got != tt.want {
			t.Errorf("HCAHost(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMapNodes(t *testing.T) {
	known := map[string]int{"n01": 0, "n02": 1, "n03": 2, "n04": 3}
	jobs := []Job{
		{ID: "1", Nodes: []string{"n03", "n01"}, Line: 2},
		{ID: "2", Line: 3},
		{ID: "3", Nodes: []string{"n04", "x1", "x2", "n02", "x3"}, Line: 4},
	}
	idx, warns := MapNodes(jobs, known)
	if want := [][]int{{2, 0}, {}, {3, 1}}; !reflect.DeepEqual(idx, want) {
		t.Errorf("indices %v, want %v", idx, want)
	}
	if len(warns) != 1 || warns[0].String() != `line 4: job 3: 3 of its 5 nodes are not in the network and are left out: "x[1-3]"` {
		t.Errorf("warnings %v", warns)
	}
	// A long list of unknown names is shortened.
	var many []string
	for i := 0; i < 100; i++ {
		many = append(many, "m"+itoa(i*2)+"z")
	}
	_, warns = MapNodes([]Job{{ID: "4", Nodes: many}}, known)
	if len(warns) != 1 || !strings.HasSuffix(warns[0].Msg, "…") || len(warns[0].Msg) > 200 {
		t.Errorf("warnings %v", warns)
	}
	if idx, warns := MapNodes(nil, known); len(idx) != 0 || warns != nil {
		t.Errorf("no jobs: %v %v", idx, warns)
	}
}
