// Package sdk is what notebook cells see: the facade that ties Superstep's
// domain objects (profiles, graphs, networks) to their displays. Context
// is the running cell's context: every SDK call that can run long takes
// it first (Run, layout.SFDP, community.Louvain, …) and stops promptly
// when the cell is interrupted. Its subpackage symbols exposes the
// compiled SDK to the kernel's interpreter.
package sdk
