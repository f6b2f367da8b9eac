package main

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/toolerr/toolerr"
)

// scriptedOrder is the order of a task's user message, as the model reads
// it.
type scriptedOrder struct {
	Order    string  `json:"order_id"`
	Customer string  `json:"customer"`
	SKU      string  `json:"sku"`
	Quantity int     `json:"quantity"`
	WeightKg float64 `json:"weight_kg"`
	Service  string  `json:"service"`
	Address  string  `json:"delivery_address"`
}

// exchange is one tool call of a conversation and the result fed back.
type exchange struct {
	Tool   string
	Args   map[string]any
	Result string
}

// Limits of the scripted model per step, those of the scripted agents.
const (
	scriptedRepeats = 3 // repeats of a failed call
	scriptedFixes   = 2 // argument fixes taken from an observation
)

// scriptedModel stands in for a model behind chatServer. It is stateless:
// from the order and the conversation so far it replays the steps (look up,
// reserve, geocode when an address is given, buy a label, notify) and
// returns the next tool call, or a final answer. What it does after a
// failed call depends only on the text fed back: where that text is a
// toolerr observation it follows it (human_required → ESCALATE,
// LABEL_EXISTS → adopt details.label_id, use_fallback → the backup tool,
// example_request or suggested_value → the call repaired, retryable →
// the same call, anything else → ESCALATE); any other text it repeats, at most three times, as the
// baseline does. So a call changes only when the observation says how.
func scriptedModel(o scriptedOrder, history []exchange) (tool string, args map[string]any, final string) {
	stages := []string{"lookup_inventory", "reserve_stock"}
	if o.Address != "" {
		stages = append(stages, "geocode_address")
	}
	stages = append(stages, "create_shipment_label", "notify_customer")
	stage, sku, label := 0, o.SKU, ""
	retries, fixes, fellBack := 0, 0, false
	next := func() { stage, tool, args, retries, fixes, fellBack = stage+1, "", nil, 0, 0, false }
	for _, e := range history {
		var out map[string]any
		if json.Unmarshal([]byte(e.Result), &out) == nil {
			switch stages[stage] {
			case "lookup_inventory":
				if n, _ := out["available"].(float64); int(n) < o.Quantity {
					return "", nil, "ESCALATE: not enough stock"
				}
				sku, _ = e.Args["sku"].(string)
			case "create_shipment_label":
				label, _ = out["label_id"].(string)
			}
			next()
			continue
		}
		tool, args = e.Tool, e.Args // by default, the same call again
		obs, ok := parseObservation(e.Result)
		if !ok {
			if retries++; retries > scriptedRepeats {
				first, _, _ := strings.Cut(e.Result, "\n")
				return "", nil, "The tool keeps failing (" + first + "); I could not ship the order."
			}
			continue
		}
		field := strings.TrimPrefix(obs.Field, "/")
		_, known := args[field]
		switch id, _ := obs.Details["label_id"].(string); {
		case slices.Contains(obs.Actions, toolerr.ActionHumanRequired):
			return "", nil, "ESCALATE: " + obs.Code + ": " + obs.Hint
		case obs.Code == codeLabelExists && id != "":
			label = id
			next()
		case offeredFallback(obs.Actions) != "" && !fellBack:
			tool, fellBack, retries = offeredFallback(obs.Actions), true, 0
		case obs.ExampleRequest != nil && fixes < scriptedFixes:
			args, fixes = obs.ExampleRequest, fixes+1
		case obs.SuggestedValue != nil && known && fixes < scriptedFixes:
			args = maps.Clone(args)
			args[field], fixes = obs.SuggestedValue, fixes+1
		case obs.Retryable && retries < scriptedRepeats:
			retries++
		default: // a failure the observation gives no way around
			return "", nil, "ESCALATE: " + obs.Code + " (" + obs.Category + ")"
		}
	}
	if stage == len(stages) {
		return "", nil, "DONE"
	}
	if tool == "" {
		tool = stages[stage]
	}
	if args == nil {
		args = map[string]any{"order_id": o.Order}
		switch tool {
		case "lookup_inventory":
			args = map[string]any{"sku": sku}
		case "reserve_stock":
			args["sku"], args["quantity"] = sku, o.Quantity
		case "geocode_address":
			args["address"] = o.Address
		case "create_shipment_label":
			args["sku"], args["weight_kg"], args["service"] = sku, o.WeightKg, o.Service
		case "notify_customer":
			args["customer"], args["label_id"] = o.Customer, label
		}
	}
	return tool, args, ""
}
