package trace

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// small is two processes with nested regions and two messages.
func small(t *testing.T) *Trace {
	b := NewBuilder("small")
	p0 := b.AddProcess(Process{Name: "rank 0", Rank: 0, Host: "n1"})
	p1 := b.AddProcess(Process{Name: "rank 1", Rank: 1, Host: "n2"})
	c := b.Comm("MPI_COMM_WORLD")
	main, send, recv := b.Region("main"), b.Region("MPI_Send"), b.Region("MPI_Recv")
	const ms = 1_000_000
	mustNo(t, b.Enter(p0, 0, main))
	mustNo(t, b.Enter(p0, 12*ms, send))
	mustNo(t, b.Send(p0, 12*ms, p1, c, 5, 4096, Send))
	mustNo(t, b.Leave(p0, 14*ms, send))
	mustNo(t, b.Enter(p0, 25*ms, recv))
	mustNo(t, b.Recv(p0, 29*ms, p1, c, 6, 64))
	mustNo(t, b.Leave(p0, 29*ms, recv))
	mustNo(t, b.Leave(p0, 30*ms, main))
	mustNo(t, b.Enter(p1, 0, main))
	mustNo(t, b.Enter(p1, 5*ms, recv))
	mustNo(t, b.Recv(p1, 13*ms, p0, c, 5, 4096))
	mustNo(t, b.Leave(p1, 13*ms, recv))
	mustNo(t, b.Enter(p1, 26*ms, send))
	mustNo(t, b.Send(p1, 26*ms, p0, c, 6, 64, Send))
	mustNo(t, b.Leave(p1, 27*ms, send))
	mustNo(t, b.Leave(p1, 30*ms, main))
	tr, err := b.Finish(context.Background())
	mustNo(t, err)
	return tr
}

func TestToProfileKeepsTotalsAndSplitsTime(t *testing.T) {
	tr := small(t)
	p, err := tr.ToProfile(10_000_000)
	mustNo(t, err)
	if len(p.Steps) != 3 {
		t.Fatalf("%d frames for 30 ms in 10 ms bins, want 3", len(p.Steps))
	}
	tot := p.Totals()
	if tot.Messages != 2 || tot.Bytes != 4160 {
		t.Errorf("profile totals %d messages, %d B; want 2, 4160", tot.Messages, tot.Bytes)
	}
	if p.Steps[1].Messages[0*2+1] != 1 || p.Steps[2].Bytes[1*2+0] != 64 {
		t.Errorf("messages land in the bin of their send: %v %v", p.Steps[1].Messages, p.Steps[2].Bytes)
	}
	ms := time.Millisecond
	// Process 0: main 0–12, Send 12–14, main 14–25, Recv 25–29, main 29–30.
	// Bin 1: 10–12 and 14–20 compute, 12–14 wait; bin 2: 20–25 and 29–30
	// compute, 25–29 wait.
	want := [3][2]time.Duration{{10 * ms, 0}, {8 * ms, 2 * ms}, {6 * ms, 4 * ms}}
	for k, w := range want {
		got := p.Steps[k].Workers[0]
		if got.Compute != w[0] || got.Wait != w[1] {
			t.Errorf("bin %d, process 0: compute %v wait %v, want %v %v", k, got.Compute, got.Wait, w[0], w[1])
		}
	}
	if p.Cluster.Hosts[1].Name != "n2" || p.Cluster.Workers[1].Name != "rank 1 · n2" {
		t.Errorf("hosts and workers from the trace: %+v", p.Cluster)
	}
	if _, err := FD4Like(1).ToProfile(10_000_000); err == nil {
		t.Error("30,000 bins of 1,024² cells must be refused with advice")
	}
}

func TestChromeJSONFlowPairs(t *testing.T) {
	tr := small(t)
	var buf bytes.Buffer
	mustNo(t, tr.WriteChromeJSON(&buf))
	var doc struct {
		TraceEvents []struct {
			Name string          `json:"name"`
			Ph   string          `json:"ph"`
			TS   json.Number     `json:"ts"`
			PID  int             `json:"pid"`
			ID   int             `json:"id"`
			Args json.RawMessage `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	starts, finishes := map[int]string{}, map[int]string{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "s":
			starts[e.ID] = string(e.TS) + "@" + strconv.Itoa(e.PID)
		case "f":
			finishes[e.ID] = string(e.TS) + "@" + strconv.Itoa(e.PID)
		}
	}
	want := map[int][2]string{1: {"12000.000@0", "13000.000@1"}, 2: {"26000.000@1", "29000.000@0"}}
	if len(starts) != 2 || len(finishes) != 2 {
		t.Fatalf("flow events: %v starts, %v finishes; want one pair per message", starts, finishes)
	}
	for id, w := range want {
		if starts[id] != w[0] || finishes[id] != w[1] {
			t.Errorf("flow %d: s %s f %s, want %s %s (µs@pid)", id, starts[id], finishes[id], w[0], w[1])
		}
	}
}

func TestCSVRows(t *testing.T) {
	tr := small(t)
	var buf bytes.Buffer
	mustNo(t, tr.WriteCSV(&buf))
	rows, err := csv.NewReader(&buf).ReadAll()
	mustNo(t, err)
	// 1 header + 6 intervals × 2 + 2 messages × 2.
	if len(rows) != 1+12+4 {
		t.Fatalf("%d rows, want 17", len(rows))
	}
	// At 13 ms: process 1 receives, then leaves MPI_Recv? Leaves sort
	// before instants at equal times.
	var at13 []string
	for _, r := range rows[1:] {
		if r[0] == "13000000" {
			at13 = append(at13, r[1]+" "+r[2]+" "+r[5])
		}
	}
	if len(at13) != 2 || at13[0] != "Leave MPI_Recv " || at13[1] != "Instant MpiRecv 0" {
		t.Errorf("rows at 13 ms: %q", at13)
	}
}
