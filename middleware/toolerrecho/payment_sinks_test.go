package toolerrecho_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/github.com/labstack/echo/otelecho"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/internal/spantext"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrecho"
)

// payRoutes are echo routes that fail with payment data in every way an
// echo failure can carry it.
func payRoutes(e *echo.Echo) {
	e.POST("/go_error", func(c echo.Context) error {
		return fmt.Errorf("charging card %s failed: %w", leakprobe.Card, errors.New(leakprobe.PaymentTextNoCode+", cvc: 123"))
	})
	e.POST("/http_error_402", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusPaymentRequired, "card "+leakprobe.Card+" declined; "+leakprobe.PaymentText)
	})
	e.POST("/http_error_internal", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusBadRequest, "card declined").SetInternal(errors.New(leakprobe.PaymentText))
	})
	e.POST("/http_error_500", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusInternalServerError, map[string]any{"card": 4242424242424242, "msg": leakprobe.PaymentText})
	})
	e.POST("/panic", func(c echo.Context) error { panic("charging failed: " + leakprobe.PaymentTextNoCode) })
	e.POST("/details", func(c echo.Context) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "card "+leakprobe.Card+" refused, cvc: 123").
			WithDetails(map[string]any{"card": 4242424242424242, "card_text": leakprobe.Card, "cvc": 123,
				"note": "cvc: 123", "iban": leakprobe.IBAN, "ssn": leakprobe.SSN}).
			WithSuggestedValue(json.Number("4242424242424242")).
			WithCause(errors.New(leakprobe.PaymentText))
	})
	vendor := func(status int) echo.HandlerFunc {
		return func(c echo.Context) error {
			toolerr.RecordVendor(c.Request().Context(), "stripe")
			c.Response().Header().Set("Request-Id", "req_1")
			return c.Blob(status, "application/json", []byte(leakprobe.StripeDecline))
		}
	}
	e.POST("/vendor_402", vendor(http.StatusPaymentRequired))
	e.POST("/vendor_500", vendor(http.StatusInternalServerError))
	e.POST("/json_500", func(c echo.Context) error {
		return c.JSON(http.StatusInternalServerError, map[string]any{"error": leakprobe.PaymentText, "card": 4242424242424242, "cvc": 123})
	})
	e.POST("/string_502", func(c echo.Context) error { return c.String(http.StatusBadGateway, leakprobe.PaymentText) })
	e.GET("/ok", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]any{"order": "o-1", "amount": 1200})
	})
}

// payRun serves payRoutes under mws and toolerrecho (logging to a real
// slog JSON handler, tracing to tp), calls every failing route in each
// rendering, asserts that no body or header holds payment data and that
// a success passes unchanged, and asserts the log holds none either.
func payRun(t *testing.T, tp *sdktrace.TracerProvider, mws ...echo.MiddlewareFunc) {
	t.Helper()
	var logs leakprobe.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(mws...)
	e.Use(toolerrecho.Middleware(middleware.WithLogger(logger), middleware.WithTracerProvider(tp)))
	payRoutes(e)
	url := serve(t, e)
	paths := []string{"/go_error", "/http_error_402", "/http_error_internal", "/http_error_500", "/panic", "/details",
		"/vendor_402", "/vendor_500", "/json_500", "/string_502"}
	accepts := []string{"application/json", "text/markdown", "text/plain"}
	for _, path := range paths {
		for _, accept := range accepts {
			t.Run(strings.TrimPrefix(path, "/")+"/"+accept, func(t *testing.T) {
				resp, body := do(t, http.MethodPost, url+path, http.Header{"Accept": {accept}, "Content-Type": {"application/json"}}, `{"amount":1200}`)
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
	resp, body := do(t, http.MethodGet, url+"/ok", nil, "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"order":"o-1","amount":1200}`, string(body), "a success passes unchanged")

	written := logs.Bytes()
	for _, want := range []string{`"msg":"toolerr: tool call failed"`, `"cause":`, `"stack":`, "[card ending 4242]"} {
		assert.Contains(t, string(written), want, "the log has the record the test searches")
	}
	assert.Empty(t, leakprobe.FindPayment(written), "the log holds payment data: %s", written)
}

// TestPaymentDataReachesNoSink: under toolerrecho alone, with a real slog
// JSON handler and the OTel SDK, every echo route that fails with a card
// number, an IBAN, an SSN and a security code (a returned Go error,
// echo.NewHTTPError with the data in its message, its Internal error or a
// map message, a panic, a toolerr error's detail and details, a Stripe
// decline, c.JSON and c.String error bodies) answers a toolerr error in
// each rendering, and none of the planted data is in the body, the
// headers, the log or toolerr's own spans; a success passes unchanged.
func TestPaymentDataReachesNoSink(t *testing.T) {
	tp, sr := spantext.NewRecorder(t)
	payRun(t, tp)
	spans := spantext.Of(sr.Ended())
	assert.Contains(t, spans, "exception.message=", "the 5xx errors record an exception event")
	assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
}

// TestPaymentDataUnderOtelecho: the same with otelecho before toolerrecho,
// as the package's tests mount it for trace ids: otelecho's span, on
// which toolerr records, must hold none of the planted data either.
func TestPaymentDataUnderOtelecho(t *testing.T) {
	tp, sr := spantext.NewRecorder(t)
	payRun(t, tp, otelecho.Middleware("payments", otelecho.WithTracerProvider(tp)))
	spans := spantext.Of(sr.Ended())
	assert.Contains(t, spans, "toolerr.code=", "toolerr recorded on otelecho's span")
	assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
}
