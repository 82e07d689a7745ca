package wire

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s := NewSigner("secret")
	msg := &Message{
		Identities:   [][]byte{[]byte("client-1")},
		Header:       NewHeader("execute_request", "sess"),
		ParentHeader: json.RawMessage(`{}`),
		Body:         map[string]any{"code": "1+1"},
	}
	frames, err := s.Encode(msg)
	if err != nil {
		t.Fatal(err)
	}
	if string(frames[1]) != Delimiter {
		t.Fatalf("frame 1 = %q, want delimiter", frames[1])
	}
	got, err := s.Decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Identities[0]) != "client-1" || got.Header.MsgType != "execute_request" {
		t.Fatalf("decoded %+v", got)
	}
	var c struct{ Code string }
	if err := json.Unmarshal(got.Content, &c); err != nil || c.Code != "1+1" {
		t.Fatalf("content %s (%v)", got.Content, err)
	}
}

// The signature is HMAC-SHA256 over header, parent, metadata and content in
// that order: this vector was computed independently with Python's hmac.
func TestSignKnownVector(t *testing.T) {
	s := NewSigner("key")
	got := s.Sign([]byte(`{"a":1}`), []byte(`{}`), []byte(`{}`), []byte(`{}`))
	const want = "f1128388193e4dd1aa760827bd756a1b40b627676b5efe22c0e8297919bfa218"
	if got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
}

func TestForgedSignatureRejected(t *testing.T) {
	s := NewSigner("secret")
	frames, err := s.Encode(&Message{Header: NewHeader("execute_request", "x"), Body: map[string]any{"code": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	forged := NewSigner("other-key")
	frames2, _ := forged.Encode(&Message{Header: NewHeader("execute_request", "x"), Body: map[string]any{"code": "1"}})
	if _, err := s.Decode(frames2); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("decode with wrong key: err = %v, want ErrBadSignature", err)
	}
	// Tamper with the content after signing.
	frames[len(frames)-1] = []byte(`{"code":"os.Exit(1)"}`)
	if _, err := s.Decode(frames); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered content: err = %v", err)
	}
	// A signature that is not hex.
	frames[2] = []byte("zz")
	if _, err := s.Decode(frames); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("non-hex signature: err = %v", err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	s := NewSigner("")
	cases := map[string][][]byte{
		"no delimiter": {[]byte("a"), []byte("b")},
		"short":        {[]byte(Delimiter), []byte(""), []byte("{}")},
		"bad header":   {[]byte(Delimiter), []byte(""), []byte("{"), []byte("{}"), []byte("{}"), []byte("{}")},
		"no msg_type":  {[]byte(Delimiter), []byte(""), []byte("{}"), []byte("{}"), []byte("{}"), []byte("{}")},
		"bad metadata": {[]byte(Delimiter), []byte(""), []byte(`{"msg_type":"x"}`), []byte("{}"), []byte("[1"), []byte("{}")},
	}
	for name, frames := range cases {
		if _, err := s.Decode(frames); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	s := NewSigner("")
	f.Add([]byte(Delimiter), []byte(`{"msg_type":"kernel_info_request"}`), []byte(`{}`))
	f.Add([]byte("id"), []byte(`{`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, a, header, content []byte) {
		frames := [][]byte{a, []byte(Delimiter), nil, header, []byte("{}"), []byte("{}"), content}
		msg, err := s.Decode(frames)
		if err == nil && msg.Header.MsgType == "" {
			t.Fatal("decoded a message without msg_type")
		}
	})
}

func TestReadConnectionFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "c.json")
	os.WriteFile(good, []byte(`{"transport":"tcp","ip":"127.0.0.1","shell_port":1,"key":"k","signature_scheme":"hmac-sha256"}`), 0o600)
	ci, err := ReadConnectionFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if ci.Endpoint(ci.ShellPort) != "tcp://127.0.0.1:1" {
		t.Fatalf("endpoint %s", ci.Endpoint(1))
	}
	bad := filepath.Join(dir, "b.json")
	os.WriteFile(bad, []byte(`{"transport":"tcp","ip":"127.0.0.1","signature_scheme":"hmac-md5"}`), 0o600)
	if _, err := ReadConnectionFile(bad); err == nil {
		t.Fatal("hmac-md5 accepted")
	}
}
