package middleware

import (
	"encoding/binary"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/toolerr/toolerr"
)

// What an attacker would plant, and the fragments of it that must never be
// seen outside: in a body, a header, a log record or a span.
const (
	leakStripe  = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	leakGitHub  = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"
	leakHost    = "db-1.prod.internal"
	leakIP      = "10.1.2.3"
	leakPlanted = "token " + leakGitHub + " key " + leakStripe + " host " + leakHost + " ip " + leakIP
)

var (
	secretMarkers = []string{"4eC39HqLyjWD", "R4nd0mT0ken", "4 e C 3 9", "hunter2secret"}
	leakMarkers   = append([]string{"prod.internal", "p r o d", leakIP}, secretMarkers...)
)

// benign identifiers that must come out as they went in.
var benign = map[string]any{
	"order_id":        "ord_8f3a2b91",
	"uuid":            "3fa85f64-5717-4562-b3fc-2c963f66afa6",
	"commit":          "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
	"docs":            "https://stripe.com/docs/error-codes/card-declined",
	"idempotency_key": "8e2b7c1d-idem-2026-11-24",
	"request":         "req_9Xy7Zq2LmN",
}

// dirtyToolError is a handler-built error with the planted text in every
// member a handler can set.
func dirtyToolError() *toolerr.Error {
	e := toolerr.Default().New(toolerr.CodeValidationFailed, "amount is wrong: "+leakPlanted)
	e = e.WithField("/to/" + leakStripe).
		WithAllowedValues([]any{"a", leakPlanted, map[string]any{"nested": leakPlanted}}).
		WithSuggestedValue(map[string]any{"url": "postgres://admin:hunter2secret@" + leakHost + "/db"}).
		WithHint("Use " + leakStripe).WithHumanHint("Call " + leakHost).
		WithSuggestions("try " + leakGitHub).
		WithDetails(map[string]any{"deep": map[string]any{"list": []any{leakPlanted, 3}}, leakStripe: "key as a key"}).
		WithDetails(benign).
		WithExampleRequest(map[string]any{"token": leakGitHub, "to": leakIP}).
		WithViolations(toolerr.Violation{Field: "/to/" + leakStripe, Reason: "must not be " + leakPlanted,
			AllowedValues: []any{leakHost}, SuggestedValue: leakGitHub}).
		WithIntent(toolerr.Intent{Operation: "pay " + leakStripe, ResourceID: leakGitHub, State: leakHost, Recovery: "GET http://" + leakIP + "/x"}).
		WithTool("pay_" + leakStripe).
		WithUpstream(toolerr.Upstream{Vendor: "stripe", Status: 402, Code: leakStripe, RequestID: "req_" + leakStripe}).
		WithItems(toolerr.ItemError{Index: 1, Err: toolerr.Default().New(toolerr.CodeNotFound, leakPlanted).
			WithHint(leakStripe).WithDetails(map[string]any{"k": leakPlanted})})
	e.RequestID = leakStripe
	e.TraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	return e
}

