package middleware

import (
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// throttled stands for an SDK's typed rate-limit error.
type throttled struct{ retryAfter string }

func (throttled) Error() string { return "acme: too many requests" }

// TestTypedErrorsReachTheAgentClassified: a handler returns what its SDK or
// driver gave it, wrapped; the middleware classifies it through the
// classifier's mappers, the built-in ones and those of WithErrorMappers,
// instead of calling it INTERNAL_ERROR.
func TestTypedErrorsReachTheAgentClassified(t *testing.T) {
	acme := classify.MapperFunc(func(err error) (classify.Outcome, bool) {
		var th throttled
		if !errors.As(err, &th) {
			return classify.Outcome{}, false
		}
		return classify.Outcome{Vendor: "acme", Status: http.StatusTooManyRequests,
			Header: http.Header{"Retry-After": {th.retryAfter}}}, true
	})
	h := New(WithLogger(quiet), WithErrorMappers(acme))
	tool := func(err error) http.Handler {
		return h(Tool("sync_orders", func(http.ResponseWriter, *http.Request) error { return err }))
	}
	serve := func(hh http.Handler) *toolerr.Error {
		rec := httptest.NewRecorder()
		hh.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/sync_orders", strings.NewReader("{}")))
		e, err := toolerr.Parse(rec.Body.Bytes())
		require.NoError(t, err, rec.Body.String())
		return e
	}

	e := serve(tool(fmt.Errorf("load order: %w", sql.ErrNoRows)))
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.Equal(t, classify.VendorSQL, e.Upstream.Vendor)

	e = serve(tool(fmt.Errorf("sync: %w", throttled{retryAfter: "2"})))
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, int64(2000), e.RetryAfter.Milliseconds())
	assert.Equal(t, "acme", e.Upstream.Vendor)
	assert.Equal(t, "sync_orders", e.Tool)

	e = serve(tool(errors.New("some bug")))
	assert.Equal(t, toolerr.CodeInternal, e.Code, "an error no mapper knows is still the service's own")
}
