package toolerrconnect_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// downstreamErr calls a real Connect server whose handler returns the
// error of kind, in protocol p, and returns the client's error.
func downstreamErr(t *testing.T, kind string, opts ...connect.ClientOption) error {
	down := startServer(t, newService(t, ""))
	c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), down.URL+procFail, opts...)
	_, err := c.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String(kind)))
	require.Error(t, err)
	return err
}

// TestMapperRetryInfo: a Connect server's ResourceExhausted with
// RetryInfo{12s}, read off the wire in each protocol, classifies as
// RATE_LIMITED, retryable after 12 000 ms (not a 1 s default), with the
// vendor's reason and request id upstream and its message sanitized.
func TestMapperRetryInfo(t *testing.T) {
	c := classify.New(nil, classify.WithErrorMappers(toolerrconnect.Mapper()))
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			err := downstreamErr(t, "down_exhausted", p.opts...)
			require.True(t, connect.IsWireError(err))
			e, ok := c.GoError(context.Background(), err, http.MethodPost, false)
			require.True(t, ok)
			assert.Equal(t, toolerr.CodeRateLimited, e.Code)
			assert.True(t, e.Retryable)
			assert.Equal(t, 12*time.Second, e.RetryAfter)
			require.NotNil(t, e.Upstream)
			assert.Equal(t, toolerrconnect.Vendor, e.Upstream.Vendor)
			assert.Equal(t, "RATE_LIMIT_EXCEEDED", e.Upstream.Code)
			assert.Equal(t, "req_down_1", e.Upstream.RequestID)
			assert.Contains(t, e.Detail, "quota of")
			noLeak(t, e.Detail)
		})
	}
}

// TestMapperUnderMiddleware: an HTTP tool that relays a Connect
// downstream's error, under middleware.New(WithErrorMappers(Mapper())),
// answers problem+json with the downstream's delay.
func TestMapperUnderMiddleware(t *testing.T) {
	down := startServer(t, newService(t, ""))
	client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), down.URL+procFail)
	tool := middleware.ToolFunc("charge", func(w http.ResponseWriter, r *http.Request) error {
		_, err := client.CallUnary(r.Context(), connect.NewRequest(wrapperspb.String("down_exhausted")))
		return err
	})
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(quiet),
		middleware.WithErrorMappers(toolerrconnect.Mapper()))(tool))
	defer srv.Close()
	res, err := http.Post(srv.URL, "application/json", nil)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	assert.Equal(t, "12", res.Header.Get("Retry-After"))
	var got map[string]any
	require.NoError(t, json.Unmarshal(body, &got))
	assert.Equal(t, toolerr.CodeRateLimited, got["code"])
	assert.Equal(t, float64(12000), got["retry_after_ms"])
	assert.Equal(t, true, got["retryable"])
	noLeak(t, string(body))
}

// TestMapperCodes: each Connect code a downstream sends, and what the
// mapper makes of it; UNAVAILABLE may have run, so it is retryable only
// for an idempotent call.
func TestMapperCodes(t *testing.T) {
	c := classify.New(nil, classify.WithErrorMappers(toolerrconnect.Mapper()))
	cases := []struct {
		code       connect.Code
		method     string
		want       string
		retryable  bool
		idempotent bool
	}{
		{connect.CodeNotFound, "POST", toolerr.CodeNotFound, false, false},
		{connect.CodeInvalidArgument, "POST", toolerr.CodeValidationFailed, false, false},
		{connect.CodeOutOfRange, "POST", toolerr.CodeValidationFailed, false, false},
		{connect.CodeUnauthenticated, "POST", toolerr.CodeUnauthenticated, false, false},
		{connect.CodePermissionDenied, "POST", toolerr.CodePermissionDenied, false, false},
		{connect.CodeFailedPrecondition, "POST", toolerr.CodePreconditionFailed, false, false},
		{connect.CodeAborted, "POST", toolerr.CodeConflict, false, false},
		{connect.CodeAlreadyExists, "POST", toolerr.CodeConflict, false, false},
		{connect.CodeResourceExhausted, "POST", toolerr.CodeRateLimited, true, false},
		{connect.CodeUnavailable, "POST", toolerr.CodeUpstreamUnavailable, false, false},
		{connect.CodeUnavailable, "POST", toolerr.CodeUpstreamUnavailable, true, true},
		{connect.CodeUnavailable, "GET", toolerr.CodeUpstreamUnavailable, true, false},
		{connect.CodeDeadlineExceeded, "POST", toolerr.CodeUpstreamTimeout, false, false},
		{connect.CodeInternal, "POST", toolerr.CodeUpstreamUnclassified, false, false},
		{connect.CodeUnknown, "POST", toolerr.CodeUpstreamUnclassified, false, false},
		{connect.CodeDataLoss, "POST", toolerr.CodeUpstreamUnclassified, false, false},
		{connect.CodeUnimplemented, "POST", toolerr.CodeNotImplemented, false, false},
		{connect.CodeCanceled, "POST", toolerr.CodeCancelled, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.code.String()+"/"+tc.method, func(t *testing.T) {
			o, ok := toolerrconnect.Mapper().MapError(connect.NewWireError(tc.code, errors.New("x")))
			require.True(t, ok)
			o.Method, o.Idempotent = tc.method, tc.idempotent
			e := c.Classify(context.Background(), o)
			assert.Equal(t, tc.want, e.Code)
			assert.Equal(t, tc.retryable, e.Retryable)
		})
	}
}

