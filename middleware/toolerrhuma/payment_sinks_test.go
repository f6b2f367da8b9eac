package toolerrhuma_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/internal/spantext"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
	"github.com/toolerr/toolerr/translate"
)

// payInput is a charge: huma validates its body before the handler runs.
type payInput struct {
	Kind string `path:"kind"`
	Body struct {
		Amount int    `json:"amount" minimum:"1" maximum:"100000"`
		Last4  string `json:"last4,omitempty" pattern:"^[0-9]{4}$" doc:"The card's last four digits"`
		Note   string `json:"note,omitempty" maxLength:"8"`
		Number int64  `json:"number,omitempty" maximum:"9999"`
		Holder string `json:"holder,omitempty"`
		Months int    `json:"months,omitempty" minimum:"1" maximum:"12" doc:"How many instalments; more than 12 are capped to 12"`
	}
}

type payOutput struct {
	Body struct {
		Order  string `json:"order"`
		Amount int    `json:"amount"`
	}
}

// registerPay registers the charge operation; its kind says how it fails.
// stripe is the URL of a Stripe-like server.
func registerPay(api huma.API, stripe string) {
	huma.Register(api, huma.Operation{OperationID: "charge", Method: http.MethodPost, Path: "/pay/{kind}"},
		func(ctx context.Context, in *payInput) (*payOutput, error) {
			switch in.Kind {
			case "bad_request":
				return nil, huma.Error400BadRequest("card " + leakprobe.Card + " declined; " + leakprobe.PaymentText)
			case "unprocessable":
				return nil, huma.Error422UnprocessableEntity("card declined: "+leakprobe.PaymentText,
					&huma.ErrorDetail{Location: "body.card", Value: "4242424242424242", Message: "card " + leakprobe.Card + " is declined, cvc: 123"},
					&huma.ErrorDetail{Location: "body.iban", Value: leakprobe.IBAN, Message: leakprobe.SSN + " does not hold " + leakprobe.IBAN})
			case "internal":
				return nil, huma.Error500InternalServerError(leakprobe.PaymentText, errors.New(leakprobe.PaymentText))
			case "go_error":
				return nil, fmt.Errorf("charging card %s failed: %w", leakprobe.Card, errors.New(leakprobe.PaymentTextNoCode+", cvc: 123"))
			case "details":
				return nil, toolerr.Default().New(toolerr.CodeValidationFailed, "card "+leakprobe.Card+" refused, cvc: 123").
					WithDetails(map[string]any{"card": 4242424242424242, "card_text": leakprobe.Card, "cvc": 123,
						"note": "cvc: 123", "iban": leakprobe.IBAN, "ssn": leakprobe.SSN}).
					WithSuggestedValue(json.Number("4242424242424242")).
					WithCause(errors.New(leakprobe.PaymentText))
			case "panic":
				panic("charging failed: " + leakprobe.PaymentTextNoCode + ", cvc: 123")
			case "vendor":
				toolerr.RecordVendor(ctx, "stripe")
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, stripe+"/v1/charges", nil)
				if err != nil {
					return nil, err
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return nil, err
				}
				defer resp.Body.Close()
				return nil, fmt.Errorf("stripe: %w", translate.Response(resp))
			}
			out := &payOutput{}
			out.Body.Order, out.Body.Amount = "o-1", in.Body.Amount
			return out, nil
		})
}

// payCalls are the failing calls: the handler's failures with a valid
// body, then bodies huma's validation rejects with the card, the IBAN,
// the SSN or the security code as the rejected value, or beside it.
var payCalls = []struct{ name, path, body string }{
	{"bad_request", "/pay/bad_request", `{"amount":1200}`},
	{"unprocessable", "/pay/unprocessable", `{"amount":1200}`},
	{"internal", "/pay/internal", `{"amount":1200}`},
	{"go_error", "/pay/go_error", `{"amount":1200}`},
	{"details", "/pay/details", `{"amount":1200}`},
	{"panic", "/pay/panic", `{"amount":1200}`},
	{"vendor", "/pay/vendor", `{"amount":1200}`},
	{"pattern contiguous", "/pay/ok", `{"amount":1200,"last4":"4242424242424242"}`},
	{"pattern grouped", "/pay/ok", `{"amount":1200,"last4":"4242 4242 4242 4242"}`},
	{"maxLength", "/pay/ok", `{"amount":1200,"note":"` + leakprobe.PaymentText + `"}`},
	{"maximum", "/pay/ok", `{"amount":1200,"number":4242424242424242}`},
	{"type", "/pay/ok", `{"amount":"` + leakprobe.PaymentText + `"}`},
	{"rejected beside", "/pay/ok", `{"amount":0,"holder":"` + leakprobe.PaymentText + `"}`},
	{"repair beside the data", "/pay/ok", `{"amount":1200,"months":24,"holder":"` + leakprobe.PaymentText + `"}`},
	{"unknown property", "/pay/ok", `{"amount":1200,"months":24,"holder":"` + leakprobe.PaymentText + `","cvc":123,"card":4242424242424242}`},
	{"malformed", "/pay/ok", `{"amount":1200,"holder":"` + leakprobe.PaymentText + `",`},
}

