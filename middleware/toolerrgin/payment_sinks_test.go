package toolerrgin_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/github.com/gin-gonic/gin/otelgin"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/internal/spantext"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// payRoutes are gin routes that fail with payment data in every way a gin
// failure can carry it.
func payRoutes(r *gin.Engine) {
	charge := func(c *gin.Context) error {
		return fmt.Errorf("charging card %s failed: %w", leakprobe.Card, errors.New(leakprobe.PaymentTextNoCode+", cvc: 123"))
	}
	r.POST("/go_error", toolerrgin.Tool("charge", charge))
	r.POST("/c_error", func(c *gin.Context) { _ = c.Error(charge(c)) })
	r.POST("/abort_with_error", func(c *gin.Context) {
		_ = c.AbortWithError(http.StatusPaymentRequired, errors.New(leakprobe.PaymentText))
	})
	r.POST("/public_error", func(c *gin.Context) {
		c.AbortWithStatus(http.StatusPaymentRequired)
		_ = c.Error(errors.New("card declined: " + leakprobe.PaymentText)).SetType(gin.ErrorTypePublic)
	})
	r.POST("/panic", func(c *gin.Context) { panic("charging failed: " + leakprobe.PaymentTextNoCode) })
	r.POST("/details", toolerrgin.Tool("charge", func(c *gin.Context) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "card "+leakprobe.Card+" refused, cvc: 123").
			WithDetails(map[string]any{"card": 4242424242424242, "card_text": leakprobe.Card, "cvc": 123,
				"note": "cvc: 123", "iban": leakprobe.IBAN, "ssn": leakprobe.SSN}).
			WithSuggestedValue(json.Number("4242424242424242")).
			WithCause(errors.New(leakprobe.PaymentText))
	}))
	vendor := func(status int) gin.HandlerFunc {
		return func(c *gin.Context) {
			toolerr.RecordVendor(c.Request.Context(), "stripe")
			c.Header("Request-Id", "req_1")
			c.Data(status, "application/json", []byte(leakprobe.StripeDecline))
		}
	}
	r.POST("/vendor_402", vendor(http.StatusPaymentRequired))
	r.POST("/vendor_500", vendor(http.StatusInternalServerError))
	r.POST("/json_500", func(c *gin.Context) {
		c.JSON(http.StatusInternalServerError, gin.H{"error": leakprobe.PaymentText, "card": 4242424242424242, "cvc": 123})
	})
	r.POST("/string_502", func(c *gin.Context) { c.String(http.StatusBadGateway, leakprobe.PaymentText) })
	r.GET("/ok", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"order": "o-1", "amount": 1200}) })
}

// payRun serves payRoutes under mws and toolerrgin (logging to a real
// slog JSON handler, tracing to tp), calls every failing route in each
// rendering, asserts that no body or header holds payment data and that
// a success passes unchanged, and returns what the log holds.
func payRun(t *testing.T, tp *sdktrace.TracerProvider, mws ...gin.HandlerFunc) []byte {
	t.Helper()
	var logs leakprobe.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := serve(t, func(r *gin.Engine) {
		r.Use(mws...)
		r.Use(toolerrgin.Middleware(middleware.WithLogger(logger), middleware.WithTracerProvider(tp)))
		payRoutes(r)
	})
	paths := []string{"/go_error", "/c_error", "/abort_with_error", "/public_error", "/panic", "/details",
		"/vendor_402", "/vendor_500", "/json_500", "/string_502"}
	accepts := []string{"application/json", "text/markdown", "text/plain"}
	for _, path := range paths {
		for _, accept := range accepts {
			t.Run(strings.TrimPrefix(path, "/")+"/"+accept, func(t *testing.T) {
				resp, body := call(t, srv, http.MethodPost, path, `{"amount":1200}`, "Accept", accept)
				assert.GreaterOrEqual(t, resp.StatusCode, 400, "a failure stays a failure: %s", body)
				assert.NotEmpty(t, body)
				if accept == "application/json" {
					assert.NoError(t, toolerr.Validate(body), "a toolerr error: %s", body)
				}
				assert.Empty(t, leakprobe.FindPayment(body), "the body holds payment data: %s", body)
				hdr := leakprobe.HeaderText(resp.Header)
				assert.Empty(t, leakprobe.FindPayment([]byte(hdr)), "a header holds payment data: %s", hdr)
			})
		}
	}
	resp, body := call(t, srv, http.MethodGet, "/ok", "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"order":"o-1","amount":1200}`, string(body), "a success passes unchanged")

	written := logs.Bytes()
	for _, want := range []string{`"msg":"toolerr: tool call failed"`, `"cause":`, `"stack":`, "[card ending 4242]"} {
		assert.Contains(t, string(written), want, "the log has the record the test searches")
	}
	assert.Empty(t, leakprobe.FindPayment(written), "the log holds payment data: %s", written)
	return written
}

// TestPaymentDataReachesNoSink: under toolerrgin alone, with a real slog
// JSON handler and the OTel SDK, every gin route that fails with a card
// number, an IBAN, an SSN and a security code (a returned or c.Error'd Go
// error, c.AbortWithError, a public gin error, a panic, a toolerr error's
// detail and details, a Stripe decline, c.JSON and c.String error bodies)
// answers a toolerr error in each rendering, and none of the planted data
// is in the body, the headers, the log or toolerr's own toolerr.error
// spans; a success passes unchanged.
func TestPaymentDataReachesNoSink(t *testing.T) {
	tp, sr := spantext.NewRecorder(t)
	payRun(t, tp)
	spans := spantext.Of(sr.Ended())
	assert.Contains(t, spans, "exception.message=", "the 5xx errors record an exception event")
	assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
}

// TestPaymentDataUnderOtelgin: the same with otelgin before toolerrgin, as
// docs/mounting.md mounts it for trace ids. otelgin writes c.Errors.String() as
// the span's status description and records each of c.Errors as an
// exception event; the errors a Tool handler returns are in c.Errors
// (Tool adds them), so the span must hold none of their payment data.
func TestPaymentDataUnderOtelgin(t *testing.T) {
	docpage.Says(t, "../../docs/mounting.md",
		"with `otelgin` before it, `trace_id` is its span's, and the errors of `c.Errors` that gin's logger and otelgin record (the span's status and exception events) have their secrets and payment data redacted")
	tp, sr := spantext.NewRecorder(t)
	payRun(t, tp, otelgin.Middleware("payments", otelgin.WithTracerProvider(tp)))
	spans := spantext.Of(sr.Ended())
	assert.Contains(t, spans, "exception.message=", "the 5xx errors record an exception event")
	assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
}
