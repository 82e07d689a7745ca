package kernel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"superstep/display"
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
	payload []pagePayload
}

func (k *Kernel) execute(msg *wire.Message) {
	var req executeRequest
	if err := decodeContent(msg, &req); err != nil {
		c := errorReply(err)
		n := k.count()
		c.ExecutionCount = &n
		k.reply(k.shell, msg, "execute_reply", c)
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
	cellID, deleted := frontEndCell(msg.Metadata)
	k.carrier.BeginCell(cellID, deleted)
	k.streams.startCell()
	defer cancel()

	if !req.Silent {
		k.publish(msg.RawHeader, "execute_input", executeInput{Code: req.Code, ExecutionCount: count})
	}

	result, evalErr := k.interp.Execute(ctx, req.Code, count)
	k.streams.endCell()

	k.mu.Lock()
	k.run = nil
	k.mu.Unlock()

	var resultText *string
	if evalErr == nil && result != nil && !req.Silent {
		text := result.Text()
		resultText = &text
		shown := k.carrier.Prepare(*result, "")
		k.publish(msg.RawHeader, "execute_result", executeResult{ExecutionCount: count, Data: shown.Data, Metadata: orEmpty(shown.Metadata)})
	}
	if storeHistory {
		k.mu.Lock()
		k.history.Add(count, req.Code, resultText)
		k.mu.Unlock()
	}
	if evalErr != nil {
		c := formatError(evalErr)
		if !req.Silent {
			k.publish(msg.RawHeader, "error", c)
		}
		c.Status = "error"
		c.ExecutionCount = &count
		k.reply(k.shell, msg, "execute_reply", c)
		if stopOnError {
			k.abortQueued()
		}
		return
	}
	run.mu.Lock()
	payload := run.payload
	run.mu.Unlock()
	if payload == nil {
		payload = []pagePayload{}
	}
	k.reply(k.shell, msg, "execute_reply", executeReply{
		Status: "ok", ExecutionCount: count, Payload: payload,
		UserExpressions: k.userExpressions(req.UserExpressions),
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
			k.reply(k.shell, m, "execute_reply", abortedReply{Status: "aborted", ExecutionCount: k.count(), UserExpressions: map[string]any{}, Payload: []pagePayload{}})
			k.status(m.RawHeader, "idle")
		default:
			return
		}
	}
}

// userExpressions evaluates the expressions a front end asked for with an
// execute request.
func (k *Kernel) userExpressions(exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, code := range exprs {
		b, err := k.interp.Execute(context.Background(), code, 0)
		if err != nil {
			c := formatError(err)
			c.Status = "error"
			out[name] = c
			continue
		}
		if b == nil {
			b = &display.Bundle{Data: map[string]any{"text/plain": ""}}
		}
		out[name] = map[string]any{"status": "ok", "data": b.Data, "metadata": orEmpty(b.Metadata)}
	}
	return out
}

// formatError turns a cell's error into the protocol's ename, evalue and a
// traceback a person can read: the kind, the message, the cell line with a
// caret under the column.
func formatError(err error) errorContent {
	var e *CellError
	if !errors.As(err, &e) {
		return errorContent{Ename: "error", Evalue: err.Error(), Traceback: []string{"\x1b[0;31merror\x1b[0m: " + err.Error()}}
	}
	c := errorContent{Ename: e.Kind, Evalue: e.Msg}
	c.Traceback = []string{fmt.Sprintf("\x1b[0;31m%s\x1b[0m: %s", e.Kind, e.Msg)}
	if e.Line > 0 {
		where := fmt.Sprintf("line %d", e.Line)
		if e.Col > 0 {
			where += fmt.Sprintf(", column %d", e.Col)
		}
		c.Traceback = append(c.Traceback, fmt.Sprintf("\x1b[0;32m--> cell %s\x1b[0m", where))
		if e.Source != "" {
			src := strings.ReplaceAll(e.Source, "\t", "    ")
			c.Traceback = append(c.Traceback, fmt.Sprintf("\x1b[0;32m%4d |\x1b[0m %s", e.Line, src))
			if e.Col > 0 {
				// Col counts characters, a tab as one; the line is shown
				// with tabs as four spaces.
				runes := []rune(e.Source)
				before := string(runes[:min(e.Col-1, len(runes))])
				col := len([]rune(strings.ReplaceAll(before, "\t", "    ")))
				c.Traceback = append(c.Traceback, "     | "+strings.Repeat(" ", col)+"\x1b[0;31m^\x1b[0m")
			}
		}
	}
	return c
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
		Body:         inputRequest{},
	}
	k.send(k.stdin, req)
	select {
	case in := <-k.inputs:
		r.buf = append(r.buf, in...)
		r.buf = append(r.buf, '\n')
		n := copy(p, r.buf)
		r.buf = r.buf[n:]
		return n, nil
	case <-run.ctx.Done():
		return 0, errors.New("input interrupted")
	}
}

// frontEndCell reads the cell id and the ids of cells deleted since the
// last request from an execute request's metadata, where JupyterLab puts
// them ("cellId", "deletedCells"); Notebook 6 sends neither.
func frontEndCell(meta map[string]any) (cellID string, deleted []string) {
	cellID, _ = meta["cellId"].(string)
	if list, ok := meta["deletedCells"].([]any); ok {
		for _, d := range list {
			if s, ok := d.(string); ok {
				deleted = append(deleted, s)
			}
		}
	}
	return cellID, deleted
}
