// Command tracebench times issue 14's targets on this machine and prints
// them as a table: reading the paper's FD4 trace (when present), matching
// 2.2 M messages, reading a 160 k-message OTF2 trace written by the PMPI
// shim (when Open MPI is installed), and drawing the timeline, matrix,
// chord lines and sender/receiver diagram of the WRF-like and FD4 traces,
// with the peak memory of the process.
//
//	go run ./sdk/trace/tracebench [-fd4 DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"superstep/sdk"
	"superstep/sdk/trace"
	"superstep/sdk/trace/mpishim"
	"superstep/sdk/trace/otf"
	"superstep/sdk/trace/otf2"
)

func main() {
	fd4Dir := flag.String("fd4", filepath.Join("..", "shared", "data", "fd4-otf", "fd4-01024p"), "the paper's FD4 trace (OTF)")
	flag.Parse()
	ctx := context.Background()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "what\tmeasured\ttarget\tthe paper")
	row := func(what, target, paper string, f func() (string, error)) {
		t := time.Now()
		extra, err := f()
		d := time.Since(t)
		m := d.Round(time.Millisecond).String()
		if err != nil {
			m = "error: " + err.Error()
		} else if extra != "" {
			m += ", " + extra
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", what, m, target, paper)
	}
	var fd4 *trace.Trace
	if _, err := os.Stat(*fd4Dir); err == nil {
		row("read FD4 (OTF, 2.2 M messages)", "4 s", "—", func() (string, error) {
			var err error
			fd4, err = otf.Read(ctx, *fd4Dir)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%d messages", len(fd4.Messages)), nil
		})
		// The pictures below draw messages only: let the 6.5 M region
		// intervals go before they run.
		fd4.Regions = nil
		debug.FreeOSMemory()
	} else {
		fmt.Fprintf(os.Stderr, "tracebench: %s not found: FD4-like instead\n", *fd4Dir)
		fd4 = trace.FD4Like(1)
	}
	row("match 2.2 M messages (Builder)", "1 s", "—", func() (string, error) {
		b := trace.NewBuilder("rematch")
		for range fd4.Processes {
			b.AddProcess(trace.Process{})
		}
		c := b.Comm("world")
		b.Reserve(len(fd4.Messages), len(fd4.Messages))
		for _, m := range fd4.Messages {
			if err := b.Send(m.Src, m.SendNS, m.Dst, c, m.Tag, m.Bytes, m.Kind); err != nil {
				return "", err
			}
			if err := b.Recv(m.Dst, m.RecvNS, m.Src, c, m.Tag, m.Bytes); err != nil {
				return "", err
			}
		}
		t, err := b.Finish(ctx)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d matched", len(t.Messages)), nil
	})
	debug.FreeOSMemory()
	if missing := mpishim.Missing(); len(missing) == 0 {
		dir, _ := os.MkdirTemp("", "tracebench-")
		defer os.RemoveAll(dir)
		lib, err := mpishim.Build(dir)
		grid := ""
		if err == nil {
			grid, err = mpishim.BuildProgram(dir, "grid")
		}
		if err == nil {
			_, err = mpishim.Run(ctx, 16, grid, []string{"2500"}, mpishim.Options{Shim: lib, TraceDir: filepath.Join(dir, "t")})
		}
		if err == nil {
			row("read the grid run's OTF2 (16 ranks, 2,500 steps)", "0.3 s", "—", func() (string, error) {
				t, err := otf2.Read(ctx, filepath.Join(dir, "t", "traces.otf2"))
				if err != nil {
					return "", err
				}
				return fmt.Sprintf("%d messages", len(t.Messages)), nil
			})
		} else {
			fmt.Fprintln(os.Stderr, "tracebench: the MPI run failed:", err)
		}
	} else {
		fmt.Fprintf(os.Stderr, "tracebench: %s not on PATH: no OTF2 reading time\n", strings.Join(missing, ", "))
	}
	wrf := trace.WRFLike(1)
	row("WRF-like, 168 k messages: bundle + draw", "0.5 s", "about 1 min", func() (string, error) {
		v, err := sdk.Timeline(ctx, wrf, sdk.TimelineOptions{NoRegions: true})
		if err == nil {
			_, err = v.Image(1)
		}
		return "", err
	})
	row("FD4: bundle + draw", "5 s", "over 20 min", func() (string, error) {
		v, err := sdk.Timeline(ctx, fd4, sdk.TimelineOptions{NoRegions: true})
		if err == nil {
			_, err = v.Image(1)
		}
		return "", err
	})
	row("FD4: sender/receiver", "1 s", "about 30 s", func() (string, error) {
		v, err := sdk.SenderReceiver(fd4)
		if err == nil {
			_, err = v.PNG()
		}
		return "", err
	})
	row("FD4: matrix", "0.5 s", "—", func() (string, error) {
		v, err := sdk.CommMatrix(fd4, "messages")
		if err == nil {
			_, err = v.PNG()
		}
		return "", err
	})
	row("FD4: chord lines", "0.5 s", "—", func() (string, error) {
		v, err := sdk.CommChord(fd4)
		if err == nil {
			_, err = v.PNG()
		}
		return "", err
	})
	tw.Flush()
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmHWM") {
				fmt.Println("peak memory:", strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "(target 1.5 GB)")
			}
		}
	}
}
