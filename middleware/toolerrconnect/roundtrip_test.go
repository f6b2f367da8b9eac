package toolerrconnect_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// errorCase is one kind of failure and what every client must see of it.
type errorCase struct {
	kind      string
	code      connect.Code
	reason    string // ErrorInfo reason: the toolerr code
	category  toolerr.Category
	retryable bool
	retryMS   string // ErrorInfo retry_after_ms, "" for none
	field     string // BadRequest's first field, "" for none
	message   string // a part of the message the client must read
}

var errorCases = []errorCase{
	{kind: "validation", code: connect.CodeInvalidArgument, reason: toolerr.CodeValidationFailed,
		category: toolerr.CategoryValidation, field: "items[2].limit", message: "limit must be at most 100; got 500"},
	{kind: "not_found", code: connect.CodeNotFound, reason: toolerr.CodeNotFound,
		category: toolerr.CategoryNotFound, message: "order 42 not found on"},
	{kind: "connect_internal", code: connect.CodeInternal, reason: toolerr.CodeInternal,
		category: toolerr.CategoryInternal},
	{kind: "connect_unknown", code: connect.CodeUnknown, reason: toolerr.CodeInternal,
		category: toolerr.CategoryInternal},
	{kind: "go_error", code: connect.CodeInternal, reason: toolerr.CodeInternal,
		category: toolerr.CategoryInternal},
	{kind: "deadline", code: connect.CodeDeadlineExceeded, reason: toolerr.CodeToolTimeout,
		category: toolerr.CategoryTransient},
	{kind: "connect_deadline", code: connect.CodeDeadlineExceeded, reason: toolerr.CodeToolTimeout,
		category: toolerr.CategoryTransient, message: "the ledger took too long"},
	{kind: "many_violations", code: connect.CodeInvalidArgument, reason: toolerr.CodeValidationFailed,
		category: toolerr.CategoryValidation, field: "items[0]"},
	{kind: "unauthenticated", code: connect.CodeUnauthenticated, reason: toolerr.CodeUnauthenticated,
		category: toolerr.CategoryAuth, message: "token expired for"},
	{kind: "permission", code: connect.CodePermissionDenied, reason: toolerr.CodePermissionDenied,
		category: toolerr.CategoryPermission},
	{kind: "policy", code: connect.CodePermissionDenied, reason: toolerr.CodePolicyBlocked,
		category: toolerr.CategoryPolicy},
	{kind: "precondition", code: connect.CodeFailedPrecondition, reason: toolerr.CodePreconditionFailed,
		category: toolerr.CategoryPrecondition},
	{kind: "conflict", code: connect.CodeAborted, reason: toolerr.CodeConflict, category: toolerr.CategoryConflict},
	{kind: "cancelled", code: connect.CodeCanceled, reason: toolerr.CodeCancelled, category: toolerr.CategoryCancelled},
	{kind: "unavailable", code: connect.CodeUnavailable, reason: toolerr.CodeUpstreamUnavailable,
		category: toolerr.CategoryTransient, retryable: true},
	{kind: "rate_limited", code: connect.CodeResourceExhausted, reason: toolerr.CodeRateLimited,
		category: toolerr.CategoryRateLimit, retryable: true, retryMS: "12000", message: "slow down"},
	{kind: "local_retry", code: connect.CodeResourceExhausted, reason: toolerr.CodeRateLimited,
		category: toolerr.CategoryRateLimit, retryable: true, retryMS: "3000", field: "order.items[2].sku", message: "slow down"},
	{kind: "downstream", code: connect.CodeResourceExhausted, reason: toolerr.CodeRateLimited,
		category: toolerr.CategoryRateLimit, retryable: true, retryMS: "12000", message: "quota of"},
	{kind: "http_refused", code: connect.CodeUnavailable, reason: toolerr.CodeUpstreamUnavailable,
		category: toolerr.CategoryTransient, retryable: true},
	{kind: "down_refused", code: connect.CodeUnavailable, reason: toolerr.CodeUpstreamUnavailable,
		category: toolerr.CategoryTransient, retryable: true},
	{kind: "panic", code: connect.CodeInternal, reason: toolerr.CodeInternal, category: toolerr.CategoryInternal},
}

