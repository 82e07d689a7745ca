package kernel

import (
	"encoding/json"
	"path"
	"sync"

	"github.com/go-zeromq/zmq4"

	"superstep/kernel/cell"
	"superstep/kernel/wire"
)

type codeRequest struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
}

func (k *Kernel) complete(msg *wire.Message) {
	var req codeRequest
	json.Unmarshal(msg.Content, &req)
	matches, start, end := k.sess.Complete(req.Code, req.CursorPos)
	if matches == nil {
		matches = []string{}
	}
	k.reply(k.shell, msg, "complete_reply", map[string]any{
		"status": "ok", "matches": matches, "cursor_start": start, "cursor_end": end, "metadata": map[string]any{},
	})
}

func (k *Kernel) inspect(msg *wire.Message) {
	var req codeRequest
	json.Unmarshal(msg.Content, &req)
	text, found := k.sess.Inspect(req.Code, req.CursorPos)
	data := map[string]any{}
	if found {
		data["text/plain"] = text
	}
	k.reply(k.shell, msg, "inspect_reply", map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}})
}

func (k *Kernel) isComplete(msg *wire.Message) {
	var req codeRequest
	json.Unmarshal(msg.Content, &req)
	status, indent := cell.IsComplete(req.Code)
	content := map[string]any{"status": string(status)}
	if status == cell.Incomplete {
		content["indent"] = indent
	}
	k.reply(k.shell, msg, "is_complete_reply", content)
}

// historyEntry is one stored cell: its execution count, source and the text
// of its result (nil without one).
type historyEntry struct {
	line   int
	input  string
	output *string
}

// historySession is the session number of this kernel's history: the kernel
// keeps the history of its own process.
const historySession = 1

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

func (k *Kernel) historyRequest(msg *wire.Message) {
	var req historyRequest
	json.Unmarshal(msg.Content, &req)
	k.mu.Lock()
	all := append([]historyEntry(nil), k.history...)
	k.mu.Unlock()
	var picked []historyEntry
	switch req.HistAccessType {
	case "tail":
		picked = tail(all, req.N)
	case "range":
		if req.Session == 0 || req.Session == historySession || req.Session < 0 {
			for _, e := range all {
				if e.line >= req.Start && (req.Stop <= 0 || e.line < req.Stop) {
					picked = append(picked, e)
				}
			}
		}
	case "search":
		pattern := req.Pattern
		if pattern == "" {
			pattern = "*"
		}
		seen := map[string]bool{}
		// Newest first for unique, as IPython does, then back in order.
		for i := len(all) - 1; i >= 0; i-- {
			e := all[i]
			if ok, _ := path.Match(pattern, e.input); !ok {
				continue
			}
			if req.Unique {
				if seen[e.input] {
					continue
				}
				seen[e.input] = true
			}
			picked = append([]historyEntry{e}, picked...)
		}
		picked = tail(picked, req.N)
	}
	history := make([]any, 0, len(picked))
	for _, e := range picked {
		if req.Output {
			var out any
			if e.output != nil {
				out = *e.output
			}
			history = append(history, []any{historySession, e.line, []any{e.input, out}})
		} else {
			history = append(history, []any{historySession, e.line, e.input})
		}
	}
	k.reply(k.shell, msg, "history_reply", map[string]any{"status": "ok", "history": history})
}

func tail(es []historyEntry, n *int) []historyEntry {
	if n == nil || *n <= 0 || *n >= len(es) {
		return es
	}
	return es[len(es)-*n:]
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
	c.k.publish(c.parent, "comm_msg", map[string]any{"comm_id": c.ID, "data": data})
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

type commContent struct {
	CommID     string          `json:"comm_id"`
	TargetName string          `json:"target_name"`
	Data       json.RawMessage `json:"data"`
}

func (k *Kernel) commOpen(msg *wire.Message) {
	var c commContent
	json.Unmarshal(msg.Content, &c)
	k.comms.mu.Lock()
	target, ok := k.comms.targets[c.TargetName]
	k.comms.mu.Unlock()
	if !ok || c.CommID == "" {
		k.log.Printf("comm_open for unknown target %q: closing it", c.TargetName)
		k.publish(msg.RawHeader, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
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
	json.Unmarshal(msg.Content, &c)
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
	json.Unmarshal(msg.Content, &c)
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
	var req struct {
		TargetName string `json:"target_name"`
	}
	json.Unmarshal(msg.Content, &req)
	out := map[string]any{}
	k.comms.mu.Lock()
	for id, c := range k.comms.open {
		if req.TargetName == "" || req.TargetName == c.Target {
			out[id] = map[string]any{"target_name": c.Target}
		}
	}
	k.comms.mu.Unlock()
	k.reply(sock, msg, "comm_info_reply", map[string]any{"status": "ok", "comms": out})
}
