package session

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
)

func lookupEnv(k string) string { return os.Getenv(k) }

// Plain is the text/plain form of a cell's result: strings quoted (so an
// empty string shows as ""), errors by their message, everything else as
// fmt's %+v.
func Plain(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.String {
		return strconv.Quote(v.String())
	}
	if v.CanInterface() {
		x := v.Interface()
		if e, ok := x.(error); ok && e != nil {
			return e.Error()
		}
		return fmt.Sprintf("%+v", x)
	}
	return v.String()
}
