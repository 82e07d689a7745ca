package kernel_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"superstep/kernel/wire"
)

func withStdin(r map[string]any) { r["allow_stdin"] = true }

func TestForgedSignatureIsNotExecuted(t *testing.T) {
	c := startKernel(t)
	forger := wire.NewSigner("not-the-key")
	id := c.sendSigned(c.shell, forger, "execute_request", map[string]any{"code": "forged := 1", "silent": false})
	// An unsigned message too.
	unsigned := wire.NewSigner("")
	c.sendSigned(c.shell, unsigned, "execute_request", map[string]any{"code": "forged := 2", "silent": false})
	deadline := time.After(time.Second)
wait:
	for {
		select {
		case m := <-c.shellQ:
			t.Fatalf("the kernel answered a forged message: %s", m.Header.MsgType)
		case m := <-c.iopubQ:
			if parentID(m) == id {
				t.Fatalf("the kernel published for a forged message: %s", m.Header.MsgType)
			}
		case <-deadline:
			break wait
		}
	}
	r := c.execute("forged")
	if r.status() != "error" || !strings.Contains(r.errorText(), "undefined: forged") {
		t.Fatalf("forged code ran: %v %s", r.reply, r.text())
	}
}

func TestKernelSurvivesEveryFailure(t *testing.T) {
	c := startKernel(t)
	if r := c.execute("keep := 41"); r.status() != "ok" {
		t.Fatal(r.errorText())
	}
	alive := func(after string) {
		t.Helper()
		r := c.execute("keep + 1")
		if r.text() != "42" {
			t.Fatalf("after %s: keep+1 = %q (%s)", after, r.text(), r.errorText())
		}
	}

	r := c.execute("a := 1\npanic(\"boom\")")
	if r.status() != "error" || r.reply["ename"] != "panic" || r.reply["evalue"] != "boom" || !strings.Contains(r.errorText(), "line 2") {
		t.Fatalf("panic: %v", r.reply)
	}
	alive("a panic")

	r = c.execute("for i := range 3 {\n\t_ = i\n}")
	if r.status() != "error" || r.reply["ename"] != "interpreter error" {
		t.Fatalf("interpreter panic: %v", r.reply)
	}
	alive("an interpreter panic")

	r = c.execute("x := 1\ny := \"a\" + x")
	if r.status() != "error" || r.reply["ename"] != "compile error" || !strings.Contains(r.errorText(), "line 2") {
		t.Fatalf("compile error: %v", r.reply)
	}
	alive("a compile error")

	for _, code := range []string{"for {}", "ch := make(chan int)\n<-ch", "select {}"} {
		id := c.send(c.shell, "execute_request", map[string]any{"code": code, "silent": false, "store_history": true})
		time.Sleep(300 * time.Millisecond)
		interruptAt := time.Now()
		c.send(c.control, "interrupt_request", map[string]any{})
		r := c.collect(id, 10*time.Second)
		if r.status() != "error" || r.reply["ename"] != "interrupted" {
			t.Fatalf("%q: %v", code, r.reply)
		}
		if d := r.replyAt.Sub(interruptAt); d > time.Second {
			t.Errorf("%q: the reply came %v after the interrupt, want within a second", code, d)
		}
		alive("interrupting " + code)
	}

	// SIGINT interrupts too (interrupt_mode signal front ends).
	id := c.send(c.shell, "execute_request", map[string]any{"code": "for {}", "silent": false})
	time.Sleep(300 * time.Millisecond)
	c.cmd.Process.Signal(syscall.SIGINT)
	if r := c.collect(id, 10*time.Second); r.reply["ename"] != "interrupted" {
		t.Fatalf("SIGINT: %v", r.reply)
	}
	alive("SIGINT")

	// A panic in a goroutine the cell started.
	r = c.execute("import \"time\"\ngo func() { panic(\"in a goroutine\") }()\ntime.Sleep(200 * time.Millisecond)")
	if r.status() != "ok" || !strings.Contains(r.stderr, "panic in a goroutine started by cell") || !strings.Contains(r.stderr, "in a goroutine") {
		t.Fatalf("goroutine panic: %v stderr=%q", r.reply, r.stderr)
	}
	alive("a goroutine panic")
}

func TestRedefinition(t *testing.T) {
	c := startKernel(t)
	c.execute("func f() int { return 1 }\ntype P struct{ X int }")
	c.execute("func f() int { return 2 }\ntype P struct{ X, Y int }")
	if r := c.execute("f() + P{X: 1, Y: 2}.Y"); r.text() != "4" {
		t.Fatalf("redefined: %q %s", r.text(), r.errorText())
	}
}

