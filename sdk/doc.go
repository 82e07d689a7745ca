// Package sdk is what notebook cells see: the facade that ties Superstep's
// domain objects (profiles, graphs, networks) to their displays. Its
// subpackage symbols exposes the compiled SDK to the kernel's interpreter.
package sdk
