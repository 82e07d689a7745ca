package mpijob

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// FuzzLoadSpec: any spec file gives a spec or an error naming the file,
// never a panic; a spec that loads saves and loads back the same.
func FuzzLoadSpec(f *testing.F) {
	for _, s := range []string{
		`{"graph": "4elt", "program": "pagerank", "params": {"iterations": 5}, "out": "/tmp/x"}`,
		`{"graph": "g.graph", "program": "sssp", "partition": "p.i32", "max_supersteps": 10, "out": "o"}`,
		`{"graph": "karate", "program": "MaxLabel", "out": "o", "source": {"imports": {"bsp": "superstep/sdk/bsp"}, "decls": "type MaxLabel struct{ Shift float64 }", "type": "MaxLabel", "value": {"Shift": 1}}}`,
		`{"graph": "karate", "program": "X", "out": "o", "source": {"decls": "func (", "type": "X", "value": {}}}`,
		`{"graph": "karate", "program": "louvain", "partitioner": "spinner", "out": "o"}`,
		`{"graph": "", "program": "pagerank", "out": "o"}`,
		`{"graph": "a", "program": "pagerank", "out": "o", "extra": 1}`,
		`[]`, ``, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "spec.json")
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		type loaded struct {
			spec *Spec
			err  error
		}
		done := make(chan loaded, 1)
		go func() {
			s, err := LoadSpec(path)
			done <- loaded{s, err}
		}()
		var spec *Spec
		var err error
		select {
		case l := <-done:
			spec, err = l.spec, l.err
		case <-time.After(5 * time.Second):
			t.Fatalf("LoadSpec has not returned after 5 s on %q", in)
		}
		if err != nil {
			if spec != nil || !strings.Contains(err.Error(), "spec.json") && !strings.Contains(err.Error(), "mpijob") {
				t.Fatalf("error %q (spec %v)", err, spec)
			}
			return
		}
		again := filepath.Join(dir, "again.json")
		if err := spec.Save(again); err != nil {
			t.Fatal(err)
		}
		back, err := LoadSpec(again)
		if err != nil {
			t.Fatalf("a loaded spec does not load back: %v", err)
		}
		// The value's JSON is kept as written: compare it compacted; an
		// empty map is left out when saved.
		for _, s := range []*Spec{spec, back} {
			if len(s.Params) == 0 {
				s.Params = nil
			}
			if s.Source != nil {
				if len(s.Source.Imports) == 0 {
					s.Source.Imports = nil
				}
				var b bytes.Buffer
				if err := json.Compact(&b, s.Source.Value); err != nil {
					t.Fatal(err)
				}
				s.Source.Value = b.Bytes()
			}
		}
		if !reflect.DeepEqual(spec, back) {
			t.Fatalf("round trip: %+v, then %+v", spec, back)
		}
	})
}
