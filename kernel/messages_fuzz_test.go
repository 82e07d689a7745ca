package kernel

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"superstep/kernel/wire"
)

// Any request content, well formed or not, decodes or gets an error that
// names the message type; nothing panics.
func FuzzDecodeContent(f *testing.F) {
	for _, seed := range []string{
		`{"code":"x := 1","silent":false,"store_history":true,"user_expressions":{},"allow_stdin":true,"stop_on_error":true}`,
		`{"code":7}`, `{"code":"a","user_expressions":{"x":3}}`, `[]`, `null`, `{`, `{"code":"a","store_history":null}`,
		`{"code":"a","cursor_pos":-1,"detail_level":1.5}`, `{"hist_access_type":"tail","n":null}`, `"string"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		for _, target := range []any{&executeRequest{}, &inspectRequest{}, &codeRequest{}, &historyRequest{}, &commContent{}, &shutdownRequest{}} {
			msg := &wire.Message{Header: wire.Header{MsgType: "some_request"}, Content: json.RawMessage(content)}
			err := decodeContent(msg, target)
			if err == nil {
				continue
			}
			var re *requestError
			if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), "some_request: ") {
				t.Fatalf("content %q: error %v does not name the request", content, err)
			}
		}
	})
}
