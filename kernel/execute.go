package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"reflect"
	"strings"
	"sync"

	"superstep/display"
	"superstep/kernel/session"
	"superstep/kernel/wire"
)

// cellRun is one execute request while it runs.
type cellRun struct {
	req        *wire.Message
	ctx        context.Context
	cancel     context.CancelFunc
	allowStdin bool
	count      int
	silent     bool

	mu      sync.Mutex
	payload []map[string]any
}

type executeRequest struct {
	Code            string         `json:"code"`
	Silent          bool           `json:"silent"`
	StoreHistory    *bool          `json:"store_history"`
	UserExpressions map[string]any `json:"user_expressions"`
	AllowStdin      bool           `json:"allow_stdin"`
	StopOnError     *bool          `json:"stop_on_error"`
}

func (k *Kernel) execute(msg *wire.Message) {
	var req executeRequest
	if err := json.Unmarshal(msg.Content, &req); err != nil {
		k.reply(k.shell, msg, "execute_reply", errorContent("bad request", "execute_request content: "+err.Error(), nil, k.count()))
		return
	}
	storeHistory := req.StoreHistory == nil || *req.StoreHistory
	if req.Silent {
		storeHistory = false
	}
	stopOnError := req.StopOnError == nil || *req.StopOnError

	k.mu.Lock()
	if storeHistory {
		k.execCount++
	}
	count := k.execCount
	ctx, cancel := context.WithCancel(context.Background())
	run := &cellRun{req: msg, ctx: ctx, cancel: cancel, allowStdin: req.AllowStdin, count: count, silent: req.Silent}
	k.run, k.lastRun = run, run
	k.mu.Unlock()
	k.streams.startCell()
	defer cancel()

	if !req.Silent {
		k.publish(msg.RawHeader, "execute_input", map[string]any{"code": req.Code, "execution_count": count})
	}

	res, evalErr := k.sess.Eval(ctx, req.Code, count)
	k.streams.endCell()

	k.mu.Lock()
	k.run = nil
	k.mu.Unlock()

	var resultText *string
	if evalErr == nil && res.Shown && !req.Silent {
		b := resultBundle(res.Value)
		text := b.Text()
		resultText = &text
		k.publish(msg.RawHeader, "execute_result", map[string]any{
			"execution_count": count, "data": b.Data, "metadata": orEmpty(b.Metadata),
		})
	}
	if storeHistory {
		k.mu.Lock()
		k.history = append(k.history, historyEntry{line: count, input: req.Code, output: resultText})
		k.mu.Unlock()
	}
	if evalErr != nil {
		ename, evalue, tb := formatError(evalErr)
		if !req.Silent {
			k.publish(msg.RawHeader, "error", map[string]any{"ename": ename, "evalue": evalue, "traceback": tb})
		}
		k.reply(k.shell, msg, "execute_reply", errorContent(ename, evalue, tb, count))
		if stopOnError {
			k.abortQueued()
		}
		return
	}
	run.mu.Lock()
	payload := run.payload
	run.mu.Unlock()
	if payload == nil {
		payload = []map[string]any{}
	}
	k.reply(k.shell, msg, "execute_reply", map[string]any{
		"status": "ok", "execution_count": count, "payload": payload,
		"user_expressions": k.userExpressions(req.UserExpressions),
	})
}

func (k *Kernel) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.execCount
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func errorContent(ename, evalue string, tb []string, count int) map[string]any {
	if tb == nil {
		tb = []string{ename + ": " + evalue}
	}
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": tb, "execution_count": count}
}

// abortQueued answers the execute requests already waiting behind a cell
// that failed, as stop_on_error asks: they are not run.
func (k *Kernel) abortQueued() {
	for {
		select {
		case m := <-k.shellQ:
			if m.Header.MsgType != "execute_request" {
				k.handleShell(m)
				continue
			}
			k.status(m.RawHeader, "busy")
			k.reply(k.shell, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.count()})
			k.status(m.RawHeader, "idle")
		default:
			return
		}
	}
}

