// Package kernel is the Superstep Jupyter kernel: it speaks the Jupyter
// messaging protocol (5.4) over ZeroMQ against an Interpreter, which runs
// the cells.
//
// Five sockets come from the connection file: shell (requests, handled one
// at a time), control (interrupt and shutdown, handled while a cell runs),
// iopub (outputs and status), stdin (input requests) and heartbeat. Every
// message is signed with HMAC-SHA256; one whose signature does not verify is
// logged and dropped, never acted on. A request whose content is malformed
// gets an error reply naming the field.
//
// The kernel knows nothing of Go or of the interpreter: it gives the
// interpreter the running cell's streams (Stdout, Stderr, Stdin), a
// display sink (Display) and a way to report a goroutine's panic, and it
// turns what the interpreter returns into protocol messages.
package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"

	"superstep/display"
	"superstep/kernel/wire"
)

// Version is the kernel's implementation version.
const Version = "0.1.0"

// Config says how to run a kernel.
type Config struct {
	Conn wire.ConnectionInfo
	// Log receives the kernel's own diagnostics (never a cell's output).
	Log *log.Logger
	// OutputLimit caps the bytes of stdout and stderr one cell may send;
	// the rest is counted and reported. 0 means DefaultOutputLimit.
	OutputLimit int
	// Banner is the kernel_info banner (the interpreter's description).
	Banner string
}

// DefaultOutputLimit is the default cap on one cell's printed output: past
// a few megabytes a browser tab struggles, and nobody reads that much.
const DefaultOutputLimit = 4 << 20

// Kernel is a running kernel.
type Kernel struct {
	cfg     Config
	signer  *wire.Signer
	session string // this kernel's session id, in the header of its messages
	log     *log.Logger

	shell, control, stdin, iopub, hb zmq4.Socket
	sendMu                           map[zmq4.Socket]*sync.Mutex

	interp Interpreter
	comms  *comms
	// carrier decides which display carries the browser runtime.
	carrier display.Carrier

	mu        sync.Mutex
	execCount int
	history   History
	run       *cellRun // the execute request running now, if any
	lastRun   *cellRun // the latest one, for output that arrives later
	shellQ    chan *wire.Message
	inputs    chan string
	done      chan struct{}
	doneOnce  sync.Once
	restart   bool
	streams   *streams
	stdout    *os.File
	stderr    *os.File
}

// New creates a kernel; Serve binds its sockets and runs it with an
// interpreter, which is made with the kernel's streams and display.
func New(cfg Config) (*Kernel, error) {
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard, "", 0)
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = DefaultOutputLimit
	}
	k := &Kernel{
		cfg:     cfg,
		signer:  wire.NewSigner(cfg.Conn.Key),
		session: wire.NewID(),
		log:     cfg.Log,
		comms:   newComms(),
		shellQ:  make(chan *wire.Message, 1024),
		inputs:  make(chan string, 1),
		done:    make(chan struct{}),
	}
	k.streams = newStreams(k, cfg.OutputLimit)
	var err error
	if k.stdout, err = k.streams.pipe("stdout"); err != nil {
		return nil, err
	}
	if k.stderr, err = k.streams.pipe("stderr"); err != nil {
		return nil, err
	}
	return k, nil
}

// Stdout is the running cell's standard output: what is written to it is
// streamed to the front end under the cell.
func (k *Kernel) Stdout() *os.File { return k.stdout }

// Stderr is the running cell's standard error.
func (k *Kernel) Stderr() *os.File { return k.stderr }

// Stdin serves a cell's reads of standard input with input_request
// messages when the front end allows input, and fails at once otherwise.
func (k *Kernel) Stdin() io.Reader { return &stdinReader{k: k} }

