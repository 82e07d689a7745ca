package display_test

import (
	"os"

	"superstep/display"
)

// Outside a notebook, displays print their text form.
func ExampleTable() {
	out := display.TextOutput(os.Stdout)
	out.Show(display.Table([]string{"worker", "messages"}, [][]any{{"w0", 120}, {"w1", 80}}))
	// Output:
	// worker  messages
	// w0      120
	// w1      80
}
