package sdk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"superstep/display"
	"superstep/sdk/trace"
	"superstep/sdk/trace/ompimon"
	"superstep/sdk/trace/otf"
	"superstep/sdk/trace/otf2"
)

// The formats OpenTrace recognises (TraceFile.Format).
const (
	FormatOTF2       = "OTF2"
	FormatOTF        = "OTF"
	FormatParquet    = "Parquet"
	FormatMonitoring = "Open MPI monitoring"
)

// TraceFile is what OpenTrace opened: a message trace (OTF2, OTF v1, or a
// trace saved as Parquet), or the per-pair counters of Open MPI's
// monitoring files, which hold no times.
type TraceFile struct {
	// Path is the file or folder read; Format one of FormatOTF2,
	// FormatOTF, FormatParquet, FormatMonitoring.
	Path, Format string
	// Trace is the message trace; nil for monitoring files.
	Trace *trace.Trace
	// Monitoring is the monitoring files' counters; nil for a trace.
	Monitoring *ompimon.Data
}

// Pairs are the point-to-point totals per (sender, receiver), from either
// source: a trace's messages, or the monitoring files' external messages
// (without transfer times).
func (f *TraceFile) Pairs() []trace.Pair {
	if f.Trace != nil {
		return f.Trace.Pairs()
	}
	if f.Monitoring != nil {
		return MonitoringPairs(f.Monitoring)
	}
	return nil
}

// Warnings are what the reader read but did not use, or doubted (see
// trace.Trace.Warnings); monitoring files give none.
func (f *TraceFile) Warnings() []string {
	if f.Trace != nil {
		return f.Trace.Warnings
	}
	return nil
}

// MIMEBundle shows what was opened: the format, the processes (ranks),
// messages and warnings, as a table.
func (f *TraceFile) MIMEBundle() display.Bundle {
	rows := [][]any{{"file", f.Path}, {"format", f.Format}}
	switch {
	case f.Trace != nil:
		rows = append(rows, []any{"processes", display.FormatNumber(float64(len(f.Trace.Processes)))},
			[]any{"messages", display.FormatNumber(float64(len(f.Trace.Messages)))},
			[]any{"unmatched", display.FormatNumber(float64(len(f.Trace.Unmatched)))},
			[]any{"duration", f.Trace.Duration().String()})
	case f.Monitoring != nil:
		msgs, bytes, pairs := f.Monitoring.External()
		rows = append(rows, []any{"ranks", display.FormatNumber(float64(f.Monitoring.Ranks))},
			[]any{"messages", display.FormatNumber(float64(msgs))}, []any{"bytes", display.FormatNumber(float64(bytes))},
			[]any{"rank pairs", display.FormatNumber(float64(pairs))})
	}
	for _, w := range f.Warnings() {
		rows = append(rows, []any{"warning", w})
	}
	return display.Table([]string{"", ""}, rows).MIMEBundle()
}

// monitoringName is "<prefix>.<rank>.prof", Open MPI's monitoring files.
var monitoringName = regexp.MustCompile(`^(.+)\.(\d+)\.prof$`)

// OpenTrace opens a record of an MPI run's communication, choosing the
// reader by what path is, as datasets.Load does for graphs:
//
//   - an OTF2 anchor file (*.otf2), or a folder holding one: otf2.Read;
//   - an OTF v1 master file (*.otf), or a folder holding one: otf.Read;
//   - a folder holding a trace saved with SaveParquet (messages.parquet),
//     or one of its .parquet files: trace.LoadParquet;
//   - an Open MPI monitoring file (<prefix>.<rank>.prof), which opens
//     every rank's file of that prefix beside it, or a folder holding
//     them for one prefix: ompimon.Read.
//
// A folder that holds more than one of these is an error naming them; so
// is a path that is none, with what OpenTrace looked for.
func OpenTrace(ctx context.Context, path string) (*TraceFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("sdk: OpenTrace: %w", err)
	}
	if st.IsDir() {
		return openTraceDir(ctx, path)
	}
	name := filepath.Base(path)
	switch {
	case strings.HasSuffix(name, ".otf2"):
		tr, err := otf2.Read(ctx, path)
		return traceFile(path, FormatOTF2, tr, err)
	case strings.HasSuffix(name, ".otf"):
		tr, err := otf.Read(ctx, path)
		return traceFile(path, FormatOTF, tr, err)
	case strings.HasSuffix(name, ".parquet"):
		dir := filepath.Dir(path)
		tr, err := trace.LoadParquet(dir)
		return traceFile(dir, FormatParquet, tr, err)
	}
	if m := monitoringName.FindStringSubmatch(name); m != nil {
		data, err := ompimon.Read(filepath.Dir(path), m[1])
		if err != nil {
			return nil, fmt.Errorf("sdk: OpenTrace: %w", err)
		}
		return &TraceFile{Path: path, Format: FormatMonitoring, Monitoring: data}, nil
	}
	return nil, fmt.Errorf("sdk: OpenTrace: %s: %w", path, errNotATrace)
}

var errNotATrace = errors.New("not a trace: expected an OTF2 anchor file (*.otf2), an OTF master file (*.otf), " +
	"Open MPI monitoring files (<prefix>.<rank>.prof), a folder of a trace saved as Parquet (messages.parquet), " +
	"or a folder holding one of these")

// openTraceDir opens the one trace a folder holds.
func openTraceDir(ctx context.Context, dir string) (*TraceFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("sdk: OpenTrace: %w", err)
	}
	var found []string // what the folder holds, for the error
	var open func() (*TraceFile, error)
	prefixes := map[string]bool{}
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(dir, name)
		switch {
		case e.IsDir():
			continue
		case strings.HasSuffix(name, ".otf2"), strings.HasSuffix(name, ".otf"):
			found = append(found, name)
			open = func() (*TraceFile, error) { return OpenTrace(ctx, p) }
		case name == trace.MessagesFile:
			found = append(found, name)
			open = func() (*TraceFile, error) { return OpenTrace(ctx, p) }
		default:
			if m := monitoringName.FindStringSubmatch(name); m != nil && !prefixes[m[1]] {
				prefixes[m[1]] = true
				found = append(found, m[1]+".<rank>.prof")
				open = func() (*TraceFile, error) { return OpenTrace(ctx, p) }
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("sdk: OpenTrace: folder %s: %w", dir, errNotATrace)
	case 1:
		return open()
	}
	slices.Sort(found)
	return nil, fmt.Errorf("sdk: OpenTrace: folder %s holds %d traces (%s): name the one to open", dir, len(found), strings.Join(found, ", "))
}

func traceFile(path, format string, tr *trace.Trace, err error) (*TraceFile, error) {
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("sdk: OpenTrace: %s trace %s: %w", format, path, err)
		}
		return nil, fmt.Errorf("sdk: OpenTrace: %w", err)
	}
	return &TraceFile{Path: path, Format: format, Trace: tr}, nil
}