// Serve binds the sockets and handles messages with in until shutdown or
// ctx ends. It reports whether the front end asked for a restart.
func (k *Kernel) Serve(ctx context.Context, in Interpreter) (restart bool, err error) {
	k.interp = in
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ci := k.cfg.Conn
	k.shell = zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("shell-"+k.session)))
	k.control = zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("control-"+k.session)))
	k.stdin = zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("stdin-"+k.session)))
	k.iopub = zmq4.NewPub(ctx)
	k.hb = zmq4.NewRep(ctx)
	k.sendMu = map[zmq4.Socket]*sync.Mutex{}
	for _, s := range []struct {
		sock zmq4.Socket
		port int
		name string
	}{{k.shell, ci.ShellPort, "shell"}, {k.control, ci.ControlPort, "control"}, {k.stdin, ci.StdinPort, "stdin"}, {k.iopub, ci.IOPubPort, "iopub"}, {k.hb, ci.HBPort, "heartbeat"}} {
		k.sendMu[s.sock] = &sync.Mutex{}
		if err := s.sock.Listen(ci.Endpoint(s.port)); err != nil {
			return false, fmt.Errorf("binding the %s socket to %s: %w", s.name, ci.Endpoint(s.port), err)
		}
	}
	defer func() {
		for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
			s.Close()
		}
	}()
	k.log.Printf("superstep kernel %s listening on %s (pid %d)", Version, ci.Endpoint(ci.ShellPort), os.Getpid())

	go k.heartbeat()
	go k.receive(k.shell, "shell", func(m *wire.Message) { k.shellQ <- m })
	go k.receive(k.control, "control", k.handleControl)
	go k.receive(k.stdin, "stdin", k.handleStdin)
	go k.streams.flushLoop(k.done)
	go k.shellLoop()
	k.publish(nil, "status", statusContent{ExecutionState: "starting"})

	select {
	case <-ctx.Done():
	case <-k.done:
	}
	k.streams.flushAll()
	time.Sleep(50 * time.Millisecond) // let the last iopub messages leave
	return k.restart, nil
}

// Stop ends Serve.
func (k *Kernel) Stop() { k.doneOnce.Do(func() { close(k.done) }) }

// heartbeat echoes every message of the heartbeat socket.
func (k *Kernel) heartbeat() {
	k.recvLoop(k.hb, "heartbeat", func(msg zmq4.Msg) {
		if err := k.hb.Send(msg); err != nil {
			k.log.Printf("heartbeat: %v", err)
		}
	})
}

// receive reads messages from a socket, verifies them and hands them on.
func (k *Kernel) receive(sock zmq4.Socket, name string, handle func(*wire.Message)) {
	k.recvLoop(sock, name, func(raw zmq4.Msg) {
		msg, err := k.signer.Decode(raw.Frames)
		if err != nil {
			// Never act on a message that is not signed with our key.
			k.log.Printf("%s: dropped a message: %v", name, err)
			return
		}
		handle(msg)
	})
}

