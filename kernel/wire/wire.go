// Package wire implements the Jupyter messaging protocol's wire format: the
// connection file, message framing over ZeroMQ multipart messages, and the
// HMAC signature that authenticates every message.
//
// It knows nothing about sockets or about what a message means; the kernel
// package moves frames and decides what to do with them.
package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"time"
)

// ProtocolVersion is the Jupyter messaging protocol version the kernel speaks.
const ProtocolVersion = "5.4"

// Delimiter separates routing identities from the signed part of a message.
const Delimiter = "<IDS|MSG>"

// ConnectionInfo is the content of the connection file Jupyter hands a kernel.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and validates a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("reading connection file: %w", err)
	}
	if err := json.Unmarshal(data, &ci); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return ci, fmt.Errorf("connection file %s: transport %q is not tcp or ipc", path, ci.Transport)
	}
	if ci.IP == "" {
		return ci, fmt.Errorf("connection file %s: no ip", path)
	}
	if ci.SignatureScheme != "" && ci.SignatureScheme != "hmac-sha256" {
		return ci, fmt.Errorf("connection file %s: signature scheme %q is not supported (only hmac-sha256)", path, ci.SignatureScheme)
	}
	return ci, nil
}

// Endpoint returns the ZeroMQ endpoint for a port of the connection. For the
// ipc transport Jupyter names the socket file ip-port.
func (ci ConnectionInfo) Endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", ci.IP, port)
}

// Header is a message header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message. Incoming messages keep their header bytes
// as received so that replies can echo them exactly as parent_header.
type Message struct {
	Identities [][]byte
	Header     Header
	// RawHeader is the header exactly as it was received (nil for messages
	// built here).
	RawHeader    json.RawMessage
	ParentHeader json.RawMessage
	Metadata     map[string]any
	// Content holds the raw JSON content of a received message; Body holds
	// the content of a message to send (marshalled by Encode).
	Content json.RawMessage
	Body    any
	Buffers [][]byte
}

// Signer signs and verifies messages with the connection key.
type Signer struct {
	key []byte
}

// NewSigner returns a signer for the key; an empty key disables signing, as
// the protocol specifies.
func NewSigner(key string) *Signer { return &Signer{key: []byte(key)} }

func (s *Signer) mac() hash.Hash { return hmac.New(sha256.New, s.key) }

// Sign returns the hex signature of the four signed frames.
func (s *Signer) Sign(frames ...[]byte) string {
	if len(s.key) == 0 {
		return ""
	}
	m := s.mac()
	for _, f := range frames {
		m.Write(f)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// ErrBadSignature is returned for a message whose signature does not verify.
var ErrBadSignature = errors.New("message signature does not verify")

// Verify checks a hex signature against the frames in constant time.
func (s *Signer) Verify(signature []byte, frames ...[]byte) error {
	if len(s.key) == 0 {
		return nil
	}
	got := make([]byte, hex.DecodedLen(len(signature)))
	if _, err := hex.Decode(got, signature); err != nil {
		return ErrBadSignature
	}
	m := s.mac()
	for _, f := range frames {
		m.Write(f)
	}
	if !hmac.Equal(got, m.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// Decode parses the frames of a multipart message and verifies its signature.
func (s *Signer) Decode(frames [][]byte) (*Message, error) {
	delim := -1
	for i, f := range frames {
		if string(f) == Delimiter {
			delim = i
			break
		}
	}
	if delim < 0 {
		return nil, errors.New("message has no <IDS|MSG> delimiter")
	}
	if len(frames) < delim+6 {
		return nil, fmt.Errorf("message has %d frames after the delimiter, want at least 5", len(frames)-delim-1)
	}
	sig, header, parent, meta, content := frames[delim+1], frames[delim+2], frames[delim+3], frames[delim+4], frames[delim+5]
	if err := s.Verify(sig, header, parent, meta, content); err != nil {
		return nil, err
	}
	msg := &Message{
		Identities:   frames[:delim],
		RawHeader:    json.RawMessage(header),
		ParentHeader: json.RawMessage(parent),
		Content:      json.RawMessage(content),
		Buffers:      frames[delim+6:],
	}
	if err := json.Unmarshal(header, &msg.Header); err != nil {
		return nil, fmt.Errorf("message header: %w", err)
	}
	if msg.Header.MsgType == "" {
		return nil, errors.New("message header has no msg_type")
	}
	if len(bytes.TrimSpace(meta)) > 0 {
		if err := json.Unmarshal(meta, &msg.Metadata); err != nil {
			return nil, fmt.Errorf("message metadata: %w", err)
		}
	}
	return msg, nil
}

// Encode serialises a message to frames, signing it.
func (s *Signer) Encode(msg *Message) ([][]byte, error) {
	header := []byte(msg.RawHeader)
	if header == nil {
		var err error
		if header, err = json.Marshal(msg.Header); err != nil {
			return nil, fmt.Errorf("encoding header: %w", err)
		}
	}
	parent := []byte(msg.ParentHeader)
	if len(parent) == 0 {
		parent = []byte("{}")
	}
	meta := []byte("{}")
	if msg.Metadata != nil {
		var err error
		if meta, err = json.Marshal(msg.Metadata); err != nil {
			return nil, fmt.Errorf("encoding metadata: %w", err)
		}
	}
	content := []byte(msg.Content)
	if content == nil {
		body := msg.Body
		if body == nil {
			body = struct{}{}
		}
		var err error
		if content, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("encoding %s content: %w", msg.Header.MsgType, err)
		}
	}
	frames := make([][]byte, 0, len(msg.Identities)+6+len(msg.Buffers))
	frames = append(frames, msg.Identities...)
	frames = append(frames, []byte(Delimiter), []byte(s.Sign(header, parent, meta, content)), header, parent, meta, content)
	frames = append(frames, msg.Buffers...)
	return frames, nil
}

// NewHeader makes a header for a message of the given type in a session.
func NewHeader(msgType, session string) Header {
	return Header{
		MsgID:    NewID(),
		Session:  session,
		Username: "superstep",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// NewID returns a random UUID-shaped identifier.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never on Linux
	}
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Reply builds a message of msgType from the kernel session answering req:
// same identities, req's header as parent.
func Reply(req *Message, session, msgType string, body any) *Message {
	return &Message{
		Identities:   req.Identities,
		Header:       NewHeader(msgType, session),
		ParentHeader: req.RawHeader,
		Body:         body,
	}
}