// userExpressions evaluates the expressions a front end asked for with an
// execute request.
func (k *Kernel) userExpressions(exprs map[string]any) map[string]any {
	out := map[string]any{}
	for name, e := range exprs {
		code, _ := e.(string)
		res, err := k.sess.Eval(context.Background(), code, 0)
		if err != nil {
			ename, evalue, tb := formatError(err)
			out[name] = map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": tb}
			continue
		}
		b := display.TextBundle("")
		if res.Shown {
			b = resultBundle(res.Value)
		}
		out[name] = map[string]any{"status": "ok", "data": b.Data, "metadata": orEmpty(b.Metadata)}
	}
	return out
}

// resultBundle is the rich form of a cell's result: the value's own bundle
// if it renders itself, else its text.
func resultBundle(v reflect.Value) display.Bundle {
	if v.IsValid() && v.CanInterface() {
		switch x := v.Interface().(type) {
		case display.Renderer, image.Image, display.Bundle:
			return display.BundleOf(x)
		}
	}
	return display.TextBundle(session.Plain(v))
}

// formatError turns a cell's error into the protocol's ename, evalue and a
// traceback a person can read: the kind, the message, the cell line.
func formatError(err error) (ename, evalue string, traceback []string) {
	var e *session.Error
	if !errors.As(err, &e) {
		return "error", err.Error(), []string{"\x1b[0;31merror\x1b[0m: " + err.Error()}
	}
	ename, evalue = e.Kind, e.Msg
	traceback = []string{fmt.Sprintf("\x1b[0;31m%s\x1b[0m: %s", e.Kind, e.Msg)}
	if e.Line > 0 {
		where := fmt.Sprintf("line %d", e.Line)
		if e.Col > 0 {
			where += fmt.Sprintf(", column %d", e.Col)
		}
		traceback = append(traceback, fmt.Sprintf("\x1b[0;32m--> cell %s\x1b[0m", where))
		if e.Source != "" {
			src := strings.ReplaceAll(e.Source, "\t", "    ")
			traceback = append(traceback, fmt.Sprintf("\x1b[0;32m%4d |\x1b[0m %s", e.Line, src))
			if e.Col > 0 {
				col := len(strings.ReplaceAll(e.Source[:min(e.Col-1, len(e.Source))], "\t", "    "))
				traceback = append(traceback, "     | "+strings.Repeat(" ", col)+"\x1b[0;31m^\x1b[0m")
			}
		}
	}
	return ename, evalue, traceback
}

func (k *Kernel) goroutinePanic(cell int, v any) {
	fmt.Fprintf(k.streams.writer("stderr"), "panic in a goroutine started by cell [%d]: %v (the goroutine stopped; the kernel goes on)\n", cell, v)
}

// stdinReader serves a cell's reads of standard input with input_request
// messages, when the front end allows input.
type stdinReader struct {
	k   *Kernel
	mu  sync.Mutex
	buf []byte
}

// errNoStdin is returned to a cell reading input the front end cannot give.
var errNoStdin = errors.New("standard input is not available: this front end does not accept input (allow_stdin is false)")

func (r *stdinReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) > 0 {
		n := copy(p, r.buf)
		r.buf = r.buf[n:]
		return n, nil
	}
	k := r.k
	k.mu.Lock()
	run := k.run
	k.mu.Unlock()
	if run == nil || !run.allowStdin {
		return 0, errNoStdin
	}
	k.streams.flushAll() // a prompt printed before the read shows first
	// Drop a stale reply left from an interrupted request.
	select {
	case <-k.inputs:
	default:
	}
	req := &wire.Message{
		Identities:   run.req.Identities,
		Header:       wire.NewHeader("input_request", k.session),
		ParentHeader: run.req.RawHeader,
		Body:         map[string]any{"prompt": "", "password": false},
	}
	k.send(k.stdin, req)
	select {
	case in := <-k.inputs:
		r.buf = append(r.buf, in.value...)
		r.buf = append(r.buf, '\n')
		n := copy(p, r.buf)
		r.buf = r.buf[n:]
		return n, nil
	case <-run.ctx.Done():
		return 0, errors.New("input interrupted")
	}
}
