package datasets

import (
	"io/fs"
	"testing"
)

func TestPingPongOTF2Files(t *testing.T) {
	fsys := PingPongOTF2()
	for _, name := range []string{"traces.otf2", "traces.def", "traces/0.evt", "traces/1.evt", "traces/0.def", "traces/1.def", "LICENSE.pipit.txt", "SOURCE.txt"} {
		b, err := fs.ReadFile(fsys, name)
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v (%d bytes)", name, err, len(b))
		}
	}
}
