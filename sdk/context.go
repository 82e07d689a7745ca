package sdk

import "context"

// Context is the running notebook cell's context: in the Superstep kernel
// it is cancelled when the user interrupts the cell (the kernel binds this
// function for cells); outside a kernel it is context.Background(). Pass
// it to every SDK call that can run long.
func Context() context.Context { return context.Background() }
