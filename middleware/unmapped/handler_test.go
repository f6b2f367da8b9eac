package unmapped

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// samplerWithTwo returns a sampler holding two samples, served by a real
// server on a loopback port.
func samplerWithTwo(t *testing.T) (*Sampler, string) {
	t.Helper()
	clock := newTestClock()
	s := newQuiet(clock)
	require.True(t, s.Offer(context.Background(), Response{Vendor: "stripe", Status: 402, Code: "UPSTREAM_UNCLASSIFIED",
		VendorCode: "card_velocity_exceeded", Header: http.Header{"Request-Id": {"req_123"}, "Content-Type": {"application/json"}},
		Body: []byte(`{"error":{"code":"card_velocity_exceeded"}}`)}))
	clock.Advance(time.Second)
	require.True(t, s.Offer(context.Background(), Response{Vendor: "cloudflare", Status: 530, Code: "UPSTREAM_UNCLASSIFIED",
		Header: http.Header{"Cf-Ray": {"8a1b2c3d4e5f6a7b-AMS"}}, Body: []byte("<html><title>530 Origin DNS error</title></html>")}))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// get requests url with method and Accept, and returns the response and
// its body.
func get(t *testing.T, method, url, accept string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, nil)
	require.NoError(t, err)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func TestHandlerJSON(t *testing.T) {
	s, url := samplerWithTwo(t)
	for _, accept := range []string{"", "application/json", "*/*", "text/plain;q=0.5, application/json", "text/html"} {
		resp, body := get(t, http.MethodGet, url, accept)
		require.Equal(t, http.StatusOK, resp.StatusCode, accept)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), accept)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		var got struct {
			Samples []Sample `json:"samples"`
		}
		dec := json.NewDecoder(strings.NewReader(body))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&got), body)
		want := s.Samples()
		require.Len(t, got.Samples, 2)
		for i := range want {
			assert.True(t, want[i].Time.Equal(got.Samples[i].Time))
			got.Samples[i].Time = want[i].Time
		}
		assert.Equal(t, want, got.Samples, "the JSON decodes back into the samples, newest first")
		assert.Equal(t, "cloudflare", got.Samples[0].Vendor)
	}
	_, body := get(t, http.MethodGet, url, "")
	assert.Contains(t, body, `"vendor_code":"card_velocity_exceeded"`)
	assert.Contains(t, body, `"body_bytes":48`)
	assert.Contains(t, body, `"header":{"Cf-Ray":"8a1b2c3d4e5f6a7b-AMS"}`)
}

func TestHandlerText(t *testing.T) {
	_, url := samplerWithTwo(t)
	for _, accept := range []string{"text/plain", "text/plain, */*", "application/json;q=0.5, text/plain", "TEXT/PLAIN; charset=utf-8"} {
		resp, body := get(t, http.MethodGet, url, accept)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"), accept)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		assert.Equal(t, `2026-11-27T16:00:01Z cloudflare status=530 code=UPSTREAM_UNCLASSIFIED suppressed=0
  Cf-Ray: 8a1b2c3d4e5f6a7b-AMS
  body (48 bytes): upstream HTML error page: 530 Origin DNS error

2026-11-27T16:00:00Z stripe status=402 code=UPSTREAM_UNCLASSIFIED vendor_code=card_velocity_exceeded suppressed=0
  Content-Type: application/json
  Request-Id: req_123
  body (43 bytes): {"error":{"code":"card_velocity_exceeded"}}
`, body, accept)
	}
}

func TestHandlerEmpty(t *testing.T) {
	srv := httptest.NewServer(New())
	defer srv.Close()
	_, body := get(t, http.MethodGet, srv.URL, "")
	assert.JSONEq(t, `{"samples":[]}`, body, "no samples is an empty list, not null")
	_, body = get(t, http.MethodGet, srv.URL, "text/plain")
	assert.Equal(t, "no unmapped response sampled\n", body)
}

func TestHandlerMethods(t *testing.T) {
	_, url := samplerWithTwo(t)
	resp, body := get(t, http.MethodHead, url, "")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, body, "HEAD has no body")
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	_, full := get(t, http.MethodGet, url, "")
	assert.Equal(t, int64(len(full)), resp.ContentLength, "HEAD announces the length GET sends")
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
		resp, _ := get(t, m, url, "")
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, m)
		assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"), m)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"), m)
	}
}

func TestPrefersText(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                                  false,
		"text/plain":                        true,
		"text/plain;q=0":                    false,
		"application/json":                  false,
		"*/*":                               false,
		"text/plain, */*":                   true,
		"text/plain;q=0.5, */*":             false,
		"text/plain;q=0.5, */*;q=0.1":       true,
		"application/json, text/plain":      false,
		"application/json;q=0.9,text/plain": true,
		"text/plain;q=bad":                  true,
		"text/*":                            false,
	} {
		assert.Equal(t, want, prefersText([]string{accept}), "%q", accept)
	}
	assert.True(t, prefersText([]string{"application/json;q=0.1", "text/plain"}), "several Accept fields count together")
}
