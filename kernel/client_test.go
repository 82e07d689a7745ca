package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"superstep/kernel"
	"superstep/kernel/wire"
)

// kernelBinary is built once by TestMain.
var kernelBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "superstep-kernel-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	kernelBinary = filepath.Join(dir, "superstep-kernel")
	build := exec.Command("go", "build", "-o", kernelBinary, "../sdk/cmd/superstep-kernel")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the kernel:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// client is a minimal Jupyter front end over real ZeroMQ sockets, talking
// to a kernel process, for protocol tests.
type client struct {
	t       testing.TB
	cmd     *exec.Cmd
	conn    wire.ConnectionInfo
	signer  *wire.Signer
	session string
	started time.Time

	shell, control, stdin, iopub zmq4.Socket
	exited                       chan error
	stop                         func() // ends an in-process kernel
	restart                      bool   // what an in-process kernel's Serve returned

	stash  []*wire.Message // messages read by collect for another request
	iopubQ chan *wire.Message
	shellQ chan *wire.Message
	stdinQ chan *wire.Message
}

func freePorts(t testing.TB, n int) []int {
	ports := make([]int, n)
	var ls []net.Listener
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func newClient(t testing.TB) *client {
	p := freePorts(t, 5)
	c := &client{
		t: t, session: wire.NewID(),
		conn: wire.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1], IOPubPort: p[2], StdinPort: p[3], HBPort: p[4],
			Key: "test-key-" + wire.NewID(), SignatureScheme: "hmac-sha256"},
		iopubQ: make(chan *wire.Message, 100000), shellQ: make(chan *wire.Message, 1000), stdinQ: make(chan *wire.Message, 10),
		exited: make(chan error, 1),
	}
	c.signer = wire.NewSigner(c.conn.Key)
	return c
}

// startInProcess runs a kernel in this process with the interpreter that
// makeInterp builds from it, and connects to it: the protocol tests need
// no process.
func startInProcess(t testing.TB, makeInterp func(k *kernel.Kernel) kernel.Interpreter) (*client, *kernel.Kernel) {
	t.Helper()
	c := newClient(t)
	k, err := kernel.New(kernel.Config{Conn: c.conn})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		restart, err := k.Serve(ctx, makeInterp(k))
		c.restart = restart
		c.exited <- err
	}()
	c.stop = func() { cancel(); <-c.exited }
	t.Cleanup(c.close)
	c.connect()
	return c, k
}

// startKernel starts a kernel process and connects to it, waiting for its
// kernel_info_reply.
func startKernel(t testing.TB, env ...string) *client {
	t.Helper()
	c := newClient(t)
	dir := t.TempDir()
	connFile := filepath.Join(dir, "conn.json")
	data, _ := json.Marshal(c.conn)
	if err := os.WriteFile(connFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c.started = time.Now()
	c.cmd = exec.Command(kernelBinary, connFile)
	c.cmd.Env = append(os.Environ(), env...)
	c.cmd.Stderr = &testLog{t: t}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- c.cmd.Wait() }()
	t.Cleanup(c.close)
	c.connect()
	return c
}

// connect dials the kernel's sockets and waits for its kernel_info_reply.
func (c *client) connect() {
	t := c.t
	p := []int{c.conn.ShellPort, c.conn.ControlPort, c.conn.IOPubPort, c.conn.StdinPort}
	ctx := context.Background()
	id := zmq4.WithID(zmq4.SocketIdentity(c.session))
	c.shell = zmq4.NewDealer(ctx, id, zmq4.WithDialerRetry(20*time.Millisecond), zmq4.WithDialerMaxRetries(500))
	c.control = zmq4.NewDealer(ctx, id, zmq4.WithDialerRetry(20*time.Millisecond), zmq4.WithDialerMaxRetries(500))
	c.stdin = zmq4.NewDealer(ctx, id, zmq4.WithDialerRetry(20*time.Millisecond), zmq4.WithDialerMaxRetries(500))
	c.iopub = zmq4.NewSub(ctx, zmq4.WithDialerRetry(20*time.Millisecond), zmq4.WithDialerMaxRetries(500))
	for _, s := range []struct {
		sock zmq4.Socket
		port int
	}{{c.shell, p[0]}, {c.control, p[1]}, {c.iopub, p[2]}, {c.stdin, p[3]}} {
		if err := s.sock.Dial(c.conn.Endpoint(s.port)); err != nil {
			t.Fatalf("dial %d: %v", s.port, err)
		}
	}
	c.iopub.SetOption(zmq4.OptionSubscribe, "")
	go c.recvLoop(c.iopub, c.iopubQ)
	go c.recvLoop(c.shell, c.shellQ)
	go c.recvLoop(c.stdin, c.stdinQ)
	go c.recvLoop(c.control, c.shellQ)
	// Wait until iopub is subscribed: ask kernel_info until a status
	// message arrives, as jupyter_client does.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c.send(c.shell, "kernel_info_request", map[string]any{})
		if m := c.waitIOPub("status", 300*time.Millisecond); m != nil {
			c.drain(300 * time.Millisecond)
			return
		}
	}
	t.Fatal("the kernel did not answer kernel_info_request")
}

