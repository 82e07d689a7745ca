package display

import _ "embed"

// RuntimeJS is the browser runtime embedded in live displays.
//
//go:embed runtime/superstep.js
var RuntimeJS string
