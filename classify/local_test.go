package classify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestLocalCodeNeverBlamesADownstream reviews the local status table row
// by row: no status the service wrote itself gives an UPSTREAM_* code, a
// 4xx keeps a 4xx meaning, and the rows the application picks on purpose
// keep it.
func TestLocalCodeNeverBlamesADownstream(t *testing.T) {
	for status := 400; status <= 599; status++ {
		code := LocalCode(status)
		require.NotEmpty(t, code, "status %d", status)
		assert.False(t, strings.HasPrefix(code, "UPSTREAM_"), "status %d gives %s", status, code)
		_, _, ok := toolerr.Default().Kind(code)
		assert.True(t, ok, "status %d gives unregistered %s", status, code)
		if status < 500 && status != http.StatusProxyAuthRequired { // 407: the service's own egress proxy
			assert.NotEqual(t, toolerr.CodeInternal, code, "status %d: a 4xx is the caller's", status)
		}
	}
	for status, want := range map[int]string{
		400: toolerr.CodeValidationFailed, 401: toolerr.CodeUnauthenticated, 402: toolerr.CodePaymentRequired,
		403: toolerr.CodePermissionDenied, 404: toolerr.CodeNotFound, 405: toolerr.CodeMethodNotAllowed,
		408: toolerr.CodeToolTimeout, 409: toolerr.CodeConflict, 410: toolerr.CodeGone,
		412: toolerr.CodePreconditionFailed, 413: toolerr.CodePayloadTooLarge, 418: toolerr.CodeValidationFailed,
		421: toolerr.CodeToolUnavailable, 422: toolerr.CodeValidationFailed, 425: toolerr.CodeToolUnavailable,
		429: toolerr.CodeRateLimited, 451: toolerr.CodePolicyBlocked, 499: toolerr.CodeCancelled,
		500: toolerr.CodeInternal, 501: toolerr.CodeNotImplemented, 502: toolerr.CodeInternal,
		503: toolerr.CodeToolUnavailable, 504: toolerr.CodeToolTimeout, 505: toolerr.CodeInternal,
		507: toolerr.CodeQuotaExhausted, 520: toolerr.CodeInternal, 522: toolerr.CodeToolTimeout,
		599: toolerr.CodeToolTimeout, 407: toolerr.CodeInternal, 555: toolerr.CodeInternal,
	} {
		assert.Equal(t, want, LocalCode(status), "status %d", status)
	}
	assert.Empty(t, LocalCode(200))
	assert.Empty(t, LocalCode(600))
}

// TestLocalOutcome: a local outcome carries no upstream member, and its
// timeout is retryable only for an idempotent call.
func TestLocalOutcome(t *testing.T) {
	c := New(nil)
	ctx := context.Background()
	e := c.Classify(ctx, Outcome{Method: http.MethodGet, Status: 504, Local: true})
	assert.Equal(t, toolerr.CodeToolTimeout, e.Code)
	assert.Nil(t, e.Upstream)
	assert.True(t, e.Retryable)
	assert.False(t, c.Classify(ctx, Outcome{Method: http.MethodPost, Status: 504, Local: true}).Retryable)
	assert.True(t, c.Classify(ctx, Outcome{Method: http.MethodPost, Status: 504, Local: true, Idempotent: true}).Retryable)

	// A vendor table naming an UPSTREAM_* code is read locally too.
	require.NoError(t, c.RegisterVendor("oauth2", map[string]string{"temporarily_unavailable": toolerr.CodeUpstreamUnavailable}))
	e = c.Classify(ctx, Outcome{Status: 503, Vendor: "oauth2", VendorCode: "temporarily_unavailable", Local: true})
	assert.Equal(t, toolerr.CodeToolUnavailable, e.Code)
	assert.Nil(t, e.Upstream)

	// The same outcomes from a downstream are the downstream's.
	e = c.Classify(ctx, Outcome{Method: http.MethodGet, Status: 504})
	assert.Equal(t, toolerr.CodeUpstreamTimeout, e.Code)
	require.NotNil(t, e.Upstream)
}

// TestHandlerError: a handler's error blames a downstream only when it
// carries an outbound call.
func TestHandlerError(t *testing.T) {
	c := New(nil)
	ctx := context.Background()
	urlTimeout := &url.Error{Op: "Get", URL: "https://api.example.com/v1", Err: context.DeadlineExceeded}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "x", Name: "api.example.com", IsTemporary: true}}
	for _, tc := range []struct {
		name      string
		err       error
		method    string
		code      string
		retryable bool
	}{
		{"own deadline, GET", fmt.Errorf("loading: %w", context.DeadlineExceeded), "GET", toolerr.CodeToolTimeout, true},
		{"own deadline, POST", context.DeadlineExceeded, "POST", toolerr.CodeToolTimeout, false},
		{"cancelled", context.Canceled, "POST", toolerr.CodeCancelled, false},
		{"bare EOF: the request body ended", io.EOF, "POST", toolerr.CodeInternal, false},
		{"bare reset errno", syscall.ECONNRESET, "GET", toolerr.CodeInternal, false},
		{"request body too large", &http.MaxBytesError{Limit: 16}, "POST", toolerr.CodePayloadTooLarge, false},
		{"outbound timeout", fmt.Errorf("calling billing: %w", urlTimeout), "GET", toolerr.CodeUpstreamTimeout, true},
		{"outbound DNS", refused, "GET", toolerr.CodeUpstreamUnavailable, true},
		{"outbound reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, "GET", toolerr.CodeUpstreamUnavailable, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := c.HandlerError(ctx, tc.err, tc.method, false)
			require.True(t, ok)
			assert.Equal(t, tc.code, e.Code)
			assert.Equal(t, tc.retryable, e.Retryable)
			if !strings.HasPrefix(tc.code, "UPSTREAM_") {
				assert.NotContains(t, e.Detail, "downstream", "a local failure's detail names no downstream")
				assert.Nil(t, e.Upstream)
			}
		})
	}
	_, ok := c.HandlerError(ctx, errors.New("pq: deadlock detected"), "POST", false)
	assert.False(t, ok, "an unknown error is the caller's to decide")
}
