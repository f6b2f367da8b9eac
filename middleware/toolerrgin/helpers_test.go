package toolerrgin_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	os.Exit(m.Run())
}

// Secrets and internals that handlers leak on purpose, as an attacker
// would plant them: none may reach a client.
const (
	secretKey  = "sk_live_51HxQbZ2eZvKYlo2C7qkF9t3XyZabcdefGHIJ"
	secretDSN  = "postgres://admin:hunter2@db.prod.internal:5432/orders"
	secretCard = "4242 4242 4242 4242"
	dbHost     = "db.prod.internal"
	nginxPage  = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center></body></html>"
)

// leaks are texts no error body may hold: secrets, internal hosts, HTML,
// stack frames, Go's struct names from binding.
var leaks = []string{"sk_live_", "hunter2", dbHost, "4242 4242", "<html", "<h1", "goroutine ", ".go:", "runtime/panic",
	"Key: '", "bindArgs", "Error:Field validation"}

// serve starts a real gin engine, built by setup, on a loopback port.
func serve(t *testing.T, setup func(r *gin.Engine)) *httptest.Server {
	t.Helper()
	r := gin.New()
	setup(r)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

// call sends one request to srv and returns the response and its body.
func call(t *testing.T, srv *httptest.Server, method, path, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// wireError is the part of a rendered error the tests read.
type wireError struct {
	Status         int              `json:"status"`
	Code           string           `json:"code"`
	Detail         string           `json:"detail"`
	Field          string           `json:"field"`
	AllowedValues  any              `json:"allowed_values"`
	SuggestedValue any              `json:"suggested_value"`
	Violations     []map[string]any `json:"violations"`
	ExampleRequest map[string]any   `json:"example_request"`
	Details        map[string]any   `json:"details"`
	Hint           string           `json:"hint"`
	Tool           string           `json:"tool"`
	RequestID      string           `json:"request_id"`
	TraceID        string           `json:"trace_id"`
	Upstream       map[string]any   `json:"upstream"`
}

// requireError checks every promise of an error response: the status
// (never 2xx) is the error's, the body is a valid toolerr error with the
// code, request_id equals X-Request-Id, the tool is named, and nothing
// secret, internal, HTML or a stack reached the body.
func requireError(t *testing.T, resp *http.Response, body []byte, status int, code, tool string) wireError {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, "body: %s", body)
	require.GreaterOrEqual(t, resp.StatusCode, 400)
	require.NoError(t, toolerr.Validate(body), "body: %s", body)
	assert.Equal(t, "application/problem+json", resp.Header.Get("Content-Type"))
	var e wireError
	require.NoError(t, json.Unmarshal(body, &e))
	assert.Equal(t, status, e.Status)
	assert.Equal(t, code, e.Code, "body: %s", body)
	assert.NotEmpty(t, e.RequestID)
	assert.Equal(t, resp.Header.Get("X-Request-Id"), e.RequestID)
	assert.Len(t, resp.Header.Values("X-Request-Id"), 1)
	assert.Equal(t, tool, e.Tool, "body: %s", body)
	requireClean(t, body)
	return e
}

// requireClean checks that body holds none of the leaks.
func requireClean(t *testing.T, body []byte) {
	t.Helper()
	for _, l := range leaks {
		assert.NotContains(t, string(body), l)
	}
}

// jsonMarshal is json.Marshal.
func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
