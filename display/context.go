package display

import "context"

// contextSink is a Sink that knows the running cell's context: the kernel's
// sink does, so that compiled code given display.Here() stops when the
// user interrupts the cell.
type contextSink interface {
	Context() context.Context
}

// Context is the context of the code the output belongs to: in a notebook
// cell it is cancelled when the user interrupts the cell. Long-running
// compiled code that shows on an Output should stop when it is done.
func (o *Output) Context() context.Context {
	if cs, ok := o.sink.(contextSink); ok {
		return cs.Context()
	}
	return context.Background()
}
