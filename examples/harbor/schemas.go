package main

import (
	"fmt"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// toolSchemas are the input schemas of the tools, as an MCP server or
// an OpenAPI description would publish them. argcheck checks every call
// against its tool's schema before the handler runs. Rules that need the
// carrier's knowledge stay in the handlers: the weight's 0.1 kg steps
// (rounded up, never to the nearest) and its 70 kg limit (freight, a
// person's call), and the catalog's spelling of a SKU.
var toolSchemas = map[string]string{
	"lookup_inventory": `{
  "type": "object", "additionalProperties": false, "required": ["sku"],
  "properties": {"sku": {"type": "string", "minLength": 1, "maxLength": 64}}
}`,
	"reserve_stock": `{
  "type": "object", "additionalProperties": false, "required": ["order_id", "sku", "quantity"],
  "properties": {
    "order_id": {"type": "string", "pattern": "^ORD-[0-9]{5}$"},
    "sku": {"type": "string", "minLength": 1, "maxLength": 64},
    "quantity": {"type": "integer", "minimum": 1, "maximum": 100}
  }
}`,
	"create_shipment_label": `{
  "type": "object", "additionalProperties": false, "required": ["order_id", "sku", "weight_kg", "service"],
  "properties": {
    "order_id": {"type": "string", "pattern": "^ORD-[0-9]{5}$"},
    "sku": {"type": "string", "minLength": 1, "maxLength": 64},
    "weight_kg": {"type": "number", "exclusiveMinimum": 0},
    "service": {"enum": ["ground", "express"]}
  }
}`,
	"notify_customer": `{
  "type": "object", "additionalProperties": false, "required": ["order_id", "customer", "label_id"],
  "properties": {
    "order_id": {"type": "string", "pattern": "^ORD-[0-9]{5}$"},
    "customer": {"type": "string", "pattern": "^cus_[0-9]{4}$"},
    "label_id": {"type": "string", "pattern": "^lbl_[A-Za-z0-9_-]{1,64}$"}
  }
}`,
	"geocode_address":        geocodeSchema,
	"geocode_address_backup": geocodeSchema,
}

// geocodeSchema is the input schema of both geocoders.
const geocodeSchema = `{
  "type": "object", "additionalProperties": false, "required": ["order_id", "address"],
  "properties": {
    "order_id": {"type": "string", "pattern": "^ORD-[0-9]{5}$"},
    "address": {"type": "string", "minLength": 1, "maxLength": 200}
  }
}`

// compileSchemas compiles the tools' schemas over reg.
func compileSchemas(reg *toolerr.Registry) (map[string]*argcheck.Schema, error) {
	out := make(map[string]*argcheck.Schema, len(toolSchemas))
	for tool, schema := range toolSchemas {
		s, err := argcheck.Compile(schema, argcheck.WithRegistry(reg), argcheck.WithMaxBytes(1<<16))
		if err != nil {
			return nil, fmt.Errorf("harbor: schema of %s: %w", tool, err)
		}
		out[tool] = s
	}
	return out, nil
}
