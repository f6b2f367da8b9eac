package translate

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// envoyReset is the start of Envoy's local reply to a stream reset before
// the upstream's response headers.
const envoyReset = "upstream connect error or disconnect/reset before headers. "

// TestEnvoyResetRetryByIdempotency checks, through the whole Set, which
// Envoy resets a non-idempotent call may be retried after: only those that
// prove the request never reached the upstream. An idempotent method or an
// idempotency key makes every reset retryable. Issue 27 §3.6.
func TestEnvoyResetRetryByIdempotency(t *testing.T) {
	cases := []struct {
		name, body string
		neverSent  bool // the reason proves the request never reached the upstream
	}{
		{"connection termination", envoyReset + "reset reason: connection termination", false},
		{"retried, then termination", envoyReset + "retried and the latest reset reason: connection termination", false},
		{"remote reset", envoyReset + "reset reason: remote reset", false},
		{"local reset", envoyReset + "reset reason: local reset", false},
		{"protocol error", envoyReset + "reset reason: protocol error", false},
		{"overload manager", envoyReset + "reset reason: overload manager reset", false},
		{"a reason not known yet", envoyReset + "reset reason: something new", false},
		{"connection failure", envoyReset + "reset reason: connection failure, transport failure reason: delayed connect error: 111", true},
		{"remote connection failure", envoyReset + "retried and the latest reset reason: remote connection failure, transport failure reason: delayed connect error: Connection refused", true},
		{"local connection failure", envoyReset + "reset reason: local connection failure, transport failure reason: TLS_error:|268435581:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED:TLS_error_end", true},
		{"connection timeout", envoyReset + "reset reason: connection timeout", true},
		{"overflow", envoyReset + "reset reason: overflow", true},
		{"refused stream", envoyReset + "reset reason: remote refused stream reset", true},
	}
	headerSets := map[string]http.Header{
		"Server: envoy":         {"Server": {"envoy"}, "Content-Type": {"text/plain"}},
		"Server: istio-envoy":   {"Server": {"istio-envoy"}, "X-Envoy-Upstream-Service-Time": {"12"}},
		"Envoy headers removed": {"Content-Type": {"text/plain; charset=utf-8"}},
	}
	s := Default()
	for hname, h := range headerSets {
		for _, c := range cases {
			for _, method := range []string{"POST", "PATCH", "GET", "PUT", "DELETE"} {
				r := &Raw{Method: method, Status: http.StatusServiceUnavailable, Header: h.Clone(), Body: []byte(c.body)}
				e := s.Classify(context.Background(), r)
				require.NotNil(t, e)
				safe := c.neverSent || method != "POST" && method != "PATCH"
				assert.Equal(t, safe, e.Retryable, "%s, %s, %s", hname, c.name, method)
			}
			r := &Raw{Method: "POST", Idempotent: true, Status: http.StatusServiceUnavailable, Header: h.Clone(), Body: []byte(c.body)}
			e := s.Classify(context.Background(), r)
			require.NotNil(t, e)
			assert.True(t, e.Retryable, "%s, %s, POST with an idempotency key", hname, c.name)
		}
	}
}

// TestEnvoyNoHealthyUpstream checks that "no healthy upstream", which
// Envoy sends without opening a connection, stays retryable for a POST,
// and that without an Envoy header it is nobody's reply in particular.
func TestEnvoyNoHealthyUpstream(t *testing.T) {
	r := &Raw{Method: "POST", Status: http.StatusServiceUnavailable, Header: http.Header{"Server": {"envoy"}}, Body: []byte("no healthy upstream")}
	o, ok := builtinNamed("envoy").Translate(r)
	require.True(t, ok)
	assert.Equal(t, classify.AdviceNone, o.Evidence.Retry)
	e := Default().Classify(context.Background(), r)
	require.NotNil(t, e)
	assert.True(t, e.Retryable)
	assert.False(t, builtinNamed("envoy").Recognizes(&Raw{Status: 503, Header: http.Header{}, Body: []byte("no healthy upstream")}))
}