// TestMapperDetails: QuotaFailure makes RESOURCE_EXHAUSTED a spent quota;
// an ErrorInfo of the toolerr domain names the code; BadRequest gives the
// field; a detail of a type the binary lacks is skipped.
func TestMapperDetails(t *testing.T) {
	c := classify.New(nil, classify.WithErrorMappers(toolerrconnect.Mapper()))
	ctx := context.Background()

	quota := connect.NewWireError(connect.CodeResourceExhausted, errors.New("daily quota"))
	quota.AddDetail(mustDetail(t, &errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{{Subject: "project:1"}}}))
	e, _ := c.GoError(ctx, quota, "POST", false)
	assert.Equal(t, toolerr.CodeQuotaExhausted, e.Code)
	assert.False(t, e.Retryable)

	ours := connect.NewWireError(connect.CodeFailedPrecondition, errors.New("a duplicate"))
	ours.AddDetail(mustDetail(t, &errdetails.ErrorInfo{Reason: toolerr.CodeDuplicateAction, Domain: toolerrconnect.Domain,
		Metadata: map[string]string{"request_id": "req_abc_1"}}))
	e, _ = c.GoError(ctx, ours, "POST", false)
	assert.Equal(t, toolerr.CodeDuplicateAction, e.Code)
	assert.Equal(t, "req_abc_1", e.Upstream.RequestID)

	custom := connect.NewWireError(connect.CodeFailedPrecondition, errors.New("custom"))
	custom.AddDetail(mustDetail(t, &errdetails.ErrorInfo{Reason: "SOMETHING_NEW", Domain: toolerrconnect.Domain}))
	e, _ = c.GoError(ctx, custom, "POST", false)
	assert.Equal(t, toolerr.CodePreconditionFailed, e.Code, "an unknown reason leaves the Connect code to decide")

	bad := connect.NewWireError(connect.CodeInvalidArgument, errors.New("bad sku"))
	bad.AddDetail(mustDetail(t, &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
		{Field: "order.items[2].sku", Description: "unknown sku"}}}))
	e, _ = c.GoError(ctx, bad, "POST", false)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	require.Len(t, e.Violations, 1)
	assert.Equal(t, "/order/items/2/sku", e.Violations[0].Field)
}

// TestMapperDialRefused: a client call that could not connect is no wire
// error; the Go error decides: transient, and any call may be retried.
func TestMapperDialRefused(t *testing.T) {
	client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](http.DefaultClient, "http://"+freePort(t)+procFail)
	_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("x")))
	require.Error(t, err)
	require.False(t, connect.IsWireError(err))
	c := classify.New(nil, classify.WithErrorMappers(toolerrconnect.Mapper()))
	e, ok := c.GoError(context.Background(), err, http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CategoryTransient, e.Category)
	assert.True(t, e.Retryable, e.Code)
}

// TestMapperIgnoresOthers: errors without a *connect.Error are not the
// mapper's.
func TestMapperIgnoresOthers(t *testing.T) {
	_, ok := toolerrconnect.Mapper().MapError(errors.New("plain"))
	assert.False(t, ok)
	_, ok = toolerrconnect.Mapper().MapError(nil)
	assert.False(t, ok)
}
