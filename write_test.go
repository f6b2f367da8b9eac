package toolerr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/reqscope"
)

// writeOnce renders err for a GET of path with the given request changes and
// returns the recorder, after checking what every response must satisfy.
func writeOnce(t *testing.T, path string, prep func(rec *httptest.ResponseRecorder, req *http.Request) *http.Request, err error, opts ...WriteOption) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if prep != nil {
		req = prep(rec, req)
	}
	Write(rec, req, err, opts...)
	body := rec.Body.Bytes()
	require.NoError(t, Validate(body), "%s", body)
	assert.Equal(t, strconv.Itoa(len(body)), rec.Header().Get("Content-Length"))
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
	id := rec.Header().Get("X-Request-Id")
	assert.True(t, ValidRequestID(id), "X-Request-Id %q", id)
	parsed, perr := Parse(body)
	require.NoError(t, perr)
	assert.Equal(t, id, parsed.RequestID, "header and body carry the same request id")
	return rec
}

func TestWriteStatusAndContentType(t *testing.T) {
	tests := []struct {
		name        string
		err         error
		opts        []WriteOption
		accept      string
		status      int
		contentType string
		envelope    bool
	}{
		{"problem by default", Default().New(CodeNotFound, ""), nil, "", 404, ContentTypeProblem, false},
		{"explicit problem", Default().New(CodeConflict, ""), []WriteOption{WithFormat(FormatProblem)}, "", 409, ContentTypeProblem, false},
		{"envelope", Default().New(CodeNotFound, ""), []WriteOption{WithFormat(FormatEnvelope)}, "", 404, ContentTypeEnvelope, true},
		{"envelope, Accept json", Default().New(CodeNotFound, ""), []WriteOption{WithFormat(FormatEnvelope)}, "application/json", 404, ContentTypeEnvelope, true},
		{"Accept problem+json forces problem", Default().New(CodeNotFound, ""), []WriteOption{WithFormat(FormatEnvelope)}, "application/problem+json", 404, ContentTypeProblem, false},
		{"Accept problem+json among others", Default().New(CodeNotFound, ""), []WriteOption{WithFormat(FormatEnvelope)}, "application/json, application/problem+json;q=0.5", 404, ContentTypeProblem, false},
		{"Accept problem+json q=0 does not", Default().New(CodeNotFound, ""), []WriteOption{WithFormat(FormatEnvelope)}, "application/problem+json;q=0", 404, ContentTypeEnvelope, true},
		{"cancelled is 499", Default().New(CodeCancelled, ""), nil, "", 499, ContentTypeProblem, false},
		{"status out of range is 500", Default().New(CodeNotFound, "").WithStatus(200), nil, "", 500, ContentTypeProblem, false},
		{"wrapped *Error is found", fmt.Errorf("handler: %w", Default().New(CodeGone, "")), nil, "", 410, ContentTypeProblem, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := writeOnce(t, "/tools/x", func(_ *httptest.ResponseRecorder, req *http.Request) *http.Request {
				if tc.accept != "" {
					req.Header.Set("Accept", tc.accept)
				}
				return req
			}, tc.err, tc.opts...)
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, tc.contentType, rec.Header().Get("Content-Type"))
			m := decodeRendered(t, rec.Body.Bytes())
			if tc.envelope {
				assert.Equal(t, false, m["ok"])
				inner, ok := m["error"].(map[string]any)
				require.True(t, ok)
				assert.Equal(t, json.Number(strconv.Itoa(tc.status)), inner["status"])
			} else {
				assert.NotContains(t, m, "ok")
				assert.Equal(t, json.Number(strconv.Itoa(tc.status)), m["status"])
			}
		})
	}
}