func TestOutputStreamsWhileTheCellRuns(t *testing.T) {
	c := startKernel(t)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "import \"time\"\nfmt.Println(\"first\")\ntime.Sleep(1500 * time.Millisecond)\nfmt.Println(\"second\")", "silent": false})
	var firstAt, replyAt time.Time
	deadline := time.After(20 * time.Second)
	for replyAt.IsZero() {
		select {
		case m := <-c.iopubQ:
			if parentID(m) == id && m.Header.MsgType == "stream" && strings.Contains(content(m)["text"].(string), "first") && firstAt.IsZero() {
				firstAt = time.Now()
			}
		case m := <-c.shellQ:
			if parentID(m) == id {
				replyAt = time.Now()
			}
		case <-deadline:
			t.Fatal("no reply")
		}
	}
	if firstAt.IsZero() || replyAt.Sub(firstAt) < 500*time.Millisecond {
		t.Fatalf("\"first\" arrived at %v, the reply at %v: output was not streamed while the cell ran", firstAt, replyAt)
	}
}

func TestOutputFloodIsCut(t *testing.T) {
	c := startKernel(t)
	r := c.execute("s := strings.Repeat(\"x\", 1<<20)\nfor i := 0; i < 100; i++ {\n\tfmt.Print(s)\n}\n\"still running\"")
	if r.status() != "ok" || r.text() != `"still running"` {
		t.Fatalf("flood: %v", r.reply)
	}
	if n := len(r.stdout); n > 5<<20 || n < 1<<20 {
		t.Fatalf("%d bytes of stdout reached the front end for 100 MiB printed", n)
	}
	if !strings.Contains(r.stderr, "output cut") || !strings.Contains(r.stderr, "100.0 MiB") {
		t.Fatalf("no notice of the cut: %q", r.stderr)
	}
	// The next cell has its own budget.
	if r := c.execute("fmt.Println(\"after\")"); r.stdout != "after\n" {
		t.Fatalf("after the flood: %q", r.stdout)
	}
}

func TestStdin(t *testing.T) {
	c := startKernel(t)
	start := time.Now()
	r := c.execute("var name string\n_, err := fmt.Scanln(&name)\nerr")
	if r.status() != "ok" || !strings.Contains(r.text(), "allow_stdin is false") {
		t.Fatalf("read without allow_stdin: %v %q", r.reply, r.text())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("read without allow_stdin took %v", d)
	}
	id := c.send(c.shell, "execute_request", map[string]any{"code": "import \"bufio\"\nimport \"os\"\nline, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\nstrings.TrimSpace(line)", "silent": false, "allow_stdin": true})
	select {
	case m := <-c.stdinQ:
		if m.Header.MsgType != "input_request" || parentID(m) != id {
			t.Fatalf("stdin got %s", m.Header.MsgType)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no input_request")
	}
	msg := &wire.Message{Header: wire.NewHeader("input_reply", c.session), Body: map[string]any{"value": "Ada Lovelace"}}
	frames, _ := c.signer.Encode(msg)
	if err := c.stdin.SendMulti(zmqMsg(frames)); err != nil {
		t.Fatal(err)
	}
	if r := c.collect(id, 10*time.Second); r.text() != `"Ada Lovelace"` {
		t.Fatalf("input: %q %s", r.text(), r.errorText())
	}
}

func TestCompiledWritesToFD1AreCaptured(t *testing.T) {
	c := startKernel(t)
	r := c.execute("import \"os\"\nf := os.NewFile(1, \"fd1\")\nf.Write([]byte(\"written to fd 1\\n\"))\nfmt.Fprintln(os.NewFile(2, \"fd2\"), \"written to fd 2\")")
	if !strings.Contains(r.stdout, "written to fd 1") || !strings.Contains(r.stderr, "written to fd 2") {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestDisplays(t *testing.T) {
	c := startKernel(t)
	r := c.execute("id := display.ShowWithID(display.HTML(\"<b>one</b>\"))\ndisplay.Update(id, display.HTML(\"<b>two</b>\"))\ndisplay.Show(display.Markdown(\"*md*\"))")
	shown, updated := r.ofType("display_data"), r.ofType("update_display_data")
	if len(shown) != 2 || len(updated) != 1 {
		t.Fatalf("%d display_data and %d update_display_data", len(shown), len(updated))
	}
	idShown := content(shown[0])["transient"].(map[string]any)["display_id"]
	idUpdated := content(updated[0])["transient"].(map[string]any)["display_id"]
	if idShown == nil || idShown != idUpdated {
		t.Fatalf("display ids %v and %v", idShown, idUpdated)
	}
	if html := content(updated[0])["data"].(map[string]any)["text/html"]; html != "<b>two</b>" {
		t.Fatalf("updated html %v", html)
	}
	r = c.execute("p := display.NewProgress(3, \"steps\")\nfor i := 0; i < 3; i++ { p.Add(1) }")
	if len(r.ofType("display_data")) != 1 || len(r.ofType("update_display_data")) < 1 {
		t.Fatalf("progress: %d shown, %d updates", len(r.ofType("display_data")), len(r.ofType("update_display_data")))
	}
	// A value that renders itself becomes a rich execute_result.
	r = c.execute("display.Table([]string{\"a\"}, [][]any{{1}})")
	res := r.ofType("execute_result")
	if len(res) != 1 || content(res[0])["data"].(map[string]any)["text/html"] == nil {
		t.Fatalf("table result: %v", r.outputs)
	}
}

func TestStopOnErrorAbortsQueuedCells(t *testing.T) {
	c := startKernel(t)
	first := c.send(c.shell, "execute_request", map[string]any{"code": "import \"time\"\ntime.Sleep(300 * time.Millisecond)\npanic(\"first fails\")", "silent": false, "stop_on_error": true})
	second := c.send(c.shell, "execute_request", map[string]any{"code": "ranAnyway := 1", "silent": false})
	if r := c.collect(first, 10*time.Second); r.status() != "error" {
		t.Fatalf("first: %v", r.reply)
	}
	if r := c.collect(second, 10*time.Second); r.status() != "aborted" {
		t.Fatalf("second: %v", r.reply)
	}
	if r := c.execute("ranAnyway"); r.status() != "error" {
		t.Fatal("an aborted cell ran")
	}
}

func TestExecutionCount(t *testing.T) {
	c := startKernel(t)
	r1 := c.execute("1")
	r2 := c.execute("2", func(r map[string]any) { r["store_history"] = false })
	r3 := c.execute("3", func(r map[string]any) { r["silent"] = true })
	r4 := c.execute("4")
	counts := []any{r1.reply["execution_count"], r2.reply["execution_count"], r3.reply["execution_count"], r4.reply["execution_count"]}
	if fmt.Sprint(counts) != "[1 1 1 2]" {
		t.Fatalf("execution counts %v, want [1 1 1 2]", counts)
	}
	if len(r3.outputs) != 0 {
		t.Fatalf("a silent cell published %d outputs", len(r3.outputs))
	}
}

func TestComms(t *testing.T) {
	c := startKernel(t)
	c.send(c.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "superstep.echo", "data": map[string]any{}})
	c.send(c.shell, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{"ping": 7}})
	m := c.waitIOPub("comm_msg", 10*time.Second)
	if m == nil {
		t.Fatal("no echo")
	}
	var echoed struct {
		CommID string         `json:"comm_id"`
		Data   map[string]int `json:"data"`
	}
	json.Unmarshal(m.Content, &echoed)
	if echoed.CommID != "c1" || echoed.Data["ping"] != 7 {
		t.Fatalf("echo %s", m.Content)
	}
	id := c.send(c.shell, "comm_info_request", map[string]any{})
	for {
		r := <-c.shellQ
		if parentID(r) == id {
			if !strings.Contains(string(r.Content), `"c1":{"target_name":"superstep.echo"}`) {
				t.Fatalf("comm_info %s", r.Content)
			}
			break
		}
	}
	c.send(c.shell, "comm_open", map[string]any{"comm_id": "c2", "target_name": "no.such.target", "data": map[string]any{}})
	if m := c.waitIOPub("comm_close", 10*time.Second); m == nil || !strings.Contains(string(m.Content), "c2") {
		t.Fatal("an unknown target was not closed")
	}
}

func TestShutdownWithRestart(t *testing.T) {
	c := startKernel(t)
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
				if err != nil {
					t.Fatalf("kernel exited with %v", err)
				}
				c.cmd.ProcessState = &os.ProcessState{}
				return
			case <-time.After(10 * time.Second):
				t.Fatal("the kernel did not exit after shutdown")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no shutdown_reply")
		}
	}
}