// recvLoop hands every message sock receives to handle until the kernel
// stops. A failed receive is logged and retried after 10 ms (the socket
// reconnects by itself); a receive that fails because the kernel is
// stopping ends the loop.
func (k *Kernel) recvLoop(sock zmq4.Socket, name string, handle func(zmq4.Msg)) {
	for {
		msg, err := sock.Recv()
		if err != nil {
			select {
			case <-k.done:
				return
			default:
			}
			if errors.Is(err, context.Canceled) {
				return
			}
			k.log.Printf("%s: receive: %v", name, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		handle(msg)
	}
}

func (k *Kernel) send(sock zmq4.Socket, msg *wire.Message) {
	frames, err := k.signer.Encode(msg)
	if err != nil {
		k.log.Printf("encoding %s: %v", msg.Header.MsgType, err)
		return
	}
	mu := k.sendMu[sock]
	mu.Lock()
	defer mu.Unlock()
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		k.log.Printf("sending %s: %v", msg.Header.MsgType, err)
	}
}

// reply answers a request on the socket it came from.
func (k *Kernel) reply(sock zmq4.Socket, req *wire.Message, msgType string, content any) {
	k.send(sock, wire.Reply(req, k.session, msgType, content))
}

// publish sends a message on iopub with parent as parent header (raw JSON,
// may be nil).
func (k *Kernel) publish(parent json.RawMessage, msgType string, content any) {
	msg := &wire.Message{
		Identities:   [][]byte{[]byte("kernel." + k.session + "." + msgType)},
		Header:       wire.NewHeader(msgType, k.session),
		ParentHeader: parent,
		Body:         content,
	}
	k.send(k.iopub, msg)
}

func (k *Kernel) status(parent json.RawMessage, state string) {
	k.publish(parent, "status", statusContent{ExecutionState: state})
}

func (k *Kernel) shellLoop() {
	for {
		select {
		case <-k.done:
			return
		case msg := <-k.shellQ:
			k.handleShell(msg)
		}
	}
}

func (k *Kernel) handleShell(msg *wire.Message) {
	k.status(msg.RawHeader, "busy")
	defer k.status(msg.RawHeader, "idle")
	switch msg.Header.MsgType {
	case "execute_request":
		k.execute(msg)
	case "kernel_info_request":
		k.reply(k.shell, msg, "kernel_info_reply", k.kernelInfo())
	case "complete_request":
		k.complete(msg)
	case "inspect_request":
		k.inspect(msg)
	case "is_complete_request":
		k.isComplete(msg)
	case "history_request":
		k.historyRequest(msg)
	case "comm_info_request":
		k.commInfo(k.shell, msg)
	case "comm_open":
		k.commOpen(msg)
	case "comm_msg":
		k.commMsg(msg)
	case "comm_close":
		k.commClose(msg)
	case "shutdown_request":
		k.shutdown(k.shell, msg)
	default:
		k.log.Printf("shell: unknown message type %q, ignored", msg.Header.MsgType)
	}
}

func (k *Kernel) handleControl(msg *wire.Message) {
	k.status(msg.RawHeader, "busy")
	defer k.status(msg.RawHeader, "idle")
	switch msg.Header.MsgType {
	case "interrupt_request":
		k.interrupt()
		k.reply(k.control, msg, "interrupt_reply", okReply{Status: "ok"})
	case "shutdown_request":
		k.shutdown(k.control, msg)
	case "kernel_info_request":
		k.reply(k.control, msg, "kernel_info_reply", k.kernelInfo())
	case "comm_info_request":
		k.commInfo(k.control, msg)
	default:
		k.log.Printf("control: unknown message type %q, ignored", msg.Header.MsgType)
	}
}

func (k *Kernel) handleStdin(msg *wire.Message) {
	if msg.Header.MsgType != "input_reply" {
		k.log.Printf("stdin: unexpected %q, ignored", msg.Header.MsgType)
		return
	}
	var c inputReplyContent
	if err := decodeContent(msg, &c); err != nil {
		k.log.Printf("stdin: %v", err)
		return
	}
	select {
	case k.inputs <- c.Value:
	default:
		k.log.Printf("stdin: input_reply nobody asked for, ignored")
	}
}

// Interrupt stops the running cell, as an interrupt_request or SIGINT does.
func (k *Kernel) Interrupt() { k.interrupt() }

func (k *Kernel) interrupt() {
	k.mu.Lock()
	run := k.run
	k.mu.Unlock()
	if run != nil {
		run.cancel()
	}
}

func (k *Kernel) shutdown(sock zmq4.Socket, msg *wire.Message) {
	var c shutdownRequest
	if err := decodeContent(msg, &c); err != nil {
		k.reply(sock, msg, "shutdown_reply", errorReply(err))
		return
	}
	k.interrupt()
	k.restart = c.Restart
	k.reply(sock, msg, "shutdown_reply", shutdownReply{Status: "ok", Restart: c.Restart})
	k.status(msg.RawHeader, "idle")
	k.Stop()
}

func (k *Kernel) kernelInfo() kernelInfoReply {
	return kernelInfoReply{
		Status:                "ok",
		ProtocolVersion:       wire.ProtocolVersion,
		Implementation:        "superstep",
		ImplementationVersion: Version,
		LanguageInfo: languageInfo{
			Name:           "go",
			Version:        runtime.Version()[2:],
			Mimetype:       "text/x-go",
			FileExtension:  ".go",
			PygmentsLexer:  "go",
			CodemirrorMode: "go",
		},
		Banner:    k.banner(),
		HelpLinks: []helpLink{{Text: "Go standard library", URL: "https://pkg.go.dev/std"}},
		Debugger:  false,
	}
}

func (k *Kernel) banner() string {
	if k.cfg.Banner != "" {
		return k.cfg.Banner
	}
	return fmt.Sprintf("Superstep %s: Go (%s)", Version, runtime.Version())
}

// SetLog replaces the kernel's diagnostic logger.
func (k *Kernel) SetLog(l *log.Logger) { k.log = l }
