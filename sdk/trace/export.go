package trace

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// CSVHeader is the header WriteCSV writes: Pipit's event columns
// (Timestamp (ns), Event Type, Name, Process, Thread) followed by the
// message columns (Partner, Bytes, Tag, Comm), empty on region rows.
var CSVHeader = []string{"Timestamp (ns)", "Event Type", "Name", "Process", "Thread", "Partner", "Bytes", "Tag", "Comm"}

// csvRow is one event of the CSV export.
type csvRow struct {
	ns      int64
	process int32
	order   int8 // at equal times: leaves, then instants, then enters
	kind    string
	name    string
	msg     int32 // message index for instants, -1 otherwise
}

// WriteCSV writes the trace as events in Pipit's layout: an Enter and a
// Leave row per region interval and an Instant row per send ("MpiSend",
// Partner = receiver) and per receive ("MpiRecv", Partner = sender),
// ordered by time, then process. Thread is always 0.
func (t *Trace) WriteCSV(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	rows := make([]csvRow, 0, 2*len(t.Regions)+2*len(t.Messages))
	for _, r := range t.Regions {
		name := t.RegionNames[r.Region]
		rows = append(rows, csvRow{r.EnterNS, r.Process, 2, "Enter", name, -1}, csvRow{r.LeaveNS, r.Process, 0, "Leave", name, -1})
	}
	for i, m := range t.Messages {
		rows = append(rows, csvRow{m.SendNS, m.Src, 1, "Instant", "MpiSend", int32(i)}, csvRow{m.RecvNS, m.Dst, 1, "Instant", "MpiRecv", int32(i)})
	}
	slices.SortStableFunc(rows, func(a, b csvRow) int {
		if a.ns != b.ns {
			return cmpInt64(a.ns, b.ns)
		}
		if a.process != b.process {
			return int(a.process - b.process)
		}
		return int(a.order - b.order)
	})
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	rec := make([]string, len(CSVHeader))
	for _, r := range rows {
		rec[0] = strconv.FormatInt(r.ns, 10)
		rec[1], rec[2] = r.kind, r.name
		rec[3], rec[4] = strconv.Itoa(int(r.process)), "0"
		rec[5], rec[6], rec[7], rec[8] = "", "", "", ""
		if r.msg >= 0 {
			m := t.Messages[r.msg]
			partner := m.Dst
			if r.name == "MpiRecv" {
				partner = m.Src
			}
			rec[5] = strconv.Itoa(int(partner))
			rec[6] = strconv.FormatInt(m.Bytes, 10)
			rec[7] = strconv.Itoa(int(m.Tag))
			rec[8] = t.Comms[m.Comm]
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// micros formats ns as microseconds with three decimals, exactly.
func micros(ns int64) json.Number {
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	return json.Number(fmt.Sprintf("%s%d.%03d", sign, ns/1000, ns%1000))
}

// chromeEvent is one entry of the Trace Event Format's traceEvents.
type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	TS   json.Number    `json:"ts"`
	Dur  json.Number    `json:"dur,omitempty"`
	PID  int32          `json:"pid"`
	TID  int32          `json:"tid"`
	ID   int            `json:"id,omitempty"`
	BP   string         `json:"bp,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// WriteChromeJSON writes the trace in the Trace Event Format (JSON object
// form), which Perfetto and chrome://tracing open: one process (pid) per
// trace process, named by metadata events; a complete event ("X") per
// region interval; per message a short "send"/"recv" slice on each side
// and a flow pair — "s" at the send, "f" at the receive, with the same id
// (the message's index + 1). Timestamps are microseconds.
func (t *Trace) WriteChromeJSON(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := io.WriteString(bw, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"); err != nil {
		return err
	}
	enc := json.NewEncoder(bw)
	first := true
	emit := func(e chromeEvent) error {
		if !first {
			if err := bw.WriteByte(','); err != nil {
				return err
			}
		}
		first = false
		return enc.Encode(e) // Encode ends each event with a newline
	}
	for i, p := range t.Processes {
		if err := emit(chromeEvent{Name: "process_name", Ph: "M", TS: "0", PID: int32(i), Args: map[string]any{"name": p.Name}}); err != nil {
			return err
		}
	}
	for _, r := range t.Regions {
		if err := emit(chromeEvent{Name: t.RegionNames[r.Region], Cat: "region", Ph: "X", TS: micros(r.EnterNS), Dur: micros(max(r.LeaveNS-r.EnterNS, 1)), PID: r.Process}); err != nil {
			return err
		}
	}
	for i, m := range t.Messages {
		args := map[string]any{"bytes": m.Bytes, "tag": m.Tag, "comm": t.Comms[m.Comm]}
		for _, e := range []chromeEvent{
			{Name: "send", Cat: "message", Ph: "X", TS: micros(m.SendNS), Dur: "0.001", PID: m.Src, Args: args},
			{Name: "message", Cat: "message", Ph: "s", TS: micros(m.SendNS), PID: m.Src, ID: i + 1},
			{Name: "recv", Cat: "message", Ph: "X", TS: micros(m.RecvNS), Dur: "0.001", PID: m.Dst, Args: args},
			{Name: "message", Cat: "message", Ph: "f", BP: "e", TS: micros(m.RecvNS), PID: m.Dst, ID: i + 1},
		} {
			if err := emit(e); err != nil {
				return err
			}
		}
	}
	if _, err := io.WriteString(bw, "]}\n"); err != nil {
		return err
	}
	return bw.Flush()
}
