package display

import _ "embed"

// RuntimeJS is the browser runtime embedded in live displays: the modules in
// runtime/src and the d3 modules they use (runtime/package-lock.json),
// bundled and minified by esbuild. Regenerate it after changing either:
//
//	cd display/runtime && npm ci && cd .. && go generate ./...
//
//go:generate go run ./runtime/build runtime
//go:embed runtime/superstep.js
var RuntimeJS string