// payAPI serves registerPay on m's router: with the toolerr middleware
// (logging to logger, tracing to tp) and Install when ours, else huma
// alone; otelhttp around either.
func payAPI(t *testing.T, m mount, ours bool, logger *slog.Logger, tp *sdktrace.TracerProvider, stripe string) string {
	t.Helper()
	cfg := huma.DefaultConfig("Payments", "1.0.0")
	mw := middleware.New(middleware.WithLogger(logger), middleware.WithTracerProvider(tp))
	var api huma.API
	var h http.Handler
	switch m.name {
	case "humachi":
		r := chi.NewMux()
		if ours {
			r.Use(mw)
		}
		api, h = humachi.New(r, cfg), r
	default:
		mux := http.NewServeMux()
		api, h = humago.New(mux, cfg), mux
		if ours {
			h = mw(mux)
		}
	}
	if ours {
		api = toolerrhuma.Install(api)
	}
	registerPay(api, stripe)
	srv := httptest.NewServer(otelhttp.NewHandler(h, "payments", otelhttp.WithTracerProvider(tp)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestPaymentDataReachesNoSink: a huma API on humachi and on humago, with
// the toolerr middleware on the router and toolerrhuma.Install, otelhttp
// around, a real slog JSON handler and the OTel SDK. Every failure that
// holds a card number, an IBAN, an SSN and a security code
// (huma.Error400BadRequest, huma.Error422UnprocessableEntity with the
// card as an ErrorDetail's value, huma.Error500InternalServerError, a Go
// error, a toolerr error's detail and details, a panic, a relayed Stripe
// decline, and bodies huma's own validation rejects with the data as the
// rejected value or beside it) answers a toolerr error in each rendering,
// and none of the planted data is in the body, the headers, the log or the
// spans; a success is byte for byte huma's own.
func TestPaymentDataReachesNoSink(t *testing.T) {
	stripe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_1")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = w.Write([]byte(leakprobe.StripeDecline))
	}))
	t.Cleanup(stripe.Close)
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			var logs leakprobe.Buffer
			logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			sr := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			url := payAPI(t, m, true, logger, tp, stripe.URL)
			for _, c := range payCalls {
				for _, accept := range []string{"application/json", "text/markdown", "text/plain"} {
					t.Run(c.name+"/"+accept, func(t *testing.T) {
						resp, body := call(t, http.MethodPost, url+c.path, c.body, "Accept", accept)
						assert.GreaterOrEqual(t, resp.StatusCode, 400, "a failure stays a failure: %s", body)
						if accept == "application/json" {
							assert.NoError(t, toolerr.Validate(body), "a toolerr error: %s", body)
						}
						assert.Empty(t, leakprobe.FindPayment(body), "the body holds payment data: %s", body)
						hdr := leakprobe.HeaderText(resp.Header)
						assert.Empty(t, leakprobe.FindPayment([]byte(hdr)), "a header holds payment data: %s", hdr)
					})
				}
			}
			payUnchanged(t, m, url)

			written := logs.Bytes()
			for _, want := range []string{`"msg":"toolerr: tool call failed"`, `"cause":`, `"stack":`, "[card ending 4242]"} {
				assert.Contains(t, string(written), want, "the log has the records the test searches")
			}
			assert.Empty(t, leakprobe.FindPayment(written), "the log holds payment data: %s", written)
			spans := spantext.Of(sr.Ended())
			assert.Contains(t, spans, "exception.message=", "the 5xx errors record an exception event")
			assert.Contains(t, spans, "toolerr.code=")
			assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
		})
	}
}

// TestPaymentDataWithoutMiddleware: the same API with Install but no
// toolerr middleware, where huma renders the errors itself (sanitized, the
// package says): no planted data in the body or the headers. A panic is
// left out: without the middleware nothing recovers it.
func TestPaymentDataWithoutMiddleware(t *testing.T) {
	stripe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = w.Write([]byte(leakprobe.StripeDecline))
	}))
	t.Cleanup(stripe.Close)
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			url := payAPIWithout(t, m, stripe.URL)
			for _, c := range payCalls {
				if c.name == "panic" {
					continue
				}
				t.Run(c.name, func(t *testing.T) {
					resp, body := call(t, http.MethodPost, url+c.path, c.body)
					assert.GreaterOrEqual(t, resp.StatusCode, 400, "a failure stays a failure: %s", body)
					assert.NoError(t, toolerr.Validate(body), "a toolerr error: %s", body)
					assert.Empty(t, leakprobe.FindPayment(body), "the body holds payment data: %s", body)
					hdr := leakprobe.HeaderText(resp.Header)
					assert.Empty(t, leakprobe.FindPayment([]byte(hdr)), "a header holds payment data: %s", hdr)
				})
			}
		})
	}
}

// payAPIWithout serves registerPay on m's router with Install and no
// toolerr middleware.
func payAPIWithout(t *testing.T, m mount, stripe string) string {
	t.Helper()
	api, h := m.new(huma.DefaultConfig("Payments", "1.0.0"), false)
	registerPay(toolerrhuma.Install(api), stripe)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// payUnchanged asserts that a success under toolerr is huma's own: the
// status, the headers huma sets and the body of the same call to the API
// served by huma alone.
func payUnchanged(t *testing.T, m mount, url string) {
	t.Helper()
	plain := payAPI(t, m, false, slog.New(slog.DiscardHandler), sdktrace.NewTracerProvider(), "")
	const body = `{"amount":1200,"last4":"4242","note":"gift","number":12}`
	want, wantBody := call(t, http.MethodPost, plain+"/pay/ok", body, "Host", "tools.example")
	got, gotBody := call(t, http.MethodPost, url+"/pay/ok", body, "Host", "tools.example")
	require.Equal(t, http.StatusOK, got.StatusCode, "%s", gotBody)
	assert.Equal(t, want.StatusCode, got.StatusCode)
	assert.Equal(t, string(wantBody), string(gotBody), "a success passes unchanged")
	assert.Contains(t, string(gotBody), `"order":"o-1","amount":1200`)
	for _, h := range []string{"Content-Type", "Link", "Content-Length"} {
		assert.Equal(t, want.Header.Get(h), got.Header.Get(h), h)
	}
}
