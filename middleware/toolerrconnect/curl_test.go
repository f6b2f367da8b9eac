package toolerrconnect_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// TestHandWrittenConnectCall: under middleware.New, a Connect unary call
// without the Connect-Protocol-Version header (curl) is an HTTP tool's
// call to the middleware, answered as problem+json, sanitized; with the
// header it is Connect's JSON error. Neither leaks.
func TestHandWrittenConnectCall(t *testing.T) {
	h := middleware.New(middleware.WithLogger(quiet))(
		newService(t, "", connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet)))))
	url := startServer(t, h).URL
	for _, withHeader := range []bool{false, true} {
		req, err := http.NewRequest(http.MethodPost, url+procFail, strings.NewReader(`"not_found"`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if withHeader {
			req.Header.Set("Connect-Protocol-Version", "1")
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.NoError(t, res.Body.Close())
		assert.Equal(t, http.StatusNotFound, res.StatusCode)
		noLeak(t, string(body))
		if withHeader {
			assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
			assert.Contains(t, string(body), `"code":"not_found"`)
		} else {
			assert.Equal(t, toolerr.ContentTypeProblem, res.Header.Get("Content-Type"))
			assert.Contains(t, string(body), `"code":"NOT_FOUND"`)
		}
	}
}
