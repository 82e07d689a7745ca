package display

import _ "embed"

// RuntimeJS is the browser runtime embedded in live displays: the modules in
// runtime/src and the d3 modules they use (runtime/package-lock.json),
// bundled and minified by esbuild. Superstep's JupyterLab extension (lab/)
// bundles the same sources; both are regenerated after changing either:
//
//	go generate ./display
//
//go:generate go run ./runtime/build runtime ../lab
//go:embed runtime/superstep.js
var RuntimeJS string