func TestWriteRetryAfterHeader(t *testing.T) {
	tests := []struct {
		name  string
		delay time.Duration
		want  string // "" means absent
	}{
		{"1500ms rounds up", 1500 * time.Millisecond, "2"},
		{"1ms is one second", time.Millisecond, "1"},
		{"1ns is one second", time.Nanosecond, "1"},
		{"exact seconds", 3 * time.Second, "3"},
		{"just over", 3*time.Second + 1, "4"},
		{"no delay", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Default().New(CodeUpstreamUnavailable, "").WithRetryAfter(tc.delay)
			rec := writeOnce(t, "/x", func(rec *httptest.ResponseRecorder, req *http.Request) *http.Request {
				rec.Header().Set("Retry-After", "120") // stale, from earlier in the handler
				return req
			}, e)
			if tc.want == "" {
				assert.NotContains(t, rec.Header(), "Retry-After", "a stale Retry-After is removed")
			} else {
				assert.Equal(t, []string{tc.want}, rec.Header().Values("Retry-After"))
			}
		})
	}
	rec := writeOnce(t, "/x", nil, Default().New(CodeNotFound, ""))
	assert.NotContains(t, rec.Header(), "Retry-After")
}

// TestWriteRetryAfterHeaderMatchesBody: a retryable rate limit always renders
// retry_after_ms (the policy's base delay, else one second) even when the
// error's own RetryAfter is zero; the Retry-After header should say the same
// thing, or an HTTP-level client that honours only the header retries at once.
func TestWriteRetryAfterHeaderMatchesBody(t *testing.T) {
	for _, e := range []*Error{
		Default().New(CodeRateLimited, "").WithRetryAfter(0),
		{Code: "WIDGET_RATE", Category: CategoryRateLimit, Status: 429, Retryable: true},
	} {
		rec := writeOnce(t, "/x", nil, e)
		ms, ok := decodeRendered(t, rec.Body.Bytes())["retry_after_ms"].(json.Number)
		require.True(t, ok, "the body carries a delay")
		n, err := ms.Int64()
		require.NoError(t, err)
		assert.Equal(t, strconv.FormatInt((n+999)/1000, 10), rec.Header().Get("Retry-After"), "%s", rec.Body.String())
	}
}

func TestWriteForeignErrorIsInternal(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"plain error", errors.New("pq: password=hunter2 host=10.0.0.5")},
		{"wrapped plain error", fmt.Errorf("query: %w", errors.New("pq: password=hunter2 host=10.0.0.5"))},
		{"nil", nil},
		{"typed nil *Error", (*Error)(nil)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := writeOnce(t, "/tools/x", nil, tc.err)
			assert.Equal(t, 500, rec.Code)
			m := decodeRendered(t, rec.Body.Bytes())
			assert.Equal(t, CodeInternal, m["code"])
			assert.Equal(t, "internal", m["category"])
			assert.Equal(t, "The tool failed", m["detail"])
			body := rec.Body.String()
			for _, leak := range []string{"hunter2", "10.0.0.5", "pq:", "password"} {
				assert.NotContains(t, body, leak)
				for name, values := range rec.Header() {
					assert.NotContains(t, strings.Join(values, " "), leak, name)
				}
			}
		})
	}
}

