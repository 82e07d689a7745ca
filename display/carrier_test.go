package display

import (
	"strings"
	"testing"
)

// The runtime goes in the first live display of a session, and again
// whenever the output that holds it may be gone.
func TestCarrier(t *testing.T) {
	live := Bundle{Data: map[string]any{"text/html": "<div>live</div>", "text/plain": "x"}, NeedsRuntime: true}
	plain := Bundle{Data: map[string]any{"text/html": "<b>table</b>"}}
	carries := func(b Bundle) bool {
		h, _ := b.Data["text/html"].(string)
		return strings.Contains(h, RuntimeJS[:100])
	}
	type step struct {
		do   string // "cell ID", "delete ID", "clear", "show", "show@ID" (a display id), "plain"
		want bool   // the bundle shown carries the runtime
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"once per session", []step{{"cell a", false}, {"show", true}, {"show", false}, {"cell b", false}, {"show", false}}},
		{"not on plain output", []step{{"cell a", false}, {"plain", false}, {"show", true}}},
		{"the carrier's cell runs again", []step{{"cell a", false}, {"show", true}, {"cell b", false}, {"show", false}, {"cell a", false}, {"show", true}}},
		{"the carrier's cell is deleted", []step{{"cell a", false}, {"show", true}, {"delete a", false}, {"show", true}}},
		{"its output is cleared", []step{{"cell a", false}, {"show", true}, {"clear", false}, {"show", true}, {"cell b", false}, {"clear", false}, {"show", false}}},
		{"updates of the carrier keep it", []step{{"cell a", false}, {"show@p", true}, {"show@p", true}, {"show", false}, {"show@q", false}}},
		// Notebook 6 sends no cell ids: a rerun cannot be told apart.
		{"no cell ids", []step{{"cell ", false}, {"show", true}, {"cell ", false}, {"show", false}}},
	} {
		var c Carrier
		for i, s := range tc.steps {
			var got Bundle
			switch verb, arg, _ := strings.Cut(s.do, " "); {
			case verb == "cell":
				c.BeginCell(arg, nil)
				continue
			case verb == "delete":
				c.BeginCell("other", []string{arg})
				continue
			case verb == "clear":
				c.Cleared()
				continue
			case verb == "plain":
				got = c.Prepare(plain, "")
			case strings.HasPrefix(verb, "show@"):
				got = c.Prepare(live, strings.TrimPrefix(verb, "show@"))
			default:
				got = c.Prepare(live, "")
			}
			if _, ok := got.Data[ViewMIME]; ok != (s.do != "plain") {
				t.Errorf("%s, step %d (%s): %s %v", tc.name, i, s.do, ViewMIME, got.Data[ViewMIME])
			}
			if carries(got) != s.want {
				t.Errorf("%s, step %d (%s): carries the runtime %v, want %v", tc.name, i, s.do, !s.want, s.want)
			}
		}
	}
	// Prepare never changes the bundle it is given.
	if carries(live) {
		t.Error("Prepare modified its argument")
	}
	if h := WithRuntime(live).Data["text/html"].(string); !strings.HasPrefix(h, "<script") || !strings.HasSuffix(h, "<div>live</div>") {
		t.Errorf("WithRuntime: %.60s", h)
	}
}
