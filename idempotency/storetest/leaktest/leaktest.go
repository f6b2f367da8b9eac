// Package leaktest checks that an [idempotency.Store] holds no secret of
// a failure: the planted values of internal/leakprobe, which a tool's
// failing answer carries, must be redacted before the store is given the
// response. It is apart from package storetest so that the conformance
// suite does not bring the toolerr middleware, and its telemetry
// dependencies, to a store's tests.
package leaktest

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/middleware"
)

// secretFailures are tools that fail with the planted secrets of package
// leakprobe in every way a tool answers an error that the store keeps (a
// 4xx other than 408, 409, 425 and 429).
func secretFailures() map[string]http.Handler {
	planted := leakprobe.Sentence()
	return map[string]http.Handler{
		// A vendor's error relayed as it came: the middleware translates it.
		"relayed vendor body": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.RecordVendor(r.Context(), "stripe")
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Link", "<https://api.stripe.com/v1/charges?key="+leakprobe.Probes()[0].Value+">; rel=next")
			w.WriteHeader(http.StatusPaymentRequired)
			_, _ = io.WriteString(w, `{"error":{"type":"card_error","code":"card_declined","message":"`+planted+`"}}`)
		}),
		// A card number as a JSON number: redacted, the body stays JSON,
		// so the replay is translated as the first answer was.
		"vendor body, card as a number": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.RecordVendor(r.Context(), "stripe")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusPaymentRequired)
			_, _ = io.WriteString(w, `{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined.",`+
				`"payment_method":{"card":{"number":4242424242424242,"cvc":123}}}}`)
		}),
		"plain text error": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, planted, http.StatusBadRequest)
		}),
		"toolerr.Write": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.Write(w, r, toolerr.Default().New(toolerr.CodeValidationFailed, planted).WithHint("Use "+planted))
		}),
		"Tool adapter": middleware.Tool("pay", func(http.ResponseWriter, *http.Request) error {
			return fmt.Errorf("charging the card: %w", toolerr.Default().New(toolerr.CodeNotFound, planted))
		}),
	}
}

// NoSecretStored checks the promise that no store holds a secret of a
// failure: it mounts [idempotency.Middleware] over store where docs/mounting.md
// puts it (inside middleware.New, before the tool), has the tool fail with
// the planted secrets of package leakprobe (a relayed vendor body, a
// plain-text error, toolerr.Write, a Tool adapter's error), each with a
// key of its own, and sends each call and its retry. Neither answer may
// hold a secret, the retry must be a replay that answers as the first
// call did, and written, which returns everything the store holds as
// text, must hold none either.
func NoSecretStored(t *testing.T, store idempotency.Store, written func(t *testing.T) string) {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	for name, h := range secretFailures() {
		t.Run(name, func(t *testing.T) {
			app := middleware.New(middleware.WithLogger(quiet))(
				idempotency.Middleware(store, idempotency.WithLogger(quiet))(h))
			srv := httptest.NewServer(app)
			defer srv.Close()
			var answers [2]map[string]any
			for i := range answers {
				answers[i] = postSecretCall(t, srv.URL, "secret-"+strings.ReplaceAll(name, " ", "-"), i == 1)
			}
			for _, k := range []string{"code", "detail", "hint"} {
				assert.Equal(t, answers[0][k], answers[1][k], "the replay answers %s as the first call did", k)
			}
		})
	}
	all := written(t)
	require.NotEmpty(t, all, "the store holds the responses")
	leaked, mark := leakprobe.Find([]byte(all))
	assert.Empty(t, leaked, "the store holds %q: %s", mark, all)
}

// postSecretCall sends one keyed call to url, checks that its answer is a
// failure without a planted secret, a replay when replayed, and returns
// it decoded.
func postSecretCall(t *testing.T, url, key string, replayed bool) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/tools/pay", strings.NewReader(`{"amount":100}`))
	require.NoError(t, err)
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("Authorization", "Bearer agent-1")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.GreaterOrEqual(t, resp.StatusCode, 400, "%s", b)
	leaked, mark := leakprobe.Find(b)
	assert.Empty(t, leaked, "the answer holds %q", mark)
	assert.Equal(t, replayed, resp.Header.Get("Idempotent-Replayed") == "true", "replayed")
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "%s", b)
	return m
}