type testLog struct {
	t  testing.TB
	mu sync.Mutex
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "kernel: %s", p)
	}
	return len(p), nil
}

func (c *client) close() {
	for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub} {
		if s != nil {
			s.Close()
		}
	}
	if c.stop != nil {
		stop := c.stop
		c.stop = nil
		stop()
		return
	}
	if c.cmd != nil && c.cmd.ProcessState == nil {
		c.cmd.Process.Kill()
		<-c.exited
	}
}

func (c *client) recvLoop(sock zmq4.Socket, q chan *wire.Message) {
	for {
		raw, err := sock.Recv()
		if err != nil {
			return
		}
		msg, err := c.signer.Decode(raw.Frames)
		if err != nil {
			c.t.Errorf("client: kernel sent a bad message: %v", err)
			continue
		}
		q <- msg
	}
}

// send sends a request and returns its msg_id.
func (c *client) send(sock zmq4.Socket, msgType string, content any) string {
	return c.sendSigned(sock, c.signer, msgType, content)
}

func (c *client) sendSigned(sock zmq4.Socket, signer *wire.Signer, msgType string, content any) string {
	msg := &wire.Message{Header: wire.NewHeader(msgType, c.session), Body: content}
	frames, err := signer.Encode(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatalf("send %s: %v", msgType, err)
	}
	return msg.Header.MsgID
}

func parentID(m *wire.Message) string {
	var h struct {
		MsgID string `json:"msg_id"`
	}
	json.Unmarshal(m.ParentHeader, &h)
	return h.MsgID
}

func (c *client) waitIOPub(msgType string, timeout time.Duration) *wire.Message {
	deadline := time.After(timeout)
	for {
		select {
		case m := <-c.iopubQ:
			if m.Header.MsgType == msgType {
				return m
			}
		case <-deadline:
			return nil
		}
	}
}

func (c *client) drain(d time.Duration) {
	deadline := time.After(d)
	for {
		select {
		case <-c.iopubQ:
		case <-c.shellQ:
		case <-deadline:
			return
		}
	}
}

// result is what one execute request produced.
type result struct {
	reply   map[string]any
	outputs []*wire.Message // iopub messages between busy and idle
	stdout  string
	stderr  string
	replyAt time.Time
}

func content(m *wire.Message) map[string]any {
	var c map[string]any
	json.Unmarshal(m.Content, &c)
	return c
}

// execute runs code and collects everything up to the idle status.
func (c *client) execute(code string, opts ...func(map[string]any)) result {
	c.t.Helper()
	req := map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for _, o := range opts {
		o(req)
	}
	id := c.send(c.shell, "execute_request", req)
	return c.collect(id, 60*time.Second)
}

func (c *client) collect(id string, timeout time.Duration) result {
	c.t.Helper()
	var r result
	deadline := time.After(timeout)
	idle := false
	stashed := c.stash
	c.stash = nil
	next := make(chan *wire.Message, len(stashed))
	for _, m := range stashed {
		next <- m
	}
	onShell := func(m *wire.Message) {
		if parentID(m) == id && m.Header.MsgType == "execute_reply" {
			r.reply = content(m)
			r.replyAt = time.Now()
		} else {
			c.stash = append(c.stash, m)
		}
	}
	for r.reply == nil || !idle {
		var m *wire.Message
		select {
		case m = <-next:
			if strings.HasSuffix(m.Header.MsgType, "_reply") {
				onShell(m)
				continue
			}
		case m = <-c.shellQ:
			onShell(m)
			continue
		case m = <-c.iopubQ:
		case <-deadline:
			c.t.Fatalf("no reply and idle within %v for %s", timeout, id)
		}
		{
			if parentID(m) != id {
				c.stash = append(c.stash, m)
				continue
			}
			switch m.Header.MsgType {
			case "status":
				if content(m)["execution_state"] == "idle" {
					idle = true
				}
			case "execute_input":
			default:
				r.outputs = append(r.outputs, m)
				if m.Header.MsgType == "stream" {
					cc := content(m)
					if cc["name"] == "stdout" {
						r.stdout += cc["text"].(string)
					} else {
						r.stderr += cc["text"].(string)
					}
				}
			}
		}
	}
	return r
}

func (r result) status() string { s, _ := r.reply["status"].(string); return s }

// text returns the text/plain of the execute_result, or "".
func (r result) text() string {
	for _, m := range r.outputs {
		if m.Header.MsgType == "execute_result" {
			data := content(m)["data"].(map[string]any)
			s, _ := data["text/plain"].(string)
			return s
		}
	}
	return ""
}

func (r result) errorText() string {
	if r.status() != "error" {
		return ""
	}
	tb, _ := r.reply["traceback"].([]any)
	parts := []string{fmt.Sprint(r.reply["ename"]), fmt.Sprint(r.reply["evalue"])}
	for _, l := range tb {
		parts = append(parts, fmt.Sprint(l))
	}
	return strings.Join(parts, "\n")
}

func (r result) ofType(t string) []*wire.Message {
	var out []*wire.Message
	for _, m := range r.outputs {
		if m.Header.MsgType == t {
			out = append(out, m)
		}
	}
	return out
}

func zmqMsg(frames [][]byte) zmq4.Msg { return zmq4.NewMsgFrom(frames...) }
