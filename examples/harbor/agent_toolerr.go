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
// tools' structured errors say (code, category, retryable, retry_after_ms,
// field and suggested_value, severity, actions) and sends an
// Idempotency-Key with every label it asks for.
type toolerrAgent struct {
	client *http.Client
	base   string
	clock  *simClock
	seed   uint64
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
// args in place when the tool suggests a value, and returns the decoded
// result and true on success.
func (a *toolerrAgent) step(ctx context.Context, res *taskResult, session, tool string, args map[string]any, keyed bool) (map[string]any, bool) {
	fixes, retries := 0, 0
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
		status, body, err := callTool(ctx, a.client, a.base, res, tool, args, key)
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
		e, err := toolerr.Parse(body)
		if err != nil {
			return a.escalate(res, tool, "unstructured error")
		}
		field := strings.TrimPrefix(e.Field, "/")
		_, known := args[field]
		switch {
		case e.Severity == toolerr.SeverityFatal || slices.Contains(e.Actions, toolerr.ActionHumanRequired):
			return a.escalate(res, tool, e.Code+": "+e.Hint)
		case e.Code == codeLabelExists:
			if id, ok := e.Details["label_id"].(string); ok {
				return map[string]any{"label_id": id}, true // the order has its label: do not buy another
			}
			return a.escalate(res, tool, e.Code+" without a label id")
		case e.SuggestedValue != nil && known && fixes < maxFixes:
			args[field] = e.SuggestedValue
			fixes++
		case e.Retryable && retries < maxRetries:
			_ = a.clock.Sleep(ctx, e.RetryAfter)
			retries++
		default:
			return a.escalate(res, tool, fmt.Sprintf("%s (%s)", e.Code, e.Category))
		}
	}
}

// escalate hands the task to a person and records why.
func (a *toolerrAgent) escalate(res *taskResult, tool, reason string) (map[string]any, bool) {
	res.Escalated = true
	res.Reason = truncate(tool+": "+reason, 200)
	return nil, false
}
