package translate_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/translate"
)

// vendorFailures are vendor error responses with the planted secrets in
// the message, the error code, the request id header and a parameter:
// each as the vendor's own format has them.
func vendorFailures() map[string]struct {
	status int
	header map[string]string
	body   string
} {
	planted := leakprobe.Sentence()
	probe := leakprobe.Probes()[0].Value
	return map[string]struct {
		status int
		header map[string]string
		body   string
	}{
		"stripe": {402, map[string]string{"Request-Id": probe, "Stripe-Version": "2024-06-20"},
			`{"error":{"type":"card_error","code":"` + probe + `","param":"` + probe + `","message":"` + planted + `"}}`},
		"github": {422, map[string]string{"X-GitHub-Request-Id": probe, "X-GitHub-Media-Type": "github.v3"},
			`{"message":"` + planted + `","errors":[{"resource":"Issue","field":"` + probe + `","code":"` + probe + `"}]}`},
		"openai": {400, map[string]string{"X-Request-Id": probe, "Openai-Version": "2020-10-01"},
			`{"error":{"message":"` + planted + `","type":"invalid_request_error","param":"` + probe + `","code":"` + probe + `"}}`},
		"generic json": {409, map[string]string{"X-Request-Id": probe},
			`{"error":{"code":"` + probe + `","message":"` + planted + `"}}`},
		"problem+json": {400, map[string]string{"Content-Type": "application/problem+json", "X-Request-Id": probe},
			`{"type":"https://example.com/` + probe + `","title":"` + planted + `","status":400,"detail":"` + planted + `","code":"` + probe + `"}`},
		"plain text": {400, map[string]string{"Content-Type": "text/plain", "X-Request-Id": probe}, planted},
	}
}

// TestVendorErrorHoldsNoSecret: the error translate.Response builds from
// a vendor's failure, and the unmapped sample the classifier's observer is
// given, hold no planted secret, in any rendering of the error (problem,
// envelope, observation, Error) and without any middleware: the error may
// be rendered or logged by the service itself.
func TestVendorErrorHoldsNoSecret(t *testing.T) {
	var mu sync.Mutex
	var samples []classify.Unmapped
	observer := classify.ObserverFunc(func(_ context.Context, u classify.Unmapped) {
		mu.Lock()
		defer mu.Unlock()
		samples = append(samples, u)
	})
	set, err := translate.NewSet(classify.New(nil, classify.WithObserver(observer)))
	require.NoError(t, err)
	for name, f := range vendorFailures() {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if w.Header().Set("Content-Type", "application/json"); f.header != nil {
					for k, v := range f.header {
						w.Header().Set(k, v)
					}
				}
				w.WriteHeader(f.status)
				_, _ = w.Write([]byte(f.body))
			}))
			defer srv.Close()
			resp, err := http.Post(srv.URL+"/v1/charges", "application/json", strings.NewReader(`{}`))
			require.NoError(t, err)
			defer resp.Body.Close()
			e, ok := toolerr.From(set.Response(resp))
			require.True(t, ok, "a failure is an error")
			env := e.WithRequestID("req-1")
			for rendering, text := range map[string]string{
				"problem":     string(e.AppendJSON(nil)),
				"envelope":    string(env.AppendEnvelope(nil)),
				"observation": e.Observation(),
				"Error":       e.Error(),
			} {
				leaked, mark := leakprobe.Find([]byte(text))
				assert.Empty(t, leaked, "the %s holds %q: %s", rendering, mark, text)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, samples, "a vendor code no table maps is observed")
	for _, u := range samples {
		leaked, mark := leakprobe.Find([]byte(u.Vendor + " " + u.VendorCode))
		assert.Empty(t, leaked, "the unmapped sample holds %q: %+v", mark, u)
	}
}
