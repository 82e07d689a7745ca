// Command superstep-kernel is the Superstep Jupyter kernel process. Jupyter
// starts it with the path of a connection file:
//
//	superstep-kernel /path/to/kernel-1234.json
//
// install.sh builds it and registers the kernelspec "superstep".
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"github.com/traefik/yaegi/interp"

	"superstep/kernel"
	"superstep/kernel/wire"
	"superstep/sdk/session"
	"superstep/sdk/symbols"
)

func main() {
	version := flag.Bool("version", false, "print the version and exit")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: superstep-kernel CONNECTION_FILE\n\nThe Superstep Go kernel for Jupyter; Jupyter starts it.\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *version {
		fmt.Println("superstep-kernel", kernel.Version)
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "superstep-kernel:", err)
		os.Exit(1)
	}
}

func run(connFile string) error {
	ci, err := wire.ReadConnectionFile(connFile)
	if err != nil {
		return err
	}
	limit := 0
	if s := os.Getenv("SUPERSTEP_OUTPUT_LIMIT"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit <= 0 {
			return fmt.Errorf("SUPERSTEP_OUTPUT_LIMIT=%q is not a positive number of bytes", s)
		}
	}
	k, err := kernel.New(kernel.Config{Conn: ci, OutputLimit: limit,
		Banner: fmt.Sprintf("Superstep %s: Go (%s, interpreted by yaegi) with the Superstep SDK", kernel.Version, runtime.Version())})
	if err != nil {
		return err
	}
	sess, err := session.New(session.Options{
		Stdin:          k.Stdin(),
		Stdout:         k.Stdout(),
		Stderr:         k.Stderr(),
		Display:        k.Display(),
		GoroutinePanic: k.GoroutinePanic,
		Symbols:        []interp.Exports{symbols.Symbols},
		Preload:        session.Preload(),
	})
	if err != nil {
		return fmt.Errorf("starting the interpreter: %w", err)
	}
	// From here on, descriptors 1 and 2 belong to the cells; the kernel's
	// own log goes to the original standard error.
	logFile, err := k.CaptureStdio()
	if err != nil {
		return err
	}
	logger := log.New(logFile, "[superstep] ", log.LstdFlags)
	log.SetOutput(logFile) // libraries' log calls (yaegi's among them)
	k.SetLog(logger)
	os.Stdin.Close()
	if devnull, err := os.Open(os.DevNull); err == nil {
		syscall.Dup3(int(devnull.Fd()), 0, 0)
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for s := range sigs {
			if s == os.Interrupt {
				k.Interrupt()
				continue
			}
			cancel()
		}
	}()
	_, err = k.Serve(ctx, sess)
	return err
}
