package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/translate"
)

// tools holds what the tool handlers share.
type tools struct {
	vendor string       // the vendor's base URL
	quotes *http.Client // on retrygate.Transport
	relay  *http.Client // plain: track_shipment relays what it gets
}

// searchOrdersSchema is search_orders' input schema.
const searchOrdersSchema = `{
  "type": "object", "additionalProperties": false, "required": ["customer"],
  "properties": {
    "customer": {"type": "string", "pattern": "^cus_[0-9]+$"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100}
  }
}`

// searchArgs are search_orders' arguments.
type searchArgs struct {
	Customer string `json:"customer"`
	Limit    int    `json:"limit,omitempty"`
}

// searchOrders checks its arguments: a call that breaks the schema is a
// validation error, the caller's mistake.
func (t tools) searchOrders(schema *argcheck.Schema) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		if _, err := argcheck.Decode[searchArgs](r, schema); err != nil {
			return err
		}
		return writeJSON(w, map[string]any{"orders": []any{}})
	}
}

// trackingArgs are track_shipment's and get_quote's arguments.
type trackingArgs struct {
	ID string `json:"id"`
}

// decodeID reads the id argument of track_shipment and get_quote.
func decodeID(r *http.Request) (string, error) {
	var args trackingArgs
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&args); err != nil || args.ID == "" {
		return "", toolerr.Default().New(toolerr.CodeValidationFailed, "id is required").WithField("/id")
	}
	return args.ID, nil
}

// trackShipment relays the carrier's answer as it is, error pages and
// vendor error bodies included: the middleware replaces a raw error
// response with a classified, sanitized one, and counts it in
// toolerr.upstream.unmapped when no translator maps it.
func (t tools) trackShipment(w http.ResponseWriter, r *http.Request) error {
	id, err := decodeID(r)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, t.vendor+"/v1/track/"+url.PathEscape(id), nil)
	if err != nil {
		return err
	}
	resp, err := t.relay.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	toolerr.RecordVendor(r.Context(), "carrier")
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	_, err = io.Copy(w, resp.Body)
	return err
}

// getQuote calls the vendor through retrygate, which retries what is
// retryable within its budget and sheds a failing host with its breaker,
// and returns the vendor's failure as translate.Response classifies it.
func (t tools) getQuote(w http.ResponseWriter, r *http.Request) error {
	id, err := decodeID(r)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, t.vendor+"/v1/quotes/"+url.PathEscape(id), nil)
	if err != nil {
		return err
	}
	resp, err := t.quotes.Do(req)
	if err != nil {
		return err // CIRCUIT_OPEN, RETRY_BUDGET_EXHAUSTED, a refused connection…
	}
	defer resp.Body.Close()
	if err := translate.Response(resp); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = io.Copy(w, resp.Body)
	return err
}

// createLabel stands for a paid mutation: the idempotency middleware in
// front of it runs it once per key.
func createLabel(w http.ResponseWriter, r *http.Request) error {
	return created(w, r, "lbl")
}

// bookPickup is another mutation, its keys kept in Redis.
func bookPickup(w http.ResponseWriter, r *http.Request) error {
	return created(w, r, "pck")
}

// created answers 201 with an id derived from the request body.
func created(w http.ResponseWriter, r *http.Request, prefix string) error {
	h := fnv.New64a()
	if _, err := io.Copy(h, io.LimitReader(r.Body, 1<<16)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusCreated)
	return writeJSON(w, map[string]string{"id": fmt.Sprintf("%s_%x", prefix, h.Sum64())})
}

// writeJSON writes v as the JSON body of the response.
func writeJSON(w http.ResponseWriter, v any) error {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	return json.NewEncoder(w).Encode(v)
}
