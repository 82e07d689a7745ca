package mpijob

import (
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"

	"superstep/sdk/bsp"
)

// Source is a vertex program written in notebook cells, shipped to the
// ranks as Go source: every rank interprets Decls (with Imports) as a
// cell would be, makes a Type from Value and runs it.
type Source struct {
	// Imports are the packages the declarations use, by the name the
	// cells gave them.
	Imports map[string]string `json:"imports,omitempty"`
	// Decls are the declarations the program needs, in the order the
	// cells made them: its type and every method of it, and the types,
	// functions and constants those use.
	Decls string `json:"decls"`
	// Type is the program's type; Pointer says the program is a *Type.
	Type    string `json:"type"`
	Pointer bool   `json:"pointer,omitempty"`
	// Value is the program value as JSON: its fields, by the
	// interpreter's names for them.
	Value json.RawMessage `json:"value"`
}

// Validate checks that the source parses as Go declarations and that
// Type is an identifier.
func (s *Source) Validate() error {
	if !token.IsIdentifier(s.Type) {
		return fmt.Errorf("mpijob: cell program type %q is not a Go identifier", s.Type)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "cells", "package main\n"+s.Decls, parser.SkipObjectResolution); err != nil {
		return fmt.Errorf("mpijob: the cell program's declarations: %w", err)
	}
	for name, path := range s.Imports {
		if !token.IsIdentifier(name) || path == "" {
			return fmt.Errorf("mpijob: cell program import %q %q", name, path)
		}
	}
	if !json.Valid(s.Value) {
		return fmt.Errorf("mpijob: the cell program's value is not JSON")
	}
	return nil
}

// Interpreter makes the program a Source describes (the worker command
// passes one that runs the Go interpreter with the SDK's symbols).
type Interpreter func(*Source) (bsp.Program, error)

// Shipper turns a program value that a notebook cell made into the
// Source that ranks interpret. The kernel puts one in the context of each
// cell it runs (see WithShipper).
type Shipper func(prog any) (*Source, error)

type shipperKey struct{}

// WithShipper returns ctx carrying ship.
func WithShipper(ctx context.Context, ship Shipper) context.Context {
	return context.WithValue(ctx, shipperKey{}, ship)
}

// ShipperFrom returns the Shipper ctx carries, or nil.
func ShipperFrom(ctx context.Context) Shipper {
	s, _ := ctx.Value(shipperKey{}).(Shipper)
	return s
}

// Namer names the cell type of a program value that a notebook cell made
// ("" when it is not of a cell's type). The kernel puts one in the
// context of each cell it runs (see WithNamer); sdk.Run names a job after
// it.
type Namer func(prog any) string

type namerKey struct{}

// WithNamer returns ctx carrying name.
func WithNamer(ctx context.Context, name Namer) context.Context {
	return context.WithValue(ctx, namerKey{}, name)
}

// NamerFrom returns the Namer ctx carries, or nil.
func NamerFrom(ctx context.Context) Namer {
	n, _ := ctx.Value(namerKey{}).(Namer)
	return n
}
