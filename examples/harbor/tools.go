package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/retrygate"
	"github.com/toolerr/toolerr/translate"
)

// codeLabelExists is the tool's own code for the carrier's DUPLICATE_LABEL.
const codeLabelExists = "LABEL_EXISTS"

// toolDeadline bounds one tool call, carrier retries included.
const toolDeadline = 5 * time.Second

// toolArgs holds the arguments of any of the four tools.
type toolArgs struct {
	SKU      string  `json:"sku,omitempty"`
	Order    string  `json:"order_id,omitempty"`
	Quantity int     `json:"quantity,omitempty"`
	WeightKg float64 `json:"weight_kg,omitempty"`
	Service  string  `json:"service,omitempty"`
	Customer string  `json:"customer,omitempty"`
	LabelID  string  `json:"label_id,omitempty"`
	Address  string  `json:"address,omitempty"`
}

// carrierRequest builds the carrier call behind one tool call. Both tool
// sets use it, so they differ only in what they do around the call.
func carrierRequest(ctx context.Context, base, tool string, a toolArgs) (*http.Request, error) {
	var method, path string
	var body any
	switch tool {
	case "lookup_inventory":
		method, path = http.MethodGet, "/v1/inventory/"+url.PathEscape(a.SKU)
	case "reserve_stock":
		method, path = http.MethodPut, "/v1/reservations/"+url.PathEscape(a.Order)
		body = map[string]any{"sku": a.SKU, "quantity": a.Quantity}
	case "create_shipment_label":
		method, path = http.MethodPost, "/v1/labels"
		body = map[string]any{"order_id": a.Order, "sku": a.SKU, "weight_kg": a.WeightKg, "service": a.Service}
	case "notify_customer":
		method, path = http.MethodPost, "/v1/notifications"
		body = map[string]any{"order_id": a.Order, "customer": a.Customer, "label_id": a.LabelID}
	case "geocode_address":
		method, path = http.MethodPost, "/v1/geocode"
		body = map[string]any{"order_id": a.Order, "address": a.Address}
	case "geocode_address_backup":
		method, path = http.MethodPost, "/v2/geocode"
		body = map[string]any{"order_id": a.Order, "address": a.Address}
	default:
		return nil, fmt.Errorf("unknown tool %q", tool)
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// carrierTranslator reads the carrier's JSON error bodies, recognised by the
// carrier's request id header.
func carrierTranslator() translate.Translator {
	return &translate.Vendor{
		Name: "carrier",
		Recognize: func(r *translate.Raw) bool {
			return r.IsJSON() && r.Header.Get("X-Carrier-Request-Id") != ""
		},
		Parse: func(r *translate.Raw) (classify.Outcome, bool) {
			var b struct{ Code, Message, Field string }
			if json.Unmarshal(r.Body, &b) != nil || b.Code == "" {
				return classify.Outcome{}, false
			}
			return classify.Outcome{VendorCode: b.Code, Message: b.Message, Field: b.Field,
				RequestID: r.Header.Get("X-Carrier-Request-Id")}, true
		},
		CodeTable: map[string]string{
			"DUPLICATE_LABEL": codeLabelExists,
			"INVALID_WEIGHT":  toolerr.CodeValidationFailed,
			"RATE_LIMITED":    toolerr.CodeRateLimited,
			// A customer who opted out is not notified, whoever asks.
			"RECIPIENT_OPTED_OUT": toolerr.CodePolicyBlocked,
		},
	}
}

// toolServer holds the toolerr tool set: a carrier client that retries
// through retrygate and translates every carrier failure.
type toolServer struct {
	base    string
	client  *http.Client
	set     *translate.Set
	reg     *toolerr.Registry
	schemas map[string]*argcheck.Schema
}

// newToolerrHandler returns the four tools behind middleware.New, with
// idempotency on create_shipment_label. The carrier client retries through
// retrygate on base, with clock in place of real waits and attemptTimeout
// per attempt.
func newToolerrHandler(base string, rt http.RoundTripper, clock retrygate.Clock, attemptTimeout time.Duration) (http.Handler, error) {
	reg := toolerr.NewRegistry(toolerr.Default())
	if err := reg.Register(toolerr.Def{
		Code: codeLabelExists, Category: toolerr.CategoryConflict, Status: http.StatusConflict,
		Title:     "The order already has a shipping label",
		Hint:      "Do not create another label: use details.label_id and continue.",
		HumanHint: "This order already has a shipping label.",
	}); err != nil {
		return nil, err
	}
	san := sanitize.New()
	cl := classify.New(reg, classify.WithMessageFilter(san.CleanText))
	set, err := translate.NewSet(cl, translate.WithTranslators(carrierTranslator()))
	if err != nil {
		return nil, err
	}
	policy := retrygate.DefaultPolicy()
	policy.Clock = clock
	policy.RandomizationFactor = 0 // deterministic waits, simulated anyway
	schemas, err := compileSchemas(reg)
	if err != nil {
		return nil, err
	}
	s := &toolServer{base: base, set: set, reg: reg, schemas: schemas, client: &http.Client{Transport: retrygate.Transport(rt,
		retrygate.WithPolicy(policy), retrygate.WithTranslateSet(set),
		retrygate.WithAttemptTimeout(attemptTimeout),
		retrygate.WithoutBreaker(), // one scripted outage must not open the circuit for the other tasks
		retrygate.WithoutBudget(),  // tasks run concurrently: a shared budget would make the table depend on timing
		retrygate.WithoutHandoff(), // and so would the per-host handoff mark, which one task's outage sets for all
	)}}
	quiet := slog.New(slog.DiscardHandler)
	idem := idempotency.Middleware(idempotency.NewMemoryStore(), idempotency.WithRegistry(reg), idempotency.WithLogger(quiet))
	mux := http.NewServeMux()
	mux.Handle("POST /tools/lookup_inventory", middleware.Tool("lookup_inventory", s.lookupInventory))
	mux.Handle("POST /tools/reserve_stock", middleware.Tool("reserve_stock", s.reserveStock))
	mux.Handle("POST /tools/create_shipment_label", idem(middleware.Tool("create_shipment_label", s.createLabel)))
	mux.Handle("POST /tools/notify_customer", middleware.Tool("notify_customer", s.notifyCustomer))
	mux.Handle("POST /tools/geocode_address", middleware.Tool("geocode_address", s.geocoder("geocode_address")))
	mux.Handle("POST /tools/geocode_address_backup", middleware.Tool("geocode_address_backup", s.geocoder("geocode_address_backup")))
	// The identical call that keeps failing the same way is not run again
	// (REPEATED_FAILURE), for any agent: the tools are shared.
	thrash := idempotency.ThrashGuard(idempotency.NewMemoryStore(), idempotency.WithRegistry(reg), idempotency.WithLogger(quiet))
	return middleware.New(middleware.WithRegistry(reg), middleware.WithClassifier(cl),
		middleware.WithTranslator(set), middleware.WithSanitizer(san), middleware.WithLogger(quiet),
		// The backup geocoder, offered when the primary is down, slow or
		// rate limited: it only reads.
		middleware.WithFallbacks("geocode_address", toolerr.Fallback{Tool: "geocode_address_backup",
			On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryRateLimit, toolerr.CategoryUpstream}}),
	)(thrash(mux)), nil
}

// decode reads a tool call's arguments and checks them against the tool's
// schema: a violation is VALIDATION_FAILED with every violation and, where
// one follows from the schema, its repair.
func (s *toolServer) decode(r *http.Request, tool string) (toolArgs, error) {
	return argcheck.Decode[toolArgs](r, s.schemas[tool])
}

// call sends a tool's carrier request through the retrying client. The
// caller closes the response body.
func (s *toolServer) call(r *http.Request, tool string, a toolArgs) (*http.Response, error) {
	toolerr.RecordVendor(r.Context(), "carrier")
	req, err := carrierRequest(r.Context(), s.base, tool, a)
	if err != nil {
		return nil, err
	}
	if key := r.Header.Get("Idempotency-Key"); key != "" {
		req.Header.Set("Idempotency-Key", key) // the carrier replays, and retrygate may retry the POST
	}
	return s.client.Do(req)
}

// relay answers the agent with a successful carrier response.
func relay(w http.ResponseWriter, resp *http.Response) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.StatusCode)
	_, err := io.Copy(w, io.LimitReader(resp.Body, 1<<16))
	return err
}