func TestWriteRequestIDSources(t *testing.T) {
	tests := []struct {
		name              string
		own, ctx, header  string
		want              string // "" means generated
		mustNotAppearText string
	}{
		{"the request's id wins over the error's", "own-1", "ctx-1", "hdr-1", "ctx-1", "own-1"},
		{"the error's own without a request id", "own-1", "", "hdr-1", "own-1", ""},
		{"context before header", "", "ctx-1", "hdr-1", "ctx-1", ""},
		{"header last", "", "", "hdr-1", "hdr-1", ""},
		{"generated when none", "", "", "", "", ""},
		{"invalid context id is replaced", "", "bad id\r\n", "", "", "bad id"},
		{"invalid context id falls to header", "", "bad id\r\n", "hdr-1", "hdr-1", "bad id"},
		{"invalid own id falls to context", "own 1", "ctx-1", "", "ctx-1", "own 1"},
		{"over-long id is replaced", "", strings.Repeat("a", MaxIDLen+1), "", "", strings.Repeat("a", MaxIDLen+1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Default().New(CodeNotFound, "")
			if tc.own != "" {
				e = e.WithRequestID(tc.own)
			}
			rec := writeOnce(t, "/x", func(rec *httptest.ResponseRecorder, req *http.Request) *http.Request {
				if tc.header != "" {
					rec.Header().Set("X-Request-Id", tc.header)
				}
				if tc.ctx != "" {
					req = req.WithContext(WithRequestID(req.Context(), tc.ctx))
				}
				return req
			}, e)
			got := rec.Header().Get("X-Request-Id")
			if tc.want != "" {
				assert.Equal(t, tc.want, got)
			} else {
				assert.Len(t, got, 32)
				assert.Regexp(t, "^[0-9a-f]{32}$", got)
			}
			assert.Equal(t, []string{got}, rec.Header().Values("X-Request-Id"), "one X-Request-Id")
			assert.Equal(t, got, decodeRendered(t, rec.Body.Bytes())["request_id"])
			if tc.mustNotAppearText != "" {
				assert.NotContains(t, rec.Body.String(), tc.mustNotAppearText)
				assert.NotContains(t, got, tc.mustNotAppearText)
			}
			if tc.own != "" {
				assert.Equal(t, tc.own, e.RequestID, "Write does not change the caller's error")
			} else {
				assert.Equal(t, "", e.RequestID, "Write does not change the caller's error")
			}
		})
	}
	// Two responses without any id get different generated ids.
	a := writeOnce(t, "/x", nil, Default().New(CodeNotFound, "")).Header().Get("X-Request-Id")
	b := writeOnce(t, "/x", nil, Default().New(CodeNotFound, "")).Header().Get("X-Request-Id")
	assert.NotEqual(t, a, b)
}

func TestWriteTraceID(t *testing.T) {
	const valid = "4bf92f3577b34da6a3ce929d0e0e4736"
	tests := []struct {
		name     string
		own, ctx string
		want     string // "" means absent
	}{
		{"from context", "", valid, valid},
		{"invalid context id dropped", "", "not-a-trace-id", ""},
		{"all-zero context id dropped", "", "00000000000000000000000000000000", ""},
		{"upper-case context id dropped", "", strings.ToUpper(valid), ""},
		{"the request's wins over the error's", "00000000000000000000000000000001", valid, valid},
		{"the error's own without a request trace", "00000000000000000000000000000001", "", "00000000000000000000000000000001"},
		{"none", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Default().New(CodeNotFound, "").WithTraceID(tc.own)
			rec := writeOnce(t, "/x", func(_ *httptest.ResponseRecorder, req *http.Request) *http.Request {
				if tc.ctx != "" {
					req = req.WithContext(WithTraceID(req.Context(), tc.ctx))
				}
				return req
			}, e)
			m := decodeRendered(t, rec.Body.Bytes())
			if tc.want == "" {
				assert.NotContains(t, m, "trace_id")
				if tc.ctx != "" {
					assert.NotContains(t, rec.Body.String(), tc.ctx)
				}
			} else {
				assert.Equal(t, tc.want, m["trace_id"])
			}
		})
	}
}

func TestWriteInstance(t *testing.T) {
	rec := writeOnce(t, "/tools/search%20orders?q=secret", nil, Default().New(CodeNotFound, ""))
	m := decodeRendered(t, rec.Body.Bytes())
	assert.Equal(t, "/tools/search%20orders", m["instance"], "the escaped path, without the query")
	assert.NotContains(t, rec.Body.String(), "secret")

	rec = writeOnce(t, "/tools/x", nil, Default().New(CodeNotFound, "").WithInstance("urn:uuid:1"))
	assert.Equal(t, "urn:uuid:1", decodeRendered(t, rec.Body.Bytes())["instance"], "the error's own instance wins")
}

func TestWriteNilRequest(t *testing.T) {
	rec := httptest.NewRecorder()
	Write(rec, nil, Default().New(CodeNotFound, ""), WithFormat(FormatEnvelope))
	require.NoError(t, Validate(rec.Body.Bytes()))
	assert.Equal(t, 404, rec.Code)
	assert.Equal(t, ContentTypeEnvelope, rec.Header().Get("Content-Type"))
	assert.Len(t, rec.Header().Get("X-Request-Id"), 32)
}