// servers starts the downstream and the service under test, with the
// interceptor, optionally under middleware.New.
func servers(t *testing.T, underMiddleware bool) string {
	down := startServer(t, newService(t, ""))
	var h http.Handler = newService(t, down.URL, connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet))))
	if underMiddleware {
		h = middleware.New()(h)
	}
	return startServer(t, h).URL
}

// TestErrorsRoundTrip drives every error kind through a real server with
// a real connect-go client in all three protocols, with and without the
// HTTP middleware around the service.
func TestErrorsRoundTrip(t *testing.T) {
	for _, mounted := range []bool{false, true} {
		url := servers(t, mounted)
		for _, p := range protocols {
			client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail, p.opts...)
			for _, tc := range errorCases {
				name := p.name + "/" + tc.kind
				if mounted {
					name = "middleware/" + name
				}
				t.Run(name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					_, err := client.CallUnary(ctx, connect.NewRequest(wrapperspb.String(tc.kind)))
					var ce *connect.Error
					require.ErrorAs(t, err, &ce)
					checkError(t, tc, ce.Code(), ce.Message(), connectDetails(t, ce), ce.Meta().Get("X-Request-Id"), procFail)
				})
			}
		}
	}
}

// checkError checks what a client read of one error: the code, a
// sanitized message and the details; requestID is the response's
// X-Request-Id.
func checkError(t *testing.T, tc errorCase, code connect.Code, msg string, d decoded, requestID, proc string) {
	t.Helper()
	assert.Equal(t, tc.code, code, "code")
	noLeak(t, msg)
	if tc.message != "" {
		assert.Contains(t, msg, tc.message)
	} else {
		assert.NotEmpty(t, msg)
	}
	require.NotNil(t, d.info, "ErrorInfo")
	assert.Equal(t, toolerrconnect.Domain, d.info.GetDomain())
	assert.Equal(t, tc.reason, d.info.GetReason())
	md := d.info.GetMetadata()
	assert.Equal(t, string(tc.category), md["category"])
	assert.Equal(t, map[bool]string{true: "true", false: "false"}[tc.retryable], md["retryable"])
	assert.Equal(t, proc, md["tool"])
	assert.True(t, toolerr.ValidRequestID(md["request_id"]), md["request_id"])
	assert.Equal(t, requestID, md["request_id"], "request_id is the response's X-Request-Id")
	assert.Equal(t, tc.retryMS, md["retry_after_ms"])
	for k, v := range md {
		noLeak(t, k+"="+v)
	}
	if tc.retryMS != "" {
		require.NotNil(t, d.retry, "RetryInfo")
		assert.Equal(t, tc.retryMS, itoa(d.retry.GetRetryDelay().AsDuration().Milliseconds()))
	} else {
		assert.Nil(t, d.retry)
	}
	if tc.field != "" {
		require.NotNil(t, d.bad, "BadRequest")
		require.NotEmpty(t, d.bad.GetFieldViolations())
		assert.Equal(t, tc.field, d.bad.GetFieldViolations()[0].GetField())
		assert.LessOrEqual(t, len(d.bad.GetFieldViolations()), toolerr.MaxViolations)
		for _, fv := range d.bad.GetFieldViolations() {
			noLeak(t, fv.GetDescription())
		}
	} else {
		assert.Nil(t, d.bad)
	}
	if d.localized != nil {
		noLeak(t, d.localized.GetMessage())
	}
	if d.resource != nil {
		noLeak(t, d.resource.String())
	}
	assert.Empty(t, d.others, "no detail of another type reaches the client")
}

// itoa formats n in decimal.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestSuccessPassesThrough: a successful call is the handler's, in every
// protocol, with and without the middleware.
func TestSuccessPassesThrough(t *testing.T) {
	for _, mounted := range []bool{false, true} {
		url := servers(t, mounted)
		for _, p := range protocols {
			client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail, p.opts...)
			res, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("ok")))
			require.NoError(t, err, p.name)
			assert.Equal(t, "ok:ok", res.Msg.GetValue(), p.name)
		}
	}
}
