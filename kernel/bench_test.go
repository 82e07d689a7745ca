package kernel_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"superstep/kernel/wire"
)

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkExecuteRoundTrip measures a trivial execute_request from send to
// execute_reply and to the idle status, over real sockets. Run it with
// -benchtime=200x for the figure the issue asks for (median of 200).
func BenchmarkExecuteRoundTrip(b *testing.B) {
	c := startKernel(b)
	for i := 0; i < 10; i++ { // warm up
		c.execute("n := 1")
	}
	toReply := make([]time.Duration, 0, b.N)
	toIdle := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r := c.execute("n := 1")
		toIdle = append(toIdle, time.Since(start))
		toReply = append(toReply, r.replyAt.Sub(start))
		if r.status() != "ok" {
			b.Fatal(r.errorText())
		}
	}
	b.StopTimer()
	b.ReportMetric(ms(median(toReply)), "ms-median-to-reply")
	b.ReportMetric(ms(median(toIdle)), "ms-median-to-idle")
}

// BenchmarkStartup measures the time from starting the kernel process to
// its kernel_info_reply. Run with -benchtime=10x.
func BenchmarkStartup(b *testing.B) {
	var times []time.Duration
	for i := 0; i < b.N; i++ {
		times = append(times, startupOnce(b))
	}
	b.ReportMetric(ms(median(times)), "ms-median-start-to-kernel_info_reply")
}

func startupOnce(b *testing.B) time.Duration {
	p := freePorts(b, 5)
	ci := wire.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1], IOPubPort: p[2], StdinPort: p[3], HBPort: p[4], Key: "k", SignatureScheme: "hmac-sha256"}
	data, _ := json.Marshal(ci)
	connFile := filepath.Join(b.TempDir(), "conn.json")
	os.WriteFile(connFile, data, 0o600)
	signer := wire.NewSigner(ci.Key)
	shell := zmq4.NewDealer(context.Background(), zmq4.WithDialerRetry(2*time.Millisecond), zmq4.WithDialerMaxRetries(5000))
	defer shell.Close()

	start := time.Now()
	cmd := exec.Command(kernelBinary, connFile)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if err := shell.Dial(ci.Endpoint(ci.ShellPort)); err != nil {
		b.Fatal(err)
	}
	frames, _ := signer.Encode(&wire.Message{Header: wire.NewHeader("kernel_info_request", "bench"), Body: map[string]any{}})
	if err := shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		b.Fatal(err)
	}
	for {
		raw, err := shell.Recv()
		if err != nil {
			b.Fatal(err)
		}
		m, err := signer.Decode(raw.Frames)
		if err == nil && m.Header.MsgType == "kernel_info_reply" {
			return time.Since(start)
		}
	}
}