// lookupInventory answers the stock of a SKU; for an unknown SKU it suggests
// the catalog's spelling when there is exactly one.
func (s *toolServer) lookupInventory(w http.ResponseWriter, r *http.Request) error {
	a, err := s.decode(r, "lookup_inventory")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), toolDeadline)
	defer cancel()
	r = r.WithContext(ctx)
	resp, err := s.call(r, "lookup_inventory", a)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := s.set.Response(resp); err != nil {
		if e, ok := toolerr.From(err); ok && e.Category == toolerr.CategoryNotFound {
			return s.suggestSKU(r, a.SKU, e)
		}
		return err
	}
	return relay(w, resp)
}

// suggestSKU searches the catalog for sku and adds the match to e as a
// suggested value, or marks e for a person when nothing matches.
func (s *toolServer) suggestSKU(r *http.Request, sku string, e *toolerr.Error) error {
	e = e.WithField("sku")
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, s.base+"/v1/catalog?q="+url.QueryEscape(sku), nil)
	if err != nil {
		return e
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return e
	}
	defer resp.Body.Close()
	var found struct{ SKUs []string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&found) != nil {
		return e
	}
	if len(found.SKUs) == 1 {
		return e.WithSuggestedValue(found.SKUs[0]).
			WithHint(fmt.Sprintf("The catalog spells this SKU %s: call again with sku set to it.", found.SKUs[0]))
	}
	return e.WithActions(toolerr.ActionHumanRequired).
		WithHint("No SKU in the catalog matches: ask the user which product to ship.")
}

