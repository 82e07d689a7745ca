// Package layers has no code: its test keeps Superstep's imports running
// one way, bottom to top, as the layer table of DESIGN.md says.
//
// The floors, from the bottom:
//
//  1. Standard-library leaves: internal/parallel (the one worker pool),
//     internal/linereader (the one line reader of the text formats and
//     the one ParseError of every file reader),
//     the display contract (display), the wire format and cell rewriting
//     of the kernel (kernel/wire, kernel/cell), the graph and table types
//     (sdk/graph, sdk/table).
//  2. The kernel (kernel): the Jupyter protocol against its Interpreter
//     interface, speaking only the display contract.
//  3. What ran, as models: the engine and its profile and record (sdk/bsp,
//     sdk/profile, sdk/vrecord), traces and their readers (sdk/trace/...),
//     the networks (topology/...) and the graph readers and generators
//     (datasets).
//  4. Algorithms (algo/...): vertex programs use the engine.
//  5. Views (display/views): pictures over plain data, drawn with the
//     geometry of algo (edge bundling); they know no model of floor 3.
//  6. Jobs on MPI ranks (sdk/mpijob), then the facade (sdk) that ties
//     models to their views.
//  7. What cells run in: the symbol tables (sdk/symbols), the interpreter
//     session (sdk/session), and the kernel command that joins the kernel
//     to it (sdk/cmd/superstep-kernel).
//
// Commands (package main) may import anything below them.
package layers