// A long compiled job given display.Here() stops when the cell is
// interrupted, instead of running on in the background.
func TestInterruptStopsACompiledJob(t *testing.T) {
	c := startKernel(t)
	code := "g := datasets.Must(datasets.Open(\"cti\"))\n" +
		"job, err := sdk.Run(g, vertex.SSSP{Source: 0, Buggy: true}, sdk.Options{MaxSupersteps: 1000000, Out: display.Here()})\n" +
		"stopped = job.Supersteps()\n" +
		"err"
	if r := c.execute("var stopped int"); r.status() != "ok" {
		t.Fatal(r.errorText())
	}
	id := c.send(c.shell, "execute_request", map[string]any{"code": code, "silent": false})
	time.Sleep(time.Second)
	interruptAt := time.Now()
	c.send(c.control, "interrupt_request", map[string]any{})
	r := c.collect(id, 20*time.Second)
	if r.reply["ename"] != "interrupted" || r.replyAt.Sub(interruptAt) > time.Second {
		t.Fatalf("reply %v after %v", r.reply, r.replyAt.Sub(interruptAt))
	}
	// The job itself saw the cancellation and ended at a barrier: the
	// kernel process goes idle (a job running on would burn a core).
	time.Sleep(300 * time.Millisecond)
	before := cpuTime(t, c.cmd.Process.Pid)
	time.Sleep(time.Second)
	if used := cpuTime(t, c.cmd.Process.Pid) - before; used > 300*time.Millisecond {
		t.Fatalf("the kernel used %v of CPU in the second after the interrupt: the job runs on", used)
	}
	start := time.Now()
	if r := c.execute("1 + 1"); r.text() != "2" || time.Since(start) > 2*time.Second {
		t.Fatalf("after the interrupt: %q in %v", r.text(), time.Since(start))
	}
}

// cpuTime is the user+system CPU time of a process, from /proc.
func cpuTime(t *testing.T, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	var utime, stime int64
	fmt.Sscan(fields[11], &utime)
	fmt.Sscan(fields[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}
