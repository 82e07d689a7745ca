package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"superstep/kernel/wire"
)

// The contents of the requests the kernel answers and of its replies, as
// the messaging protocol (5.4) defines them. A request field without
// `kernel:"optional"` must be present.

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent" kernel:"optional"`
	StoreHistory    *bool             `json:"store_history" kernel:"optional"`
	UserExpressions map[string]string `json:"user_expressions" kernel:"optional"`
	AllowStdin      bool              `json:"allow_stdin" kernel:"optional"`
	StopOnError     *bool             `json:"stop_on_error" kernel:"optional"`
}

type executeReply struct {
	Status          string         `json:"status"`
	ExecutionCount  int            `json:"execution_count"`
	Payload         []pagePayload  `json:"payload"`
	UserExpressions map[string]any `json:"user_expressions"`
}

type pagePayload struct {
	Source string         `json:"source"`
	Data   map[string]any `json:"data"`
	Start  int            `json:"start"`
}

type codeRequest struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
}

type inspectRequest struct {
	Code        string `json:"code"`
	CursorPos   int    `json:"cursor_pos"`
	DetailLevel int    `json:"detail_level" kernel:"optional"`
}

type isCompleteRequest struct {
	Code string `json:"code"`
}

type completeReply struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Metadata    map[string]any `json:"metadata"`
}

// completionType is one entry of _jupyter_types_experimental, the match
// details JupyterLab shows (as ipykernel sends them).
type completionType struct {
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Text      string `json:"text"`
	Type      string `json:"type"`
	Signature string `json:"signature"`
}

type inspectReply struct {
	Status   string         `json:"status"`
	Found    bool           `json:"found"`
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

type isCompleteReply struct {
	Status string `json:"status"`
	Indent string `json:"indent,omitempty"`
}

type historyRequest struct {
	Output         bool   `json:"output" kernel:"optional"`
	Raw            bool   `json:"raw" kernel:"optional"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session" kernel:"optional"`
	Start          int    `json:"start" kernel:"optional"`
	Stop           int    `json:"stop" kernel:"optional"`
	N              *int   `json:"n" kernel:"optional"`
	Pattern        string `json:"pattern" kernel:"optional"`
	Unique         bool   `json:"unique" kernel:"optional"`
}

type historyReply struct {
	Status  string `json:"status"`
	History []any  `json:"history"`
}

type commContent struct {
	CommID     string          `json:"comm_id"`
	TargetName string          `json:"target_name" kernel:"optional"`
	Data       json.RawMessage `json:"data" kernel:"optional"`
}

type commInfoRequest struct {
	TargetName string `json:"target_name" kernel:"optional"`
}

type commInfoReply struct {
	Status string         `json:"status"`
	Comms  map[string]any `json:"comms"`
}

type shutdownRequest struct {
	Restart bool `json:"restart" kernel:"optional"`
}

type shutdownReply struct {
	Status  string `json:"status"`
	Restart bool   `json:"restart"`
}

type inputReplyContent struct {
	Value string `json:"value"`
}

type displayData struct {
	Data      map[string]any `json:"data"`
	Metadata  map[string]any `json:"metadata"`
	Transient map[string]any `json:"transient"`
}

type executeResult struct {
	ExecutionCount int            `json:"execution_count"`
	Data           map[string]any `json:"data"`
	Metadata       map[string]any `json:"metadata"`
}

type errorContent struct {
	Status         string   `json:"status,omitempty"`
	Ename          string   `json:"ename"`
	Evalue         string   `json:"evalue"`
	Traceback      []string `json:"traceback"`
	ExecutionCount *int     `json:"execution_count,omitempty"`
}

type kernelInfoReply struct {
	Status                string       `json:"status"`
	ProtocolVersion       string       `json:"protocol_version"`
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	LanguageInfo          languageInfo `json:"language_info"`
	Banner                string       `json:"banner"`
	HelpLinks             []helpLink   `json:"help_links"`
	Debugger              bool         `json:"debugger"`
}

type languageInfo struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	Mimetype       string `json:"mimetype"`
	FileExtension  string `json:"file_extension"`
	PygmentsLexer  string `json:"pygments_lexer"`
	CodemirrorMode string `json:"codemirror_mode"`
}

type helpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

type statusContent struct {
	ExecutionState string `json:"execution_state"`
}

type okReply struct {
	Status string `json:"status"`
}

type abortedReply struct {
	Status          string         `json:"status"`
	ExecutionCount  int            `json:"execution_count"`
	UserExpressions map[string]any `json:"user_expressions"`
	Payload         []pagePayload  `json:"payload"`
}

type executeInput struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

type streamContent struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type clearOutput struct {
	Wait bool `json:"wait"`
}

type inputRequest struct {
	Prompt   string `json:"prompt"`
	Password bool   `json:"password"`
}

type commMsg struct {
	CommID string `json:"comm_id"`
	Data   any    `json:"data"`
}

// requestError is a request whose content the kernel cannot act on.
type requestError struct {
	msgType string
	field   string
	problem string
}

func (e *requestError) Error() string {
	if e.field == "" {
		return fmt.Sprintf("%s: %s", e.msgType, e.problem)
	}
	return fmt.Sprintf("%s: field %q: %s", e.msgType, e.field, e.problem)
}

// decodeContent reads a message's content into v, a pointer to one of the
// request structs above. A missing required field, a field of the wrong
// JSON type or content that is not a JSON object is an error naming the
// message type and the field.
func decodeContent(msg *wire.Message, v any) error {
	mt := msg.Header.MsgType
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg.Content, &fields); err != nil || fields == nil {
		return &requestError{msgType: mt, problem: "content is not a JSON object"}
	}
	t := reflect.TypeOf(v).Elem()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		raw, present := fields[name]
		if !present {
			if f.Tag.Get("kernel") != "optional" {
				return &requestError{msgType: mt, field: name, problem: "missing"}
			}
			continue
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) && f.Tag.Get("kernel") == "optional" {
			continue
		}
		target := reflect.New(f.Type)
		if err := json.Unmarshal(raw, target.Interface()); err != nil {
			return &requestError{msgType: mt, field: name, problem: "expected " + jsonKind(f.Type) + ", found " + jsonValueKind(raw)}
		}
		reflect.ValueOf(v).Elem().Field(i).Set(target.Elem())
	}
	return nil
}

func jsonKind(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Map:
		if t.Elem().Kind() == reflect.String {
			return "an object of strings"
		}
		return "an object"
	case reflect.Slice:
		if t == reflect.TypeOf(json.RawMessage(nil)) {
			return "a JSON value"
		}
		return "an array"
	}
	return t.String()
}

func jsonValueKind(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "invalid JSON"
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		if x != float64(int64(x)) {
			return "a fraction"
		}
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object with a non-matching value"
	}
	return "something else"
}

// errorReply is the content of a reply to a request the kernel could not
// act on.
func errorReply(err error) errorContent {
	ename := "error"
	var re *requestError
	if errors.As(err, &re) {
		ename = "BadRequest"
	}
	return errorContent{Status: "error", Ename: ename, Evalue: err.Error(), Traceback: []string{ename + ": " + err.Error()}}
}
