package kernel

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/go-zeromq/zmq4"

	"superstep/kernel/wire"
)

func (k *Kernel) complete(msg *wire.Message) {
	var req codeRequest
	if err := decodeContent(msg, &req); err != nil {
		k.reply(k.shell, msg, "complete_reply", errorReply(err))
		return
	}
	c := k.interp.Complete(req.Code, req.CursorPos)
	matches := make([]string, len(c.Matches))
	types := make([]completionType, len(c.Matches))
	for i, m := range c.Matches {
		matches[i] = m.Text
		types[i] = completionType{Start: c.Start, End: c.End, Text: m.Text, Type: m.Kind, Signature: m.Signature}
	}
	k.reply(k.shell, msg, "complete_reply", completeReply{
		Status: "ok", Matches: matches, CursorStart: c.Start, CursorEnd: c.End,
		Metadata: map[string]any{"_jupyter_types_experimental": types},
	})
}

func (k *Kernel) inspect(msg *wire.Message) {
	var req inspectRequest
	if err := decodeContent(msg, &req); err != nil {
		k.reply(k.shell, msg, "inspect_reply", errorReply(err))
		return
	}
	if req.DetailLevel != 0 && req.DetailLevel != 1 {
		k.reply(k.shell, msg, "inspect_reply", errorReply(&requestError{msgType: "inspect_request", field: "detail_level", problem: fmt.Sprintf("expected 0 or 1, found %d", req.DetailLevel)}))
		return
	}
	doc, found := k.interp.Inspect(req.Code, req.CursorPos, req.DetailLevel)
	data := map[string]any{}
	if found {
		data = doc.Data
	}
	k.reply(k.shell, msg, "inspect_reply", inspectReply{Status: "ok", Found: found, Data: data, Metadata: orEmpty(doc.Metadata)})
}

func (k *Kernel) isComplete(msg *wire.Message) {
	var req isCompleteRequest
	if err := decodeContent(msg, &req); err != nil {
		k.reply(k.shell, msg, "is_complete_reply", errorReply(err))
		return
	}
	status, indent := k.interp.IsComplete(req.Code)
	reply := isCompleteReply{Status: status}
	if status == "incomplete" {
		reply.Indent = indent
	}
	k.reply(k.shell, msg, "is_complete_reply", reply)
}

func (k *Kernel) historyRequest(msg *wire.Message) {
	var req historyRequest
	if err := decodeContent(msg, &req); err != nil {
		k.reply(k.shell, msg, "history_reply", errorReply(err))
		return
	}
	k.mu.Lock()
	h := k.history.clone()
	k.mu.Unlock()
	var picked []HistoryEntry
	switch req.HistAccessType {
	case "tail":
		picked = h.Tail(req.N)
	case "range":
		picked = h.Range(req.Session, req.Start, req.Stop)
	case "search":
		picked = h.Search(req.Pattern, req.N, req.Unique)
	default:
		k.reply(k.shell, msg, "history_reply", errorReply(&requestError{msgType: "history_request", field: "hist_access_type",
			problem: fmt.Sprintf("expected \"tail\", \"range\" or \"search\", found %q", req.HistAccessType)}))
		return
	}
	history := make([]any, 0, len(picked))
	for _, e := range picked {
		if req.Output {
			var out any
			if e.Output != nil {
				out = *e.Output
			}
			history = append(history, []any{HistorySession, e.Line, []any{e.Input, out}})
		} else {
			history = append(history, []any{HistorySession, e.Line, e.Input})
		}
	}
	k.reply(k.shell, msg, "history_reply", historyReply{Status: "ok", History: history})
}

// comms tracks the comms open between front end and kernel.
type comms struct {
	mu      sync.Mutex
	targets map[string]CommTarget
	open    map[string]*Comm
}

// CommTarget answers comm_open requests for one target name: it is given
// the new comm and the opening data.
type CommTarget func(c *Comm, data json.RawMessage)

