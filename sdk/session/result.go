package session

import (
	"context"
	"fmt"
	"go/types"
	"reflect"

	"superstep/kernel/cell"
)

// resultName is the interpreter variable that holds the i-th value of a
// final call with several results.
func resultName(i int) string { return fmt.Sprintf("_superstepResult%d", i) }

// resultShape says whether the cell has a result to show, and how many
// values it has when it is a call with several. Without types (a cell the
// checker left to the interpreter) a final expression is shown as before.
func (s *Session) resultShape(sp *cell.Split, ch *checked) (show bool, multi int) {
	if !sp.ShowsResult {
		return false, 0
	}
	if ch == nil {
		return true, 1
	}
	switch t := ch.result.(type) {
	case nil:
		return false, 0
	case *types.Tuple:
		if t.Len() == 0 {
			return false, 0 // a call without results
		}
		if t.Len() == 1 {
			return true, 1
		}
		return true, t.Len()
	}
	return true, 1
}

// assignResults turns the final expression of a statements part into an
// assignment of its values to the result variables. Only the last line's
// columns move; lines stay where they are.
func assignResults(stmts string, sp *cell.Split, n int) string {
	lhs := ""
	for i := 0; i < n; i++ {
		if i > 0 {
			lhs += ", "
		}
		lhs += resultName(i)
	}
	return stmts[:sp.ResultStart] + lhs + " := " + stmts[sp.ResultStart:]
}

func (s *Session) readResults(ctx context.Context, n int) ([]reflect.Value, error) {
	vals := make([]reflect.Value, n)
	for i := range vals {
		v, err := s.interp.EvalWithContext(ctx, resultName(i))
		if err != nil {
			return nil, fmt.Errorf("reading result %d: %w", i, err)
		}
		vals[i] = v
	}
	return vals, nil
}

// isNilError reports a nil error as the cell's single result: Go's
// "nothing went wrong", shown as nothing (as Python shows nothing for
// None).
func isNilError(v reflect.Value, ch *checked) bool {
	if ch != nil {
		if t := ch.result; t != nil {
			if tup, ok := t.(*types.Tuple); ok && tup.Len() == 1 {
				t = tup.At(0).Type()
			}
			if !types.Identical(t, types.Universe.Lookup("error").Type()) {
				return false
			}
		}
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		return v.IsNil() && (ch != nil || v.Type() == reflect.TypeOf((*error)(nil)).Elem())
	}
	return false
}
