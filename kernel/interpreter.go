package kernel

import (
	"context"
	"fmt"

	"superstep/display"
)

// Interpreter runs a notebook's cells. The kernel speaks the protocol; the
// interpreter owns everything a cell sees: the language, its definitions
// from cell to cell, what a result looks like, completion and help.
//
// The kernel calls one method at a time from its shell loop, except that
// the context of a running Execute is cancelled from another goroutine
// when the user interrupts the cell.
type Interpreter interface {
	// Execute runs one cell; count is its execution count (0 for the
	// kernel's own evaluations, such as user_expressions). It returns the
	// cell's result, nil when the cell has none. A failing cell returns a
	// *CellError; cancelling ctx interrupts the cell.
	Execute(ctx context.Context, code string, count int) (*display.Bundle, error)
	// Complete lists the completions at cursor, a position in code points.
	Complete(code string, cursor int) Completion
	// Inspect describes what is at cursor; detail is 0 or 1 (as in name?
	// and name??). found is false when there is nothing to say.
	Inspect(code string, cursor, detail int) (doc display.Bundle, found bool)
	// IsComplete says whether code can run as it is: "complete",
	// "incomplete" (with the indentation of the next line), "invalid" or
	// "unknown".
	IsComplete(code string) (status, indent string)
}

// CellError is a cell that failed. Kind is what went wrong ("syntax
// error", "compile error", "panic", "interpreter error", "interrupted");
// Line and Col are 1-based cell positions (0 when unknown), Col counting
// characters; Source is the text of that line.
type CellError struct {
	Kind   string
	Msg    string
	Line   int
	Col    int
	Source string
}

func (e *CellError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s at line %d: %s", e.Kind, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Msg)
}

// Completion is the answer to a complete_request: the matches and the
// range of code points they replace.
type Completion struct {
	Matches    []Match
	Start, End int
}

// Match is one completion: the text to insert, its kind ("function",
// "variable", "type", "constant", "package", "keyword", "field",
// "method") and its signature or type, as front ends show beside it.
type Match struct {
	Text      string
	Kind      string
	Signature string
}
