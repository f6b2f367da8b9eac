package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// Limits of the toolerr agent per step.
const (
	maxFixes   = 2 // argument fixes from suggested_value
	maxRetries = 3 // repeats of a retryable failure
)

// toolerrAgent is a deterministic agent, no model: it acts only on what the
// tools' errors say (code, retryable, retry_after_ms, field and
// suggested_value, example_request, details, actions) and sends an
// Idempotency-Key with every label it asks for. It reads each error as a
// model does through its runtime: the observation text (Accept:
// text/plain), nothing else; with readJSON it reads the problem+json
// members instead, for comparison.
type toolerrAgent struct {
	client   *http.Client
	base     string
	clock    *simClock
	seed     uint64
	readJSON bool
}

// run works through one task: look up the stock, reserve it, buy a label,
// tell the customer.
func (a *toolerrAgent) run(ctx context.Context, t task) taskResult {
	var res taskResult
	session := fmt.Sprintf("harbor-%d-%s", a.seed, t.Order)
	lookup := map[string]any{"sku": t.SKU}
	stock, ok := a.step(ctx, &res, session, "lookup_inventory", lookup, false)
	if !ok {
		return res
	}
	if n, _ := stock["available"].(float64); int(n) < t.Quantity {
		res.Escalated, res.Reason = true, "not enough stock"
		return res
	}
	sku := lookup["sku"] // corrected, if the tool suggested a spelling
	reserve := map[string]any{"order_id": t.Order, "sku": sku, "quantity": t.Quantity}
	if _, ok := a.step(ctx, &res, session, "reserve_stock", reserve, false); !ok {
		return res
	}
	if t.Address != "" {
		geo := map[string]any{"order_id": t.Order, "address": t.Address}
		if _, ok := a.step(ctx, &res, session, "geocode_address", geo, false); !ok {
			return res
		}
	}
	label := map[string]any{"order_id": t.Order, "sku": sku, "weight_kg": t.WeightKg, "service": t.Service}
	out, ok := a.step(ctx, &res, session, "create_shipment_label", label, true)
	if !ok {
		return res
	}
	notify := map[string]any{"order_id": t.Order, "customer": t.Customer, "label_id": out["label_id"]}
	if _, ok := a.step(ctx, &res, session, "notify_customer", notify, false); !ok {
		return res
	}
	res.Completed = true
	return res
}

// step calls tool until it succeeds or an error says to stop. It changes
// args in place when the tool suggests a value, switches once to a
// fallback tool the error offers (use_fallback:<tool>), and returns the
// decoded result and true on success.
func (a *toolerrAgent) step(ctx context.Context, res *taskResult, session, tool string, args map[string]any, keyed bool) (map[string]any, bool) {
	fixes, retries, fellBack := 0, 0, false
	for {
		key := ""
		if keyed {
			b, err := json.Marshal(args)
			if err == nil {
				key, err = idempotency.Key(session, tool, b)
			}
			if err != nil {
				return a.escalate(res, tool, "no idempotency key: "+err.Error())
			}
		}
		accept := "text/plain"
		if a.readJSON {
			accept = "application/problem+json"
		}
		status, body, err := callTool(ctx, a.client, a.base, res, tool, args, key, accept)
		if err != nil {
			return a.escalate(res, tool, "no response: "+err.Error())
		}
		if status < 400 {
			var out map[string]any
			if err := json.Unmarshal(body, &out); err != nil {
				return a.escalate(res, tool, "unreadable result")
			}
			return out, true
		}
		o, ok := a.read(body)
		if !ok {
			return a.escalate(res, tool, "unstructured error")
		}
		field := strings.TrimPrefix(o.Field, "/")
		_, known := args[field]
		switch {
		case slices.Contains(o.Actions, toolerr.ActionHumanRequired):
			return a.escalate(res, tool, o.Code+": "+o.Hint)
		case o.Code == codeLabelExists:
			if id, ok := o.Details["label_id"].(string); ok {
				return map[string]any{"label_id": id}, true // the order has its label: do not buy another
			}
			return a.escalate(res, tool, o.Code+" without a label id")
		case offeredFallback(o.Actions) != "" && !fellBack:
			// The tool retried its downstream already: take the backup
			// it names, with the same arguments.
			tool, fellBack, retries = offeredFallback(o.Actions), true, 0
		case o.ExampleRequest != nil && fixes < maxFixes:
			clear(args) // the call with every repair applied
			for k, v := range o.ExampleRequest {
				args[k] = v
			}
			fixes++
		case o.SuggestedValue != nil && known && fixes < maxFixes:
			args[field] = o.SuggestedValue
			fixes++
		case o.Retryable && retries < maxRetries:
			_ = a.clock.Sleep(ctx, o.RetryAfter)
			retries++
		default:
			return a.escalate(res, tool, fmt.Sprintf("%s (%s)", o.Code, o.Category))
		}
	}
}

// offeredFallback returns the first fallback tool among actions, or "".
func offeredFallback(actions []string) string {
	for _, a := range actions {
		if tool, ok := strings.CutPrefix(a, toolerr.ActionUseFallbackPrefix); ok {
			return tool
		}
	}
	return ""
}

// read reads a failed call's body: the observation text, or with
// readJSON the problem object's members.
func (a *toolerrAgent) read(body []byte) (observation, bool) {
	if !a.readJSON {
		return parseObservation(string(body))
	}
	e, err := toolerr.Parse(body)
	if err != nil {
		return observation{}, false
	}
	o := observation{Code: e.Code, Category: string(e.Category), Retryable: e.Retryable, RetryAfter: e.RetryAfter,
		Field: e.Field, SuggestedValue: e.SuggestedValue, Details: e.Details, Actions: e.Actions, Hint: e.Hint}
	o.ExampleRequest, _ = e.ExampleRequest.(map[string]any)
	return o, true
}

// escalate hands the task to a person and records why.
func (a *toolerrAgent) escalate(res *taskResult, tool, reason string) (map[string]any, bool) {
	res.Escalated = true
	res.Reason = truncate(tool+": "+reason, 200)
	return nil, false
}
