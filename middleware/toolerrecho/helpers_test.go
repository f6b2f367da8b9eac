package toolerrecho_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrecho"
)

// quiet discards the middleware's log records in tests.
var quiet = slog.New(slog.DiscardHandler)

// Secrets and internals the handlers leak; none may reach a body.
const (
	stripeKey  = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	dbHost     = "db.prod.internal"
	panicValue = "nil map in refund for " + stripeKey + " at " + dbHost + ":5432"
)

// nginxPage is nginx's own 502 page.
const nginxPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n" +
	"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n"

// conflict is the *toolerr.Error a handler returns.
var conflict = toolerr.Default().New(toolerr.CodeConflict, "Order 42 was shipped already.").WithField("order_id")

// serve starts e on a loopback server and returns its URL.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// do sends a request and returns the response with its body read.
func do(t *testing.T, method, url string, header http.Header, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// problem checks the promises every error response keeps and returns its
// members: a failure status, a contract-valid body, the one request id,
// nothing secret, internal, HTML or a stack.
func problem(t *testing.T, resp *http.Response, body []byte) map[string]any {
	t.Helper()
	require.GreaterOrEqual(t, resp.StatusCode, 400, "a failure is never a success: %s", body)
	require.NoError(t, toolerr.Validate(body), "contract-valid body: %s", body)
	var p map[string]any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	require.NoError(t, d.Decode(&p))
	assert.Equal(t, strconv.Itoa(resp.StatusCode), str(p["status"]), "the response's status is the error's")
	assert.Len(t, resp.Header.Values("X-Request-Id"), 1, "one id")
	assert.Equal(t, resp.Header.Get("X-Request-Id"), str(p["request_id"]), "the same id in the header and the body")
	assert.True(t, toolerr.ValidRequestID(str(p["request_id"])))
	clean(t, body)
	return p
}

// str is v as a string, or "".
func str(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case json.Number:
		return s.String()
	}
	return ""
}

// clean asserts that body holds no secret, internal host, HTML or stack.
func clean(t *testing.T, body []byte) {
	t.Helper()
	s := string(body)
	for _, leak := range []string{stripeKey, "sk_live", dbHost, "<html", "<center", "goroutine ", ".go:", "panic("} {
		assert.NotContains(t, s, leak)
	}
}

// newEcho returns an echo with mws mounted and the routes of the tests.
func newEcho(mws ...echo.MiddlewareFunc) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(mws...)
	routes(e)
	return e
}

// newEchoPre returns an echo with mws mounted before routing (e.Pre) and
// the routes of the tests.
func newEchoPre(mws ...echo.MiddlewareFunc) *echo.Echo {
	e := echo.New()
	e.Pre(mws...)
	routes(e)
	return e
}

// toolerrMW is the middleware under test, quiet.
func toolerrMW(opts ...middleware.Option) echo.MiddlewareFunc {
	return toolerrecho.Middleware(append([]middleware.Option{middleware.WithLogger(quiet)}, opts...)...)
}
