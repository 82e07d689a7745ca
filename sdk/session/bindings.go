package session

import (
	"context"
	"reflect"

	"github.com/traefik/yaegi/interp"

	"superstep/display"
	"superstep/display/views"
)

const (
	displayTable = "superstep/display/display"
	sdkTable     = "superstep/sdk/sdk"
)

// bindings override, for cells, the SDK functions that act on "the
// current cell": display's package-level functions show on the session's
// display sink instead of standard output, and sdk.Context returns the
// running cell's context.
//
// Every display function that has an *display.Output method of the same
// name and type is bound to that method: the list follows the display
// package, nobody keeps it by hand.
func (s *Session) bindings(tables []interp.Exports) interp.Exports {
	out := interp.Exports{}
	var hasDisplay, hasSDK bool
	for _, t := range tables {
		_, d := t[displayTable]
		_, k := t[sdkTable]
		hasDisplay = hasDisplay || d
		hasSDK = hasSDK || k
	}
	if hasDisplay && s.opts.Display != nil {
		o := display.OnWith(s.opts.Display, views.TableOf)
		syms := map[string]reflect.Value{
			"Here": reflect.ValueOf(func() *display.Output { return o }),
		}
		ov := reflect.ValueOf(o)
		for _, t := range tables {
			for name, fn := range t[displayTable] {
				m := ov.MethodByName(name)
				if m.IsValid() && fn.Kind() == reflect.Func && fn.Type() == m.Type() {
					syms[name] = m
				}
			}
		}
		out[displayTable] = syms
	}
	if hasSDK {
		out[sdkTable] = map[string]reflect.Value{
			"Context": reflect.ValueOf(s.cellContext),
		}
	}
	return out
}

// cellContext is the running cell's context: cancelled when the cell is
// interrupted; with no cell running, context.Background().
func (s *Session) cellContext() context.Context {
	s.ctxMu.Lock()
	defer s.ctxMu.Unlock()
	if s.ctx != nil {
		return s.ctx
	}
	return context.Background()
}

func (s *Session) setCellContext(ctx context.Context) {
	s.ctxMu.Lock()
	s.ctx = ctx
	s.ctxMu.Unlock()
}

func (s *Session) clearCellContext() {
	s.ctxMu.Lock()
	s.ctx = nil
	s.ctxMu.Unlock()
}
