package idempotency_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// These tests reach the options of idempotency.Middleware only through
// their public form: the middleware over a memory store, served on a real
// loopback server, called by net/http's client. Each compares the option
// against the default, so it fails if the option were ignored.

// labelService is a real server whose one tool creates a shipping label:
// it counts its runs and answers 201 with a Location and an X-Run header.
type labelService struct {
	url  string
	runs atomic.Int32
}

// newLabelService serves the label tool behind idempotency.Middleware
// with opts over a fresh memory store.
func newLabelService(t *testing.T, opts ...idempotency.Option) *labelService {
	t.Helper()
	s := &labelService{}
	tool := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := s.runs.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Location", "/labels/lbl-"+strconv.Itoa(int(n)))
		w.Header().Set("X-Run", strconv.Itoa(int(n)))
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-`+strconv.Itoa(int(n))+`"}`)
	})
	opts = append([]idempotency.Option{idempotency.WithLogger(slog.New(slog.DiscardHandler))}, opts...)
	srv := httptest.NewServer(idempotency.Middleware(idempotency.NewMemoryStore(), opts...)(tool))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// post sends body to path with the key in header, as one authenticated
// agent, and returns the response with its body read.
func (s *labelService) post(t *testing.T, path, header, key, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", s.url+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer agent-1")
	req.Header.Set(header, key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// errorCode returns the toolerr code of an error response body.
func errorCode(t *testing.T, body string) string {
	t.Helper()
	e, err := toolerr.Parse([]byte(body))
	require.NoError(t, err, "an error body: %s", body)
	return e.Code
}

func TestWithHeaderPublic(t *testing.T) {
	s := newLabelService(t, idempotency.WithHeader("x-operation-key"))
	s.post(t, "/labels", "X-Operation-Key", "op-1", `{"to":"Oslo"}`)
	resp, _ := s.post(t, "/labels", "X-Operation-Key", "op-1", `{"to":"Oslo"}`)
	assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))
	assert.EqualValues(t, 1, s.runs.Load(), "the key in the configured header runs the tool once")

	s.post(t, "/labels", idempotency.DefaultHeader, "op-2", `{"to":"Oslo"}`)
	s.post(t, "/labels", idempotency.DefaultHeader, "op-2", `{"to":"Oslo"}`)
	assert.EqualValues(t, 3, s.runs.Load(), "the default header is no key any more")
}

func TestWithMaxKeyLenPublic(t *testing.T) {
	long := strings.Repeat("k", 9)
	s := newLabelService(t, idempotency.WithMaxKeyLen(8))
	resp, body := s.post(t, "/labels", idempotency.DefaultHeader, long, `{}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, toolerr.CodeValidationFailed, errorCode(t, body))
	resp, _ = s.post(t, "/labels", idempotency.DefaultHeader, long[:8], `{}`)
	assert.Equal(t, http.StatusCreated, resp.StatusCode, "a key at the bound is accepted")
	assert.EqualValues(t, 1, s.runs.Load())

	resp, _ = s.post(t, "/labels", idempotency.DefaultHeader, long, `{}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	d := newLabelService(t)
	resp, _ = d.post(t, "/labels", idempotency.DefaultHeader, long, `{}`)
	assert.Equal(t, http.StatusCreated, resp.StatusCode, "the default bound (255) takes the same key")
}

func TestWithToolPublic(t *testing.T) {
	one := func(*http.Request) string { return "labels" }
	// WithTool scopes keys: with one tool for both paths, and a
	// fingerprint that ignores the path, the second path replays the first.
	sameBody := func(_ *http.Request, body []byte) string { return string(body) }
	s := newLabelService(t, idempotency.WithTool(one), idempotency.WithFingerprint(sameBody))
	s.post(t, "/labels/eu", idempotency.DefaultHeader, "k-1", `{}`)
	resp, _ := s.post(t, "/labels/us", idempotency.DefaultHeader, "k-1", `{}`)
	assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))
	assert.EqualValues(t, 1, s.runs.Load())

	d := newLabelService(t, idempotency.WithFingerprint(sameBody))
	d.post(t, "/labels/eu", idempotency.DefaultHeader, "k-1", `{}`)
	resp, _ = d.post(t, "/labels/us", idempotency.DefaultHeader, "k-1", `{}`)
	assert.Empty(t, resp.Header.Get("Idempotent-Replayed"))
	assert.EqualValues(t, 2, d.runs.Load(), "by default each path is a tool of its own")
}

func TestWithFingerprintPublic(t *testing.T) {
	// A fingerprint of the destination only: a retry that only reorders
	// or adds a note is the same request.
	byDestination := func(_ *http.Request, body []byte) string {
		var v struct{ To string }
		_ = json.Unmarshal(body, &v)
		return v.To
	}
	s := newLabelService(t, idempotency.WithFingerprint(byDestination))
	s.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{"to":"Oslo"}`)
	resp, _ := s.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{"to":"Oslo","note":"retry"}`)
	assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))
	resp, body := s.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{"to":"Bergen"}`)
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, errorCode(t, body))
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.EqualValues(t, 1, s.runs.Load())

	d := newLabelService(t)
	d.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{"to":"Oslo"}`)
	_, body = d.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{"to":"Oslo","note":"retry"}`)
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, errorCode(t, body), "the default fingerprint covers the whole body")
}

func TestWithRetentionPublic(t *testing.T) {
	s := newLabelService(t, idempotency.WithRetention(90*time.Second))
	resp, _ := s.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{}`)
	assert.Equal(t, "90", resp.Header.Get("Idempotency-Retention"))

	d := newLabelService(t)
	resp, _ = d.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{}`)
	assert.Equal(t, strconv.Itoa(int(idempotency.DefaultRetention.Seconds())), resp.Header.Get("Idempotency-Retention"))
}

func TestWithReplayHeadersPublic(t *testing.T) {
	s := newLabelService(t, idempotency.WithReplayHeaders("x-run"))
	s.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{}`)
	resp, body := s.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{}`)
	assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))
	assert.JSONEq(t, `{"label":"lbl-1"}`, body)
	assert.Equal(t, "1", resp.Header.Get("X-Run"), "the configured header is replayed")
	assert.Empty(t, resp.Header.Get("Location"), "a default replay header not configured is not")

	d := newLabelService(t)
	d.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{}`)
	resp, _ = d.post(t, "/labels", idempotency.DefaultHeader, "k-1", `{}`)
	assert.Equal(t, "/labels/lbl-1", resp.Header.Get("Location"))
	assert.Empty(t, resp.Header.Get("X-Run"))
}

func TestWithFormatPublic(t *testing.T) {
	long := strings.Repeat("k", idempotency.DefaultMaxKeyLen+1)
	s := newLabelService(t, idempotency.WithFormat(toolerr.FormatEnvelope))
	resp, body := s.post(t, "/labels", idempotency.DefaultHeader, long, `{}`)
	assert.Equal(t, toolerr.ContentTypeEnvelope, resp.Header.Get("Content-Type"))
	var env struct {
		OK    *bool          `json:"ok"`
		Error map[string]any `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &env))
	require.NotNil(t, env.OK)
	assert.False(t, *env.OK)
	assert.Equal(t, toolerr.CodeValidationFailed, env.Error["code"])

	d := newLabelService(t)
	resp, _ = d.post(t, "/labels", idempotency.DefaultHeader, long, `{}`)
	assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"))
}
