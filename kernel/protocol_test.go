package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"superstep/display"
	"superstep/kernel"
	"superstep/kernel/wire"
)

// fake is a small interpreter for protocol tests. Each line of a cell is
// one command:
//
//	print TEXT      writes TEXT and a newline to standard output
//	warn TEXT       the same on standard error
//	show TEXT       displays TEXT (text/plain)
//	live TEXT       displays a live picture TEXT (needs the browser runtime)
//	=live TEXT      the cell's result is a live picture TEXT
//	page TEXT       adds TEXT to the pager
//	read            reads a line of standard input and prints it
//	fail KIND MSG   fails with a cell error at the line
//	wait            blocks until interrupted
//	= TEXT          the cell's result is TEXT
type fake struct {
	k     *kernel.Kernel
	cells []string
}

func newFake(k *kernel.Kernel) kernel.Interpreter { return &fake{k: k} }

func (f *fake) Execute(ctx context.Context, code string, count int) (*display.Bundle, error) {
	f.cells = append(f.cells, code)
	var result *display.Bundle
	for i, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			fmt.Fprintln(f.k.Stdout(), arg)
		case "warn":
			fmt.Fprintln(f.k.Stderr(), arg)
		case "show":
			f.k.Display().Display(display.TextBundle(arg), "")
		case "live":
			f.k.Display().Display(liveBundle(arg), "")
		case "=live":
			b := liveBundle(arg)
			result = &b
		case "page":
			f.k.Display().Page(display.TextBundle(arg))
		case "read":
			b := make([]byte, 100)
			n, err := f.k.Stdin().Read(b)
			if err != nil {
				return nil, &kernel.CellError{Kind: "input", Msg: err.Error(), Line: i + 1}
			}
			fmt.Fprint(f.k.Stdout(), "read "+string(b[:n]))
		case "fail":
			kind, msg, _ := strings.Cut(arg, " ")
			return nil, &kernel.CellError{Kind: kind, Msg: msg, Line: i + 1, Col: 1, Source: line}
		case "wait":
			<-ctx.Done()
			return nil, &kernel.CellError{Kind: "interrupted", Msg: "the cell was interrupted"}
		case "=":
			b := display.TextBundle(arg)
			result = &b
		case "":
		default:
			return nil, &kernel.CellError{Kind: "syntax error", Msg: "unknown command " + cmd, Line: i + 1, Col: 1, Source: line}
		}
	}
	return result, nil
}

func (f *fake) Complete(code string, cursor int) kernel.Completion {
	return kernel.Completion{Matches: []kernel.Match{{Text: "print", Kind: "keyword", Signature: "print TEXT"}}, Start: 0, End: cursor}
}

func (f *fake) Inspect(code string, cursor, detail int) (display.Bundle, bool) {
	if strings.HasPrefix(code, "print") {
		return display.TextBundle(fmt.Sprintf("print TEXT (detail %d)", detail)), true
	}
	return display.Bundle{}, false
}

func (f *fake) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "\\") {
		return "incomplete", "  "
	}
	return "complete", ""
}

// request sends a shell request and returns its reply's content.
func (c *client) request(msgType string, content any) map[string]any {
	c.t.Helper()
	id := c.send(c.shell, msgType, content)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m := <-c.shellQ:
			if parentID(m) == id {
				return contentOf(m.Content)
			}
			c.stash = append(c.stash, m)
		case <-deadline:
			c.t.Fatalf("no reply to %s", msgType)
		}
	}
}

func contentOf(raw []byte) map[string]any {
	var m map[string]any
	json.Unmarshal(raw, &m)
	return m
}

