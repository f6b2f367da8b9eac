package mcptest

import (
	"context"
	"encoding/json"
)

// Input schemas of the suite's tools.
var (
	// objectSchema takes any arguments object.
	objectSchema = json.RawMessage(`{"type":"object"}`)
	// noteSchema takes an optional note, which tells calls of one tool
	// apart.
	noteSchema = json.RawMessage(`{"type":"object","properties":{"note":{"type":"string"}}}`)
	// priceSchema is the outputSchema of the typed tools.
	priceSchema = json.RawMessage(`{"type":"object","properties":{"price":{"type":"number"}},"required":["price"]}`)
)

// noArgs are the arguments of a call that needs none.
var noArgs = json.RawMessage(`{}`)

// newTool returns a tool named name, taking any arguments object, that
// runs h.
func newTool(name string, h func(ctx context.Context, args json.RawMessage) (any, error)) Tool {
	return Tool{Name: name, Description: "The conformance suite's " + name + ".", InputSchema: objectSchema, Handler: h}
}

// failing returns a tool that fails with the error err makes.
func failing(name string, err func() error) Tool {
	return newTool(name, func(context.Context, json.RawMessage) (any, error) { return nil, err() })
}

// panicking returns a tool that panics with v.
func panicking(name string, v any) Tool {
	return newTool(name, func(context.Context, json.RawMessage) (any, error) { panic(v) })
}

// typed returns t with the outputSchema of the typed tools.
func typed(t Tool) Tool {
	t.OutputSchema = priceSchema
	return t
}

// callOf is a call of tool with the JSON arguments args.
func callOf(tool, args string) call {
	return call{tool: tool, args: json.RawMessage(args)}
}