// utf16LE encodes s as UTF-16 little-endian with a byte-order mark.
func utf16LE(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// TestNothingSecretLeavesOnAnyPath drives every way an error can leave a
// service mounted as users mount it (otelhttp outermost with the real SDK,
// then toolerr, then chi with its own middleware), and checks the body,
// every response header, every log record and every span attribute and
// event for the planted secrets and internal addresses.
func TestNothingSecretLeavesOnAnyPath(t *testing.T) {
	dirtyBody := string(dirtyToolError().WithRequestID("downstream-req-77").AppendJSON(nil))
	stripeBody := `{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined. ` + leakPlanted + `"}}`
	routes := map[string]http.HandlerFunc{
		"/tool": Tool("pay", func(http.ResponseWriter, *http.Request) error {
			return fmt.Errorf("wrapped: %w", dirtyToolError())
		}).ServeHTTP,
		"/write": func(w http.ResponseWriter, r *http.Request) {
			toolerr.Write(w, r, dirtyToolError())
		},
		"/write-after-200": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("partial "))
			toolerr.Write(w, r, dirtyToolError())
		},
		"/relay": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.Header().Set("X-Request-Id", "downstream-req-77")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(dirtyBody))
		},
		"/vendor": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Request-Id", "req_"+leakStripe)
			w.Header().Set("Stripe-Version", "2024-06-20")
			w.WriteHeader(http.StatusPaymentRequired)
			_, _ = w.Write([]byte(stripeBody))
		},
		"/utf16": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-16")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write(utf16LE("upstream failed: " + leakPlanted))
		},
		"/panic": func(http.ResponseWriter, *http.Request) {
			panic("boom " + leakPlanted)
		},
	}
	rig := newOtelRig(t)
	logger, sink := newLogger()
	r := chi.NewRouter()
	r.Use(chimw.CleanPath)
	for path, h := range routes {
		r.Handle(path, h)
	}
	app := New(append(rig.options(), WithLogger(logger))...)(r)
	url := newServer(t, otelhttp.NewHandler(app, "tool", otelhttp.WithTracerProvider(rig.tp), otelhttp.WithMeterProvider(rig.mp)))

	// What the agent gets is cleaned whole; logs and spans are for the
	// operator, and keep internal hosts and stack frames, but no secret.
	assertClean := func(t *testing.T, where, text string) {
		t.Helper()
		for _, m := range leakMarkers {
			assert.NotContains(t, text, m, "%s", where)
		}
	}
	assertNoSecret := func(t *testing.T, where, text string) {
		t.Helper()
		for _, m := range secretMarkers {
			assert.NotContains(t, text, m, "%s", where)
		}
	}
	for path := range routes {
		t.Run(path, func(t *testing.T) {
			resp, body := do(t, http.MethodPost, url+path, nil, "")
			assertClean(t, "body", string(body))
			for k, vs := range resp.Header {
				assertClean(t, "header "+k, strings.Join(vs, ","))
			}
			ours := resp.Header.Get("X-Request-Id")
			require.True(t, toolerr.ValidRequestID(ours))
			assert.NotEqual(t, "downstream-req-77", ours, "a downstream's id is not ours")
			if path == "/write-after-200" {
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				return
			}
			p := problem(t, body)
			assert.Equal(t, ours, p["request_id"], "the request's id is the only one in the body")
			if path == "/tool" || path == "/write" || path == "/relay" {
				details, _ := p["details"].(map[string]any)
				for k, v := range benign {
					assert.Equal(t, v, details[k], "benign %s survives", k)
				}
			}
			if path == "/relay" {
				up, _ := p["upstream"].(map[string]any)
				require.NotNil(t, up, "the relayed error keeps an upstream")
			}
		})
	}
	require.Eventually(t, func() bool { return len(rig.spans.Ended()) >= len(routes) }, testWait, testTick)
	for _, s := range rig.spans.Ended() {
		for _, kv := range s.Attributes() {
			assertNoSecret(t, "span attribute "+string(kv.Key), kv.Value.String())
		}
		for _, ev := range s.Events() {
			for _, kv := range ev.Attributes {
				assertNoSecret(t, "span event "+ev.Name+" "+string(kv.Key), kv.Value.String())
			}
		}
	}
	sink.mu.Lock()
	records := len(sink.records)
	sink.mu.Unlock()
	// One record per error; the error written after a 200 went out as
	// the handler wrote it, and nothing saw it fail.
	require.GreaterOrEqual(t, records, len(routes)-1)
	for _, rec := range sink.failures() {
		for k, v := range rec {
			if k == "stack" || k == "cause" {
				assertNoSecret(t, "log "+k, v)
				continue
			}
			assertClean(t, "log "+k, v)
		}
	}
	for _, rec := range sink.byMessage("toolerr: downstream failure not mapped; update the translator") {
		for k, v := range rec {
			assertClean(t, "log "+k, v)
		}
	}
}

// TestRelayedRequestIDBecomesUpstream: a toolerr body relayed from a
// downstream toolerr service keeps the downstream's id, as the upstream's.
func TestRelayedRequestIDBecomesUpstream(t *testing.T) {
	down := toolerr.Default().New(toolerr.CodeNotFound, "no such order").WithRequestID("down-42").AppendJSON(nil)
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "down-42")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write(down)
	}))
	resp, body := do(t, http.MethodGet, url, http.Header{"X-Request-Id": {"mine-1"}}, "")
	p := problem(t, body)
	assert.Equal(t, "mine-1", resp.Header.Get("X-Request-Id"))
	assert.Equal(t, "mine-1", p["request_id"])
	up := p["upstream"].(map[string]any)
	assert.Equal(t, "down-42", up["request_id"])
	assert.Equal(t, "no such order", p["detail"])
}

// TestVendorRequestIDIsSanitizedAndValidated: a vendor's request id header
// reaches upstream.request_id only when it is clean and a valid id.
func TestVendorRequestIDIsSanitizedAndValidated(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"req_9Xy7Zq2LmN", "req_9Xy7Zq2LmN"},
		{"req_" + leakStripe, ""},
		{leakStripe, ""},
		{"req bad id", ""},
	} {
		url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.RecordVendor(r.Context(), "stripe") // the handler relays Stripe's answer
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Request-Id", tc.header)
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many requests"}}`))
		}))
		_, body := do(t, http.MethodGet, url, nil, "")
		p := problem(t, body)
		up, _ := p["upstream"].(map[string]any)
		require.NotNil(t, up, "%s", body)
		if tc.want == "" {
			assert.NotContains(t, up, "request_id", "header %q", tc.header)
		} else {
			assert.Equal(t, tc.want, up["request_id"])
		}
		assert.NotContains(t, string(body), "4eC39HqLyjWD")
	}
}
