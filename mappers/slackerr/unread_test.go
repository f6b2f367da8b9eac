package slackerr_test

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

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/slackerr"
	"github.com/toolerr/toolerr/middleware"
)

// unreadWarning starts the line the middleware logs, once per Go type,
// for an SDK error no mapper read.
const unreadWarning = "toolerr: an SDK error no mapper read became INTERNAL_ERROR"

// TestUnreadSlackErrorIsNeverSilent: with no Slack mapper registered, a
// real slack-go error (which only slackerr reads) becomes INTERNAL_ERROR,
// but the middleware logs one WARN line for its type, naming it and the
// mapper to register, and counts every such error as unmapped; with the
// mapper registered, neither.
func TestUnreadSlackErrorIsNeverSilent(t *testing.T) {
	client := server(t)
	for _, registered := range []bool{false, true} {
		var logs bytes.Buffer
		reader := sdkmetric.NewManualReader()
		opts := []middleware.Option{
			middleware.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))),
			middleware.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		}
		if registered {
			opts = append(opts, middleware.WithErrorMappers(slackerr.Mapper()))
		}
		srv := httptest.NewServer(middleware.New(opts...)(middleware.Tool("post", func(_ http.ResponseWriter, r *http.Request) error {
			_, _, err := client.PostMessageContext(r.Context(), "C-missing", slack.MsgOptionText("hello", false))
			return err
		})))
		for range 3 {
			resp, err := http.Post(srv.URL+"/post", "application/json", strings.NewReader(`{}`))
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			_ = resp.Body.Close()
			e, err := toolerr.Parse(body)
			require.NoError(t, err, "%s", body)
			if registered {
				assert.Equal(t, toolerr.CodeNotFound, e.Code, "%s", body)
			} else {
				assert.Equal(t, toolerr.CodeInternal, e.Code, "no mapper read it")
			}
		}
		srv.Close()

		warnings := strings.Count(logs.String(), unreadWarning)
		unmapped := unmappedCount(t, reader, "slack-go")
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
			assert.Equal(t, "slack.SlackErrorResponse", rec["go_type"])
			assert.Equal(t, "slack-go", rec["sdk"])
			assert.Contains(t, rec["msg"], "slackerr.Mapper()", "what to register")
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
