package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// newNaiveHandler returns the baseline tool set: the same tools without
// toolerr. Each relays the carrier's response as the carrier sent
// it, status and body, and reports a failed call as a 504 with Go's error
// text. client makes one attempt per call, of at most attemptTimeout: a
// context deadline, which simLink sees (http.Client.Timeout would cancel
// the attempt behind simLink's back, through Request.Cancel).
func newNaiveHandler(base string, client *http.Client, attemptTimeout time.Duration) http.Handler {
	mux := http.NewServeMux()
	for _, tool := range []string{"lookup_inventory", "reserve_stock", "create_shipment_label", "notify_customer", "geocode_address", "geocode_address_backup"} {
		mux.HandleFunc("POST /tools/"+tool, func(w http.ResponseWriter, r *http.Request) {
			var a toolArgs
			if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&a); err != nil {
				http.Error(w, "bad arguments: "+err.Error(), http.StatusBadRequest)
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), attemptTimeout)
			defer cancel()
			req, err := carrierRequest(ctx, base, tool, a)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			resp, err := client.Do(req)
			if err != nil {
				http.Error(w, "carrier request failed: "+err.Error(), http.StatusGatewayTimeout)
				return
			}
			defer resp.Body.Close()
			w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
			w.WriteHeader(resp.StatusCode)
			_, _ = io.Copy(w, io.LimitReader(resp.Body, 1<<16))
		})
	}
	return mux
}

// naiveAgent is the baseline: it calls each tool with the task as given and
// repeats any failed call up to retries times, the same call each time,
// without an idempotency key.
type naiveAgent struct {
	client  *http.Client
	base    string
	retries int
}

// run works through one task the way the toolerr agent does, minus the
// reading of errors.
func (a *naiveAgent) run(ctx context.Context, t task) taskResult {
	var res taskResult
	if _, ok := a.step(ctx, &res, "lookup_inventory", toolArgs{SKU: t.SKU}); !ok {
		return res
	}
	if _, ok := a.step(ctx, &res, "reserve_stock", toolArgs{Order: t.Order, SKU: t.SKU, Quantity: t.Quantity}); !ok {
		return res
	}
	if t.Address != "" {
		if _, ok := a.step(ctx, &res, "geocode_address", toolArgs{Order: t.Order, Address: t.Address}); !ok {
			return res
		}
	}
	out, ok := a.step(ctx, &res, "create_shipment_label", toolArgs{Order: t.Order, SKU: t.SKU, WeightKg: t.WeightKg, Service: t.Service})
	if !ok {
		return res
	}
	var label struct {
		LabelID string `json:"label_id"`
	}
	if json.Unmarshal(out, &label) != nil {
		res.Reason = "unreadable label"
		return res
	}
	if _, ok := a.step(ctx, &res, "notify_customer", toolArgs{Order: t.Order, Customer: t.Customer, LabelID: label.LabelID}); !ok {
		return res
	}
	res.Completed = true
	return res
}

// step calls tool until it answers below 400, at most 1+retries times.
func (a *naiveAgent) step(ctx context.Context, res *taskResult, tool string, args toolArgs) ([]byte, bool) {
	var last string
	for range 1 + a.retries {
		status, body, err := callTool(ctx, a.client, a.base, res, tool, args, "", "")
		if err == nil && status < 400 {
			return body, true
		}
		last = fmt.Sprintf("status %d", status)
	}
	res.Reason = tool + ": gave up after " + last
	return nil, false
}
