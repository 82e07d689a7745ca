// Package views draws Superstep's pictures: every view over plain data
// (series, matrices, hierarchies, rings, node-link geometry, message
// curves), its layout computed and tested in Go, its static picture
// drawn in Go, and its live form drawn by the browser runtime from a spec.
// Cells mostly reach views through the sdk facade (a job's Trend, a
// fat-tree's board, a trace's Timeline); this package is what they return.
//
// Every view is a value with a MIMEBundle method (display's Renderer). A
// view is made by a function of its data: most keep the data and lay out
// when shown, in milliseconds; the ones whose layout takes seconds take a
// context and lay out when made (Timeline), so that ■ stops them.
//
// The views, by file:
//
//   - trend.go: Trend, small multiples of time, messages and bytes per
//     unit over supersteps, with a frame slider (GiViP's Trend View).
//   - chord*.go: Chord, a chord diagram of one frame's traffic with
//     concentric hierarchy rings (ChordLayout is its geometry);
//     CompareChords, chords side by side on one scale; ChordLines, a chord
//     of bundled curves between processes.
//   - treemap.go: SquarifiedLayout and the treemap of a hierarchy.
//   - dashboard.go: Dashboard, trend, chord and treemap linked.
//   - matrix*.go: Matrix, a communication matrix; MatrixBoard, a fat-tree's
//     per-pod link matrices with routes, jobs, a time chart and a
//     histogram (TreeScope; matrixboard_treescope.md maps it to the
//     paper); CompareMatrixBoards.
//   - ringgraph*.go: RingGraph, a torus linearised on a Hilbert ring with
//     bundled channels (Boxfish/TorusVis; ringgraph_spec.md is its spec).
//   - timeline*.go: Timeline, messages over time, edge-bundled, drawn on a
//     canvas when large; senderreceiver*.go: SenderReceiver, the sender/
//     receiver diagram; curve_raster.go: the additive curve field both draw
//     into.
//   - drawing*.go: Drawing, a node-link drawing of a graph (SVG, or a
//     canvas for large graphs).
//   - animate*.go: Animate, a vertex program's run played on a drawing.
//   - picture.go: SVG and Picture, any SVG drawing as a view.
//   - arrow.go: ArrowTable, ArrowRecord and TableOf, Arrow data as a
//     table.
//   - row.go: Row, views side by side.
//   - save.go: Save, any view to an .svg, .png or live .html file (Width,
//     Scale).
//
// The shared machinery: figure.go (the one way a picture becomes a
// bundle: a static PNG <img> and a call to the runtime), svg.go (the SVG
// writer and text fitting), palette.go, nested_palette.go and ramp.go
// (colours), binary.go (the typed arrays of specs: arrayPack, one zlib
// stream the runtime inflates once; classSteps, classes the runtime derives
// from values rather than reads), and
// internal/raster (the SVG rasteriser that draws static pictures).
package views
