package translate

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// roundTrip serves one response from h and returns it unread.
func roundTrip(t *testing.T, method string, h http.HandlerFunc, header http.Header) *http.Response {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	req, err := http.NewRequest(method, srv.URL+"/v1/things", nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestResponseSuccessIsNil(t *testing.T) {
	body := `{"things":[1,2,3]}`
	resp := roundTrip(t, "GET", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}, nil)
	require.NoError(t, Response(resp))
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, body, string(got), "the body is still readable from the start")
}

func TestResponseErrorKeepsBodyReadable(t *testing.T) {
	long := `{"message":"` + strings.Repeat("z", 100_000) + `"}`
	resp := roundTrip(t, "POST", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "4")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, long)
	}, http.Header{"Idempotency-Key": {"k-1"}})
	err := Response(resp)
	var e *toolerr.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.EqualValues(t, 4000, e.RetryAfter.Milliseconds())
	require.NotNil(t, e.Upstream)
	assert.Equal(t, 503, e.Upstream.Status)
	got, rerr := io.ReadAll(resp.Body)
	require.NoError(t, rerr)
	assert.Equal(t, long, string(got), "past the cap too")
}

func TestResponseBodyCap(t *testing.T) {
	s, err := NewSet(nil, WithBodyCap(16))
	require.NoError(t, err)
	resp := &http.Response{StatusCode: 500, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(strings.Repeat("x", 64)))}
	body, truncated := peekBody(resp, 16)
	assert.Len(t, body, 16)
	assert.True(t, truncated)
	rest, _ := io.ReadAll(resp.Body)
	assert.Len(t, rest, 64)
	assert.Error(t, s.Response(&http.Response{StatusCode: 500, Header: http.Header{}, Body: http.NoBody}))
}

func TestResponseNil(t *testing.T) {
	assert.NoError(t, Response(nil))
}

func TestHostName(t *testing.T) {
	assert.Equal(t, "api.stripe.com", hostName("API.Stripe.com:443"))
	assert.Equal(t, "api.stripe.com", hostName("api.stripe.com"))
	assert.Equal(t, "::1", hostName("[::1]:8080"))
}