// reserveStock holds stock for an order. The carrier's PUT is idempotent,
// so retrygate retries its 503s.
func (s *toolServer) reserveStock(w http.ResponseWriter, r *http.Request) error {
	a, err := s.decode(r, "reserve_stock")
	if err != nil {
		return err
	}
	return s.forward(w, r, "reserve_stock", a, nil)
}

// labelIDPattern is the shape of a carrier label id the tool passes on.
var labelIDPattern = regexp.MustCompile(`^lbl_[A-Za-z0-9_-]{1,64}$`)

// createLabel buys a shipping label. Its schema checks the arguments'
// shape; the weight's carrier rules are checked here, so the agent learns
// the allowed range and, where rounding up fixes it, the value to use.
func (s *toolServer) createLabel(w http.ResponseWriter, r *http.Request) error {
	a, err := s.decode(r, "create_shipment_label")
	if err != nil {
		return err
	}
	if !validWeight(a.WeightKg) {
		e := s.reg.New(toolerr.CodeValidationFailed,
			fmt.Sprintf("weight_kg must be between 0.1 and %g in steps of 0.1; got %g.", maxWeightKg, a.WeightKg)).
			WithField("weight_kg").WithAllowedValues(toolerr.Range{Minimum: 0.1, Maximum: maxWeightKg})
		if up := math.Ceil(math.Round(a.WeightKg*1000)/100) / 10; a.WeightKg > 0 && up <= maxWeightKg {
			return e.WithSuggestedValue(up).WithHint("Round the weight up to the next 0.1 kg and call again.")
		}
		return e.WithActions(toolerr.ActionHumanRequired).
			WithHint("The parcel is outside what the carrier ships: ask the user (freight booking, or split the parcel).")
	}
	return s.forward(w, r, "create_shipment_label", a, existingLabel)
}

// existingLabel adds the id of the label the carrier already has to a
// LABEL_EXISTS error, so the agent can adopt it instead of buying another.
func existingLabel(err error, resp *http.Response) error {
	e, ok := toolerr.From(err)
	if !ok || e.Code != codeLabelExists {
		return err
	}
	var dup struct {
		LabelID string `json:"label_id"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&dup) == nil && labelIDPattern.MatchString(dup.LabelID) {
		return e.WithDetails(map[string]any{"label_id": dup.LabelID})
	}
	return err
}

// forward sends a tool's carrier request within the tool's deadline and
// relays a success. A failure comes back as the classified error, which
// refine (when set) may complete from the carrier's response.
func (s *toolServer) forward(w http.ResponseWriter, r *http.Request, tool string, a toolArgs, refine func(error, *http.Response) error) error {
	ctx, cancel := context.WithTimeout(r.Context(), toolDeadline)
	defer cancel()
	resp, err := s.call(r.WithContext(ctx), tool, a)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := s.set.Response(resp); err != nil {
		if refine != nil {
			return refine(err, resp)
		}
		return err
	}
	return relay(w, resp)
}

// geocoder returns the handler of a geocoding tool: the primary or the
// backup geocoder, same arguments.
func (s *toolServer) geocoder(tool string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		a, err := s.decode(r, tool)
		if err != nil {
			return err
		}
		return s.forward(w, r, tool, a, nil)
	}
}

// notifyCustomer sends the customer the tracking details of a label.
func (s *toolServer) notifyCustomer(w http.ResponseWriter, r *http.Request) error {
	a, err := s.decode(r, "notify_customer")
	if err != nil {
		return err
	}
	return s.forward(w, r, "notify_customer", a, nil)
}
