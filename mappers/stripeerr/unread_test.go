package stripeerr_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v82"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/stripeerr"
	"github.com/toolerr/toolerr/middleware"
)

// unreadWarning starts the line the middleware logs, once per Go type,
// for an SDK error no mapper read.
const unreadWarning = "toolerr: an SDK error no mapper read became INTERNAL_ERROR"

// TestUnreadStripeErrorIsNeverSilent: with no Stripe mapper registered (as
// when the registered one was built for another stripe-go major), a real
// *stripe.Error becomes INTERNAL_ERROR, but the middleware logs one WARN
// line for its type, naming it and the mapper to register, and counts
// every such error as unmapped; with the mapper registered, neither.
func TestUnreadStripeErrorIsNeverSilent(t *testing.T) {
	sc := replay(t)
	for _, registered := range []bool{false, true} {
		var logs bytes.Buffer
		reader := sdkmetric.NewManualReader()
		opts := []middleware.Option{
			middleware.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))),
			middleware.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		}
		if registered {
			opts = append(opts, middleware.WithErrorMappers(stripeerr.Mapper()))
		}
		srv := httptest.NewServer(middleware.New(opts...)(middleware.Tool("charge", func(_ http.ResponseWriter, r *http.Request) error {
			_, err := sc.V1PaymentIntents.Create(r.Context(), &stripe.PaymentIntentCreateParams{
				Amount: stripe.Int64(2000), Currency: stripe.String("usd"), Description: stripe.String("insufficient-funds"),
			})
			return err
		})))
		for range 3 {
			resp, err := http.Post(srv.URL+"/charge", "application/json", strings.NewReader(`{}`))
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			_ = resp.Body.Close()
			e, err := toolerr.Parse(body)
			require.NoError(t, err, "%s", body)
			if registered {
				assert.Equal(t, toolerr.CodePaymentRequired, e.Code)
			} else {
				assert.Equal(t, toolerr.CodeInternal, e.Code, "no mapper read it")
			}
		}
		srv.Close()

		warnings := strings.Count(logs.String(), unreadWarning)
		unmapped := unmappedCount(t, reader, "stripe-go")
		if registered {
			assert.Zero(t, warnings, "a read error is not warned about")
			assert.Zero(t, unmapped)
			continue
		}
		assert.Equal(t, 1, warnings, "one line per Go type, not per error:\n%s", logs.String())
		for line := range strings.Lines(logs.String()) {
			if !strings.Contains(line, unreadWarning) {
				continue
			}
			var rec map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			assert.Equal(t, "WARN", rec["level"])
			assert.Equal(t, "*stripe.Error", rec["go_type"])
			assert.Equal(t, "stripe-go", rec["sdk"])
			assert.Contains(t, rec["msg"], "stripeerr.Mapper()", "what to register")
		}
		assert.EqualValues(t, 3, unmapped, "every unread error is counted")
	}
}

// unmappedCount returns the sum of toolerr.upstream.unmapped for vendor.
func unmappedCount(t *testing.T, reader *sdkmetric.ManualReader, vendor string) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "toolerr.upstream.unmapped" {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok)
			for _, dp := range sum.DataPoints {
				if v, ok := dp.Attributes.Value("toolerr.vendor"); ok && v.AsString() == vendor {
					n += dp.Value
				}
			}
		}
	}
	return n
}