func TestWriteWithRegistry(t *testing.T) {
	reg := NewRegistry(Default(), WithDocsBase("https://docs.example.com/errors/"))
	rec := writeOnce(t, "/x", nil, errors.New("boom"), WithRegistry(reg))
	assert.Equal(t, 500, rec.Code)
	m := decodeRendered(t, rec.Body.Bytes())
	assert.Equal(t, CodeInternal, m["code"])
	assert.Equal(t, "https://docs.example.com/errors/INTERNAL_ERROR", m["type"], "built by the child registry")
	assert.Equal(t, "https://docs.example.com/errors/INTERNAL_ERROR", m["docs_url"])

	// Without the option the default registry builds it.
	rec = writeOnce(t, "/x", nil, errors.New("boom"))
	assert.Equal(t, "urn:toolerr:INTERNAL_ERROR", decodeRendered(t, rec.Body.Bytes())["type"])
}

func TestWriteFullErrorMatchesAppendJSON(t *testing.T) {
	e := renderFullError()
	rec := writeOnce(t, "/ignored", nil, e)
	assert.Equal(t, string(e.AppendJSON(nil)), rec.Body.String(), "ids and instance already set: rendered as is")
	assert.Equal(t, "2", rec.Header().Get("Retry-After"))
	assert.Equal(t, 429, rec.Code)
}

func TestAcceptsProblem(t *testing.T) {
	tests := []struct {
		accept string
		want   bool
	}{
		{"", false},
		{"*/*", false},
		{"application/json", false},
		{"application/*", false},
		{"application/problem+json", true},
		{"application/problem+json;q=1", true},
		{"application/problem+json; q=0.5", true},
		{"application/problem+json;q=0.001", true},
		{"application/problem+json;q=0", false},
		{"application/problem+json; q=0.0", false},
		{"application/problem+json;q=abc", false},
		{"application/json, application/problem+json", true},
		{"text/html, application/problem+json;q=0.1, */*;q=0.01", true},
		{"application/json;q=0.9 , application/problem+json", true},
		{"application/problem+jsonx", false},
		{"application/x-problem+json", false},
		{"application/problem+xml", false},
		{"garbage;;;, application/problem+json", true},
		// Media types are case-insensitive (RFC 9110 §8.3.1).
		{"Application/Problem+JSON", true},
		{"APPLICATION/PROBLEM+JSON;q=0.5", true},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, acceptsProblem(tc.accept), "%q", tc.accept)
	}
}

// TestWriteUnderAFilterLeavesTheCallersErrorAlone: Write fills ids and the
// instance into a copy of its own, whether the filter changed the error
// (MapText's copy) or not, and whether the instance was missing
// (WithInstance's copy) or not.
func TestWriteUnderAFilterLeavesTheCallersErrorAlone(t *testing.T) {
	for _, tc := range []struct {
		name     string
		detail   string
		instance string
	}{
		{"filter changes the detail, no instance", "token SECRET here", ""},
		{"filter changes nothing, no instance", "plain detail", ""},
		{"filter changes the detail, own instance", "token SECRET here", "/orders/1"},
		{"filter changes nothing, own instance", "plain detail", "/orders/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var scope reqscope.Scope
			scope.Init(context.Background(), "req-outer-1", "")
			scope.SetHooks(&reqscope.Hooks{Clean: func(s string) string { return strings.ReplaceAll(s, "SECRET", "[x]") }})
			e := Default().New(CodeNotFound, tc.detail)
			if tc.instance != "" {
				e = e.WithInstance(tc.instance)
			}
			r := httptest.NewRequest(http.MethodGet, "/tools/find", nil).WithContext(&scope)
			rec := httptest.NewRecorder()
			Write(rec, r, e)
			assert.NotContains(t, rec.Body.String(), "SECRET")
			assert.Equal(t, "req-outer-1", decodeRendered(t, rec.Body.Bytes())["request_id"])
			assert.Equal(t, tc.detail, e.Detail, "the caller's detail")
			assert.Equal(t, tc.instance, e.Instance, "the caller's instance")
			assert.Equal(t, "", e.RequestID, "the caller's request id")
		})
	}
}