// Comm is one open comm.
type Comm struct {
	ID     string
	Target string
	k      *Kernel
	parent []byte

	mu      sync.Mutex
	onMsg   func(data json.RawMessage)
	onClose func()
}

// Send sends data to the front end's side of the comm.
func (c *Comm) Send(data any) {
	c.k.publish(c.parent, "comm_msg", commMsg{CommID: c.ID, Data: data})
}

// OnMessage sets the handler of messages from the front end.
func (c *Comm) OnMessage(f func(data json.RawMessage)) { c.mu.Lock(); c.onMsg = f; c.mu.Unlock() }

// OnClose sets what runs when the front end closes the comm.
func (c *Comm) OnClose(f func()) { c.mu.Lock(); c.onClose = f; c.mu.Unlock() }

func newComms() *comms {
	c := &comms{targets: map[string]CommTarget{}, open: map[string]*Comm{}}
	// superstep.echo sends every message back: a probe for front ends and
	// the tests of comm routing.
	c.targets["superstep.echo"] = func(cm *Comm, data json.RawMessage) {
		cm.OnMessage(func(d json.RawMessage) { cm.Send(d) })
	}
	return c
}

// RegisterCommTarget routes comm_open requests for name to target.
func (k *Kernel) RegisterCommTarget(name string, target CommTarget) {
	k.comms.mu.Lock()
	k.comms.targets[name] = target
	k.comms.mu.Unlock()
}

func (k *Kernel) commOpen(msg *wire.Message) {
	var c commContent
	if err := decodeContent(msg, &c); err != nil {
		k.log.Printf("comm_open: %v", err)
		return
	}
	k.comms.mu.Lock()
	target, ok := k.comms.targets[c.TargetName]
	k.comms.mu.Unlock()
	if !ok || c.CommID == "" {
		k.log.Printf("comm_open for unknown target %q: closing it", c.TargetName)
		k.publish(msg.RawHeader, "comm_close", commMsg{CommID: c.CommID, Data: map[string]any{}})
		return
	}
	cm := &Comm{ID: c.CommID, Target: c.TargetName, k: k, parent: msg.RawHeader}
	k.comms.mu.Lock()
	k.comms.open[c.CommID] = cm
	k.comms.mu.Unlock()
	target(cm, c.Data)
}

func (k *Kernel) commMsg(msg *wire.Message) {
	var c commContent
	if err := decodeContent(msg, &c); err != nil {
		k.log.Printf("comm_msg: %v", err)
		return
	}
	k.comms.mu.Lock()
	cm := k.comms.open[c.CommID]
	k.comms.mu.Unlock()
	if cm == nil {
		k.log.Printf("comm_msg for unknown comm %q, ignored", c.CommID)
		return
	}
	cm.mu.Lock()
	cm.parent = msg.RawHeader
	f := cm.onMsg
	cm.mu.Unlock()
	if f != nil {
		f(c.Data)
	}
}

func (k *Kernel) commClose(msg *wire.Message) {
	var c commContent
	if err := decodeContent(msg, &c); err != nil {
		k.log.Printf("comm_close: %v", err)
		return
	}
	k.comms.mu.Lock()
	cm := k.comms.open[c.CommID]
	delete(k.comms.open, c.CommID)
	k.comms.mu.Unlock()
	if cm == nil {
		return
	}
	cm.mu.Lock()
	f := cm.onClose
	cm.mu.Unlock()
	if f != nil {
		f()
	}
}

func (k *Kernel) commInfo(sock zmq4.Socket, msg *wire.Message) {
	var req commInfoRequest
	if err := decodeContent(msg, &req); err != nil {
		k.reply(sock, msg, "comm_info_reply", errorReply(err))
		return
	}
	out := map[string]any{}
	k.comms.mu.Lock()
	for id, c := range k.comms.open {
		if req.TargetName == "" || req.TargetName == c.Target {
			out[id] = map[string]any{"target_name": c.Target}
		}
	}
	k.comms.mu.Unlock()
	k.reply(sock, msg, "comm_info_reply", commInfoReply{Status: "ok", Comms: out})
}
