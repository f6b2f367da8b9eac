package argcheck_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/middleware"
)

// stack serves the search_orders tool as a user mounts it: otelhttp
// outermost with the real SDK, toolerr, chi with its own middleware, and
// the schema's middleware on the tool. got receives the body the handler
// read.
func stack(t *testing.T, schema *argcheck.Schema, got *[]byte) (*httptest.Server, *tracetest.SpanRecorder) {
	t.Helper()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	search := func(w http.ResponseWriter, r *http.Request) error {
		b, err := io.ReadAll(r.Body)
		*got = b
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/json")
		_, err = w.Write([]byte(`{"orders":[]}`))
		return err
	}
	r := chi.NewRouter()
	r.Use(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler)), middleware.WithTracerProvider(tp)))
	r.Use(chimw.RequestID, chimw.Recoverer)
	r.Post("/tools/search_orders", middleware.ToolFunc("search_orders", search, schema.Middleware))
	r.Get("/tools/search_orders", middleware.ToolFunc("search_orders", search, schema.Middleware))
	srv := httptest.NewServer(otelhttp.NewHandler(r, "tools", otelhttp.WithTracerProvider(tp)))
	t.Cleanup(srv.Close)
	return srv, spans
}

func post(t *testing.T, url, body, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/tools/search_orders", strings.NewReader(body))
	require.NoError(t, err)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

// TestHandlerReadsTheBytesSent: valid arguments reach the handler byte for
// byte, however they are written (spacing, key order, a number past 2^53).
func TestHandlerReadsTheBytesSent(t *testing.T) {
	schema, err := argcheck.Compile([]byte(`{"type":"object","properties":{"customer_id":{"type":"string"},"n":{"type":"integer"}}}`))
	require.NoError(t, err)
	var got []byte
	srv, _ := stack(t, schema, &got)
	body := " {\"n\" : 9007199254740993,\n \"customer_id\":\"c_\\u00e9\"} "
	res, _ := post(t, srv.URL, body, "")
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, body, string(got))
}

// TestViolationUnderARealStack: an invalid call is answered before the
// handler runs, with the request's own ids, the tool's name and a trace
// id, every string sanitized: a secret the agent put in the arguments
// does not come back in suggested_value, violations or example_request.
func TestViolationUnderARealStack(t *testing.T) {
	schema, err := argcheck.Compile([]byte(searchSchema))
	require.NoError(t, err)
	var got []byte
	srv, spans := stack(t, schema, &got)
	secret := "sk_live_51HxQk2eZvKYlo2C0aB1cD2eF3gH4iJ5kL6"
	res, body := post(t, srv.URL, `{"customer_id":"`+secret+`","Status":"shipped","limit":"5"}`, "")
	require.Equal(t, http.StatusBadRequest, res.StatusCode, string(body))
	assert.Nil(t, got, "the handler never ran")
	assert.NotContains(t, string(body), secret)
	assert.NoError(t, toolerr.Validate(body))
	e, err := toolerr.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "search_orders", e.Tool)
	assert.Equal(t, res.Header.Get("X-Request-Id"), e.RequestID)
	assert.NotEmpty(t, e.TraceID)
	var fields []string
	for _, v := range e.Violations {
		fields = append(fields, v.Field)
	}
	assert.ElementsMatch(t, []string{"/Status", "/limit"}, fields)
	require.NotNil(t, e.ExampleRequest)
	assert.Equal(t, "shipped", e.ExampleRequest.(map[string]any)["status"])

	// Nothing the agent sent reaches the span either.
	ended := spans.Ended()
	require.NotEmpty(t, ended)
	for _, s := range ended {
		for _, a := range s.Attributes() {
			assert.NotContains(t, a.Value.String(), secret)
		}
		for _, ev := range s.Events() {
			for _, a := range ev.Attributes {
				assert.NotContains(t, a.Value.String(), secret)
			}
		}
	}

	// The observation, as a runtime that asks for text gets it.
	res, body = post(t, srv.URL, `{"customer_id":"c","limit":"25"}`, "text/markdown")
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Equal(t, toolerr.ContentTypeMarkdown, res.Header.Get("Content-Type"))
	assert.Contains(t, string(body), "- suggested_value: `25`")
	res, body = post(t, srv.URL, `{"customer_id":"c","limit":0}`, "text/markdown")
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Contains(t, string(body), "- hint: Ask the user which limit \\(Results per page\\) to use, between 1 and 100.", "never raised to the minimum: the user is asked")
}

// TestMiddlewareLimitsAndSkips: a body over the limit is
// PAYLOAD_TOO_LARGE and never reaches the handler; a GET has no JSON
// arguments and passes unchecked.
func TestMiddlewareLimitsAndSkips(t *testing.T) {
	schema, err := argcheck.Compile([]byte(searchSchema), argcheck.WithMaxBytes(64))
	require.NoError(t, err)
	var got []byte
	srv, _ := stack(t, schema, &got)
	res, body := post(t, srv.URL, `{"customer_id":"`+strings.Repeat("x", 100)+`"}`, "")
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
	e, err := toolerr.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodePayloadTooLarge, e.Code)
	assert.Nil(t, got)

	res, err = http.Get(srv.URL + "/tools/search_orders")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
}

// TestDecode: Decode checks, then decodes; an outer MaxBytesReader's
// limit is PAYLOAD_TOO_LARGE; a value the schema allows but the type
// cannot hold is VALIDATION_FAILED at its pointer.
func TestDecode(t *testing.T) {
	schema, err := argcheck.Compile([]byte(`{"type":"object","properties":{"customer_id":{},"limit":{"type":"number"}}}`))
	require.NoError(t, err)
	req := func(body string) *http.Request {
		return httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	}
	args, err := argcheck.Decode[SearchArgs](req(`{"customer_id":"c","limit":5}`), schema)
	require.NoError(t, err)
	assert.Equal(t, SearchArgs{CustomerID: "c", Limit: 5}, args)

	_, err = argcheck.Decode[SearchArgs](req(`{"customer_id":"c","limit":2.5}`), schema)
	e, ok := toolerr.From(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, "/limit", e.Field)

	r := req(`{"customer_id":"` + strings.Repeat("x", 100) + `"}`)
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10)
	_, err = argcheck.Decode[SearchArgs](r, schema)
	e, ok = toolerr.From(err)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodePayloadTooLarge, e.Code)

	r = req(`{"customer_id":"c"}`)
	_, err = argcheck.Decode[SearchArgs](r, schema)
	require.NoError(t, err)
	again, _ := io.ReadAll(r.Body)
	assert.JSONEq(t, `{"customer_id":"c"}`, string(again), "the body is put back")
}
