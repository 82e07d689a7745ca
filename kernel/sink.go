package kernel

import (
	"context"
	"reflect"

	"superstep/display"
)

// sink is the kernel's display.Sink: displays go to iopub under the running
// cell, after the text it printed so far.
type sink struct{ k *Kernel }

func newSink(k *Kernel) *display.Output { return display.On(sink{k}) }

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
	s.k.streams.flushAll()
	s.k.publish(s.parent(), "display_data", map[string]any{"data": b.Data, "metadata": orEmpty(b.Metadata), "transient": transient(id)})
	return nil
}

func (s sink) Update(b display.Bundle, id string) error {
	s.k.streams.flushAll()
	s.k.publish(s.parent(), "update_display_data", map[string]any{"data": b.Data, "metadata": orEmpty(b.Metadata), "transient": transient(id)})
	return nil
}

func (s sink) Clear(wait bool) error {
	s.k.streams.flushAll()
	s.k.publish(s.parent(), "clear_output", map[string]any{"wait": wait})
	return nil
}

// Context is the running cell's context, cancelled by an interrupt; with
// no cell running, a background context.
func (s sink) Context() context.Context {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	if s.k.run != nil {
		return s.k.run.ctx
	}
	return context.Background()
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
	run.payload = append(run.payload, map[string]any{"source": "page", "data": b.Data, "start": 0})
	run.mu.Unlock()
	return nil
}

// boundDisplayFuncs are the display package's functions that show on "the
// current output": in the interpreter they are bound to the kernel's sink
// instead of standard output. Each has an *Output method of the same name.
func boundDisplayFuncs() []string {
	return []string{"Show", "ShowWithID", "Update", "Clear", "Page", "NewProgress"}
}

// displayBindings returns the symbol table that overrides those functions
// (and display.Here) for cells.
func displayBindings(out *display.Output) SymbolTable {
	syms := map[string]reflect.Value{
		"Here": reflect.ValueOf(func() *display.Output { return out }),
	}
	ov := reflect.ValueOf(out)
	for _, name := range boundDisplayFuncs() {
		syms[name] = ov.MethodByName(name)
	}
	return SymbolTable{"superstep/display/display": syms}
}
