package toolerrmcpgo_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// ledgerBusy is the typed error of a ledger SDK the tests make up: it
// knows its own retry delay, which only a mapper of it can read.
type ledgerBusy struct{ retryAfter string }

func (e *ledgerBusy) Error() string { return "ledger busy at " + dbHost }

// ledgerMapper maps a *ledgerBusy to a 429 with its Retry-After.
var ledgerMapper = classify.MapperFunc(func(err error) (classify.Outcome, bool) {
	var lb *ledgerBusy
	if !errors.As(err, &lb) {
		return classify.Outcome{}, false
	}
	return classify.Outcome{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {lb.retryAfter}}}, true
})

// ledgerServer is an MCP server, installed with opts, whose tool charge
// fails with err.
func ledgerServer(err error, opts ...toolerrmcpgo.Option) *server.MCPServer {
	s := server.NewMCPServer("ledger", "1.0.0")
	toolerrmcpgo.Install(s, append([]toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)}, opts...)...)
	s.AddTool(mcp.NewTool("charge", mcp.WithDescription("Charges the ledger.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, err
		})
	return s
}

// TestWithErrorMappers: a mapper given with WithErrorMappers decides the
// outcome of the typed error it knows, wrapped or not; without it the same
// error is an internal one; a classifier given with WithClassifier keeps
// its own mappers.
func TestWithErrorMappers(t *testing.T) {
	busy := &ledgerBusy{retryAfter: "7"}
	for _, err := range []error{busy, errors.Join(errors.New("charge"), busy)} {
		p := problemOf(t, callTool(t, ledgerServer(err, toolerrmcpgo.WithErrorMappers(ledgerMapper)), "charge", nil))
		assert.Equal(t, toolerr.CodeRateLimited, p["code"])
		assert.EqualValues(t, 7000, p["retry_after_ms"])
		assert.NotContains(t, p["detail"], dbHost)
	}
	for name, opts := range map[string][]toolerrmcpgo.Option{
		"no mapper":             nil,
		"classifier of its own": {toolerrmcpgo.WithClassifier(classify.New(nil)), toolerrmcpgo.WithErrorMappers(ledgerMapper)},
	} {
		p := problemOf(t, callTool(t, ledgerServer(busy, opts...), "charge", nil))
		assert.Equal(t, toolerr.CodeInternal, p["code"], name)
	}
}

// TestWithClassifier: the classifier given is the one that classifies a
// tool's Go error: one built with the ledger's mapper reads the ledger's
// typed error, where the default classifier knows nothing of it.
func TestWithClassifier(t *testing.T) {
	busy := &ledgerBusy{retryAfter: "3"}
	own := classify.New(nil, classify.WithErrorMappers(ledgerMapper))
	p := problemOf(t, callTool(t, ledgerServer(busy, toolerrmcpgo.WithClassifier(own)), "charge", nil))
	assert.Equal(t, toolerr.CodeRateLimited, p["code"])
	assert.EqualValues(t, 3000, p["retry_after_ms"])
	p = problemOf(t, callTool(t, ledgerServer(busy), "charge", nil))
	assert.Equal(t, toolerr.CodeInternal, p["code"])
}

// TestWithSanitizer: the sanitizer given cleans what reaches the client
// and what is logged: a value it was told is secret leaves both, where
// the default sanitizer, knowing nothing of it, keeps it in the detail.
func TestWithSanitizer(t *testing.T) {
	const secret = "swordfish-4711"
	locked := toolerr.Default().New(toolerr.CodeConflict, "the ledger is locked with passphrase "+secret)
	for _, tc := range []struct {
		name string
		opts []toolerrmcpgo.Option
		kept bool
	}{
		{"its own sanitizer", []toolerrmcpgo.Option{toolerrmcpgo.WithSanitizer(sanitize.New(sanitize.WithSecrets(secret)))}, false},
		{"the default sanitizer", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, logs := newLogger()
			res := callTool(t, ledgerServer(locked, append(tc.opts, toolerrmcpgo.WithLogger(logger))...), "charge", nil)
			p := problemOf(t, res)
			assert.Equal(t, toolerr.CodeConflict, p["code"])
			detail, _ := p["detail"].(string)
			assert.Contains(t, detail, "the ledger is locked with passphrase")
			assert.Equal(t, tc.kept, strings.Contains(detail, secret), detail)
			assert.Equal(t, tc.kept, strings.Contains(textOf(t, res), secret), textOf(t, res))
			require.NotEmpty(t, logs.failures(t), "one record of the failure")
			if !tc.kept {
				assert.NotContains(t, logs.String(), secret)
			}
		})
	}
}