func TestProtocolResultsAndOutputs(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	r := c.execute("print one\nwarn two\nshow three\nprint four\n= 42")
	if r.status() != "ok" || r.text() != "42" {
		t.Fatalf("reply %v, result %q", r.reply, r.text())
	}
	if r.stdout != "one\nfour\n" || r.stderr != "two\n" {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	// The display comes after the text printed before it.
	var order []string
	for _, m := range r.outputs {
		order = append(order, m.Header.MsgType)
	}
	if got := strings.Join(order, ","); !strings.HasPrefix(got, "stream,stream,display_data") {
		t.Fatalf("outputs in order %s", got)
	}
	if r := c.execute("print only"); len(r.ofType("execute_result")) != 0 {
		t.Fatal("a cell without a result published one")
	}
	// Printed text always arrives before the cell's idle status, however
	// late in the cell it is printed.
	for i := 0; i < 200; i++ {
		if r := c.execute(fmt.Sprintf("print last %d", i)); r.stdout != fmt.Sprintf("last %d\n", i) {
			t.Fatalf("run %d: stdout before idle %q", i, r.stdout)
		}
	}
}

func liveBundle(s string) display.Bundle {
	return display.Bundle{Data: map[string]any{"text/html": "<div>" + s + "</div>", "text/plain": s}, NeedsRuntime: true}
}

// The browser runtime travels once per session: in the first live output.
func TestProtocolRuntimeOncePerSession(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	htmlOf := func(m *wire.Message) string {
		data, _ := contentOf(m.Content)["data"].(map[string]any)
		h, _ := data["text/html"].(string)
		return h
	}
	carries := func(h string) bool { return strings.Contains(h, display.RuntimeJS[:100]) }
	r := c.execute("show text\nlive a\nlive b")
	shown := r.ofType("display_data")
	if len(shown) != 3 || carries(htmlOf(shown[0])) || !carries(htmlOf(shown[1])) || carries(htmlOf(shown[2])) {
		t.Fatalf("first cell: %d displays; the runtime must be in the first live one only", len(shown))
	}
	if h := htmlOf(shown[1]); !strings.HasSuffix(h, "<div>a</div>") {
		t.Fatalf("the live display's own HTML is lost: %.80s", h)
	}
	r = c.execute("live c\n=live d")
	if carries(htmlOf(r.ofType("display_data")[0])) || carries(htmlOf(r.ofType("execute_result")[0])) {
		t.Fatal("the runtime was sent twice in one session")
	}
}

func TestProtocolErrorsAndStopOnError(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	r := c.execute("print fine\nfail panic boom")
	if r.status() != "error" || r.reply["ename"] != "panic" || r.reply["evalue"] != "boom" {
		t.Fatalf("reply %v", r.reply)
	}
	if errs := r.ofType("error"); len(errs) != 1 || !strings.Contains(fmt.Sprint(contentOf(errs[0].Content)["traceback"]), "line 2, column 1") {
		t.Fatalf("error messages %v", r.outputs)
	}
	first := c.send(c.shell, "execute_request", map[string]any{"code": "wait", "silent": false, "stop_on_error": true})
	second := c.send(c.shell, "execute_request", map[string]any{"code": "= ran", "silent": false})
	time.Sleep(100 * time.Millisecond)
	c.send(c.control, "interrupt_request", map[string]any{})
	if r := c.collect(first, 10*time.Second); r.reply["ename"] != "interrupted" {
		t.Fatalf("first: %v", r.reply)
	}
	if r := c.collect(second, 10*time.Second); r.status() != "aborted" {
		t.Fatalf("second: %v", r.reply)
	}
	// Without stop_on_error the next cell runs.
	first = c.send(c.shell, "execute_request", map[string]any{"code": "fail x y", "silent": false, "stop_on_error": false})
	second = c.send(c.shell, "execute_request", map[string]any{"code": "= ran", "silent": false})
	c.collect(first, 10*time.Second)
	if r := c.collect(second, 10*time.Second); r.text() != "ran" {
		t.Fatalf("second after a failure without stop_on_error: %v", r.reply)
	}
}

func TestProtocolExecutionCount(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	r1 := c.execute("= 1")
	r2 := c.execute("= 2", func(r map[string]any) { r["store_history"] = false })
	r3 := c.execute("= 3", func(r map[string]any) { r["silent"] = true })
	r4 := c.execute("= 4")
	counts := []any{r1.reply["execution_count"], r2.reply["execution_count"], r3.reply["execution_count"], r4.reply["execution_count"]}
	if fmt.Sprint(counts) != "[1 1 1 2]" {
		t.Fatalf("execution counts %v, want [1 1 1 2]", counts)
	}
	if len(r3.outputs) != 0 {
		t.Fatalf("a silent cell published %d outputs", len(r3.outputs))
	}
	h := c.request("history_request", map[string]any{"hist_access_type": "tail", "n": 10, "output": true, "raw": true})
	if got := fmt.Sprint(h["history"]); got != "[[1 1 [= 1 1]] [1 2 [= 4 4]]]" {
		t.Fatalf("history %s", got)
	}
}

func TestProtocolUserExpressionsAndPager(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	r := c.execute("page the doc\n= 1", func(r map[string]any) {
		r["user_expressions"] = map[string]any{"good": "= 7", "bad": "fail compile error nope"}
	})
	ue := r.reply["user_expressions"].(map[string]any)
	good := ue["good"].(map[string]any)
	if good["status"] != "ok" || good["data"].(map[string]any)["text/plain"] != "7" {
		t.Fatalf("good %v", good)
	}
	bad := ue["bad"].(map[string]any)
	if bad["status"] != "error" || bad["ename"] != "compile" {
		t.Fatalf("bad %v", bad)
	}
	payload := r.reply["payload"].([]any)
	if len(payload) != 1 || payload[0].(map[string]any)["source"] != "page" {
		t.Fatalf("payload %v", payload)
	}
}

func TestProtocolCompleteInspectIsComplete(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	rep := c.request("complete_request", map[string]any{"code": "pr", "cursor_pos": 2})
	types := rep["metadata"].(map[string]any)["_jupyter_types_experimental"].([]any)
	if fmt.Sprint(rep["matches"]) != "[print]" || types[0].(map[string]any)["type"] != "keyword" || types[0].(map[string]any)["signature"] != "print TEXT" {
		t.Fatalf("complete %v", rep)
	}
	rep = c.request("inspect_request", map[string]any{"code": "print", "cursor_pos": 2, "detail_level": 1})
	if rep["found"] != true || rep["data"].(map[string]any)["text/plain"] != "print TEXT (detail 1)" {
		t.Fatalf("inspect %v", rep)
	}
	rep = c.request("is_complete_request", map[string]any{"code": "print a \\"})
	if rep["status"] != "incomplete" || rep["indent"] != "  " {
		t.Fatalf("is_complete %v", rep)
	}
}

// Every malformed request gets an error reply naming the field, never a
// silent default.
func TestProtocolMalformedRequests(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	for _, tc := range []struct {
		msgType string
		content any
		want    string
	}{
		{"execute_request", map[string]any{"silent": false}, `execute_request: field "code": missing`},
		{"execute_request", map[string]any{"code": 7}, `execute_request: field "code": expected a string, found a number`},
		{"execute_request", map[string]any{"code": "= 1", "user_expressions": []any{1}}, `execute_request: field "user_expressions": expected an object of strings, found an array`},
		{"execute_request", map[string]any{"code": "= 1", "silent": "yes"}, `execute_request: field "silent": expected true or false, found a string`},
		{"complete_request", map[string]any{"code": "pr"}, `complete_request: field "cursor_pos": missing`},
		{"complete_request", map[string]any{"code": "pr", "cursor_pos": 1.5}, `complete_request: field "cursor_pos": expected an integer, found a fraction`},
		{"inspect_request", map[string]any{"code": "pr", "cursor_pos": 1, "detail_level": 3}, `inspect_request: field "detail_level": expected 0 or 1, found 3`},
		{"is_complete_request", map[string]any{}, `is_complete_request: field "code": missing`},
		{"history_request", map[string]any{"hist_access_type": "sideways"}, `history_request: field "hist_access_type": expected "tail", "range" or "search", found "sideways"`},
		{"history_request", map[string]any{"output": true}, `history_request: field "hist_access_type": missing`},
		{"comm_info_request", map[string]any{"target_name": 3}, `comm_info_request: field "target_name": expected a string, found a number`},
		{"execute_request", []any{"not", "an", "object"}, `execute_request: content is not a JSON object`},
	} {
		rep := c.request(tc.msgType, tc.content)
		if rep["status"] != "error" || rep["evalue"] != tc.want {
			t.Errorf("%s %v: reply %v, want error %q", tc.msgType, tc.content, rep, tc.want)
		}
	}
	// The kernel is still there, and a bad request did not count.
	if r := c.execute("= alive"); r.text() != "alive" || r.reply["execution_count"] != float64(1) {
		t.Fatalf("after bad requests: %v %q", r.reply, r.text())
	}
}

func TestProtocolStdin(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	if r := c.execute("read"); r.status() != "error" || !strings.Contains(fmt.Sprint(r.reply["evalue"]), "allow_stdin is false") {
		t.Fatalf("read without stdin: %v", r.reply)
	}
	id := c.send(c.shell, "execute_request", map[string]any{"code": "read", "silent": false, "allow_stdin": true})
	select {
	case m := <-c.stdinQ:
		if m.Header.MsgType != "input_request" {
			t.Fatalf("got %s", m.Header.MsgType)
		}
		c.send(c.stdin, "input_reply", map[string]any{"value": "Ada"})
	case <-time.After(10 * time.Second):
		t.Fatal("no input_request")
	}
	if r := c.collect(id, 10*time.Second); r.stdout != "read Ada\n" {
		t.Fatalf("stdout %q", r.stdout)
	}
}

func TestProtocolComms(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	c.send(c.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "superstep.echo", "data": map[string]any{}})
	c.send(c.shell, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{"ping": 7}})
	m := c.waitIOPub("comm_msg", 10*time.Second)
	if m == nil || !strings.Contains(string(m.Content), `"ping":7`) || !strings.Contains(string(m.Content), `"comm_id":"c1"`) {
		t.Fatalf("echo %v", m)
	}
	rep := c.request("comm_info_request", map[string]any{})
	if fmt.Sprint(rep["comms"]) != "map[c1:map[target_name:superstep.echo]]" {
		t.Fatalf("comm_info %v", rep)
	}
	c.send(c.shell, "comm_open", map[string]any{"comm_id": "c2", "target_name": "no.such.target", "data": map[string]any{}})
	if m := c.waitIOPub("comm_close", 10*time.Second); m == nil || !strings.Contains(string(m.Content), "c2") {
		t.Fatal("an unknown target was not closed")
	}
	c.send(c.shell, "comm_close", map[string]any{"comm_id": "c1", "data": map[string]any{}})
	if rep := c.request("comm_info_request", map[string]any{}); fmt.Sprint(rep["comms"]) != "map[]" {
		t.Fatalf("after close: %v", rep)
	}
}

func TestProtocolShutdownWithRestart(t *testing.T) {
	c, _ := startInProcess(t, newFake)
	id := c.send(c.control, "shutdown_request", map[string]any{"restart": true})
	for {
		select {
		case m := <-c.shellQ:
			if parentID(m) != id {
				continue
			}
			if m.Header.MsgType != "shutdown_reply" || !strings.Contains(string(m.Content), `"restart":true`) {
				t.Fatalf("%s %s", m.Header.MsgType, m.Content)
			}
			select {
			case err := <-c.exited:
				c.stop = nil
				if err != nil || !c.restart {
					t.Fatalf("Serve returned restart=%v, %v", c.restart, err)
				}
				return
			case <-time.After(10 * time.Second):
				t.Fatal("Serve did not return after shutdown")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no shutdown_reply")
		}
	}
}
