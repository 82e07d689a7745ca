package kernel

import (
	"fmt"

	"superstep/display"
)

// Display is the kernel's display.Sink: displays go to iopub under the
// running cell, after the text it printed so far.
func (k *Kernel) Display() display.Sink { return sink{k} }

// GoroutinePanic reports a panic recovered in a goroutine that cell number
// cell started: the goroutine stopped, the kernel goes on.
func (k *Kernel) GoroutinePanic(cell int, v any) {
	fmt.Fprintf(k.streams.writer("stderr"), "panic in a goroutine started by cell [%d]: %v (the goroutine stopped; the kernel goes on)\n", cell, v)
}

type sink struct{ k *Kernel }

func (s sink) parent() []byte {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	if s.k.lastRun != nil {
		return s.k.lastRun.req.RawHeader
	}
	return nil
}

func transient(id string) map[string]any {
	if id == "" {
		return map[string]any{}
	}
	return map[string]any{"display_id": id}
}

func (s sink) Display(b display.Bundle, id string) error {
	b = s.k.carrier.Prepare(b, id)
	s.k.streams.sync()
	s.k.publish(s.parent(), "display_data", displayData{Data: b.Data, Metadata: orEmpty(b.Metadata), Transient: transient(id)})
	return nil
}

func (s sink) Update(b display.Bundle, id string) error {
	if id == "" {
		return fmt.Errorf("update_display_data needs a display id")
	}
	b = s.k.carrier.Prepare(b, id)
	s.k.streams.sync()
	s.k.publish(s.parent(), "update_display_data", displayData{Data: b.Data, Metadata: orEmpty(b.Metadata), Transient: transient(id)})
	return nil
}

func (s sink) Clear(wait bool) error {
	s.k.carrier.Cleared()
	s.k.streams.sync()
	s.k.publish(s.parent(), "clear_output", clearOutput{Wait: wait})
	return nil
}

// Page adds a pager payload to the running cell's reply.
func (s sink) Page(b display.Bundle) error {
	s.k.mu.Lock()
	run := s.k.run
	s.k.mu.Unlock()
	if run == nil {
		return s.Display(b, "")
	}
	run.mu.Lock()
	b = display.WithRuntime(b)
	run.payload = append(run.payload, pagePayload{Source: "page", Data: b.Data, Start: 0})
	run.mu.Unlock()
	return nil
}
