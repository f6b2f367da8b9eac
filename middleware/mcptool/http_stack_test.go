package mcptool_test

// End-to-end tests of toolerr's promises in one production-shaped service:
// otelhttp with the real SDK around chi (with chi's RequestID), toolerr's
// middleware, HTTP tools, a ServeMux under a chi sub-route, idempotency,
// the duplicate guard and MCP over streamable HTTP, all in one loopback
// server (http_stack_rig_test.go). Each subtest is named for the break it
// tries. The MCP exits are in http_stack_mcp_test.go; idempotency and
// the handler's input in http_stack_idem_test.go.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestHTTPStackNothingSecretReachesTheAgent drives each hostile failure an
// HTTP tool can produce through the whole stack and checks, for each, the
// body, every response header, the log records of its request id and the
// spans of its trace: no secret anywhere, no internal address or stack
// trace where the agent reads, and the answer's ids are the stack's own.
func TestHTTPStackNothingSecretReachesTheAgent(t *testing.T) {
	rig := newHSRig(t)

	t.Run("tool error with a secret in every member", func(t *testing.T) {
		res := rig.do(t, "/tools/hostile_error", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
		assert.NotEmpty(t, p["field"], "the field is cleaned, not dropped")
		allowed, _ := p["allowed_values"].([]any)
		require.Len(t, allowed, 3, "allowed_values keeps its shape")
		assert.Equal(t, "visa", allowed[0])
		items, _ := p["errors"].([]any)
		require.Len(t, items, 1, "errors[] keeps its item")
		details, _ := p["details"].(map[string]any)
		for k, v := range hsBenign {
			assert.Equal(t, v, details[k], "benign %s survives", k)
		}
	})

	t.Run("raw HTML 500 with Java and Python traces and secret headers", func(t *testing.T) {
		res := rig.do(t, "/svc/raw_html_500", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.Empty(t, res.header.Values("Set-Cookie"), "the handler's cookie does not survive the replacement")
		assert.Empty(t, res.header.Values("X-Debug-Dsn"))
		assert.NotContains(t, string(res.body), "<pre>")
	})

	t.Run("vendor JSON 402 with a live key in its Request-Id", func(t *testing.T) {
		res := rig.do(t, "/svc/vendor_402", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.Equal(t, http.StatusPaymentRequired, res.status)
		up, _ := p["upstream"].(map[string]any)
		require.NotNil(t, up, "Stripe is evidenced by its Request-Id and body: %s", res.body)
		assert.Equal(t, "stripe", up["vendor"])
		assert.NotContains(t, up, "request_id", "a vendor id holding a key is dropped, not half-redacted")
		assert.Empty(t, res.header.Values("Request-Id"), "the vendor's id header does not reach the agent")
	})

	t.Run("invalid UTF-8 bytes shield a GitHub token", func(t *testing.T) {
		res := rig.do(t, "/tools/invalid_utf8", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.NotContains(t, string(res.body), "ghp_", "no part of the token survives")
	})

	t.Run("UTF-16LE body with a BOM behind a ServeMux", func(t *testing.T) {
		res := rig.do(t, "/svc/utf16", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
	})

	t.Run("UTF-16LE body without a BOM", func(t *testing.T) {
		res := rig.do(t, "/tools/utf16_nobom", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
	})

	t.Run("panic whose value holds a key, a token, a DSN and a PEM block", func(t *testing.T) {
		res := rig.do(t, "/tools/panic", []byte(`{}`), nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.Equal(t, toolerr.CodeInternal, p["code"])
		assert.NotContains(t, string(res.body), "BEGIN RSA PRIVATE KEY")
		// The stack went to the operator, redacted: it exists and was checked.
		var stacks int
		for _, rec := range rig.logsFor(t, res.header.Get("X-Request-Id")) {
			if s, ok := rec["stack"].(string); ok && strings.Contains(s, "hsPanic") {
				stacks++
			}
		}
		assert.Equal(t, 1, stacks, "one log record keeps the redacted stack")
	})

	t.Run("every log record and span of the service", rig.sweep)
}

// TestHTTPStackRequestIDIsOurs tries to make an answer carry someone
// else's request id: the handler's own, a downstream's header on an error
// and on a success, a relayed toolerr body, and incoming ids. The
// X-Request-Id of every answer is chi's id of the request and the body's
// request_id; another service's id is at most upstream.request_id.
func TestHTTPStackRequestIDIsOurs(t *testing.T) {
	rig := newHSRig(t)

	t.Run("handler sets its own request id on the error", func(t *testing.T) {
		res := rig.do(t, "/tools/own_request_id", nil, nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.NotContains(t, string(res.body), "handler-own-77")
	})

	t.Run("downstream X-Request-Id on a raw 503", func(t *testing.T) {
		res := rig.do(t, "/tools/downstream_id_503", nil, nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.NotEqual(t, "downstream-req-77", p["request_id"])
	})

	t.Run("relayed toolerr body of a downstream", func(t *testing.T) {
		res := rig.do(t, "/tools/relay", nil, nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		up, _ := p["upstream"].(map[string]any)
		require.NotNil(t, up, "%s", res.body)
		assert.Equal(t, "down-42", up["request_id"], "the downstream's id is the upstream's")
	})

	t.Run("downstream X-Request-Id on a proxied 200", func(t *testing.T) {
		res := rig.do(t, "/tools/proxy_200", nil, nil)
		require.Equal(t, http.StatusOK, res.status)
		assert.Equal(t, `{"ok":true}`, string(res.body), "a success passes through")
		hsAssertOurID(t, res, nil)
		assert.Equal(t, []string{res.chiID}, res.header.Values("X-Request-Id"), "one X-Request-Id, ours")
	})

	t.Run("an agent's valid X-Request-Id is used everywhere alike", func(t *testing.T) {
		res := rig.do(t, "/tools/own_request_id", nil, http.Header{"X-Request-Id": {"agent-call-0042"}})
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.Equal(t, "agent-call-0042", p["request_id"], "TrustIncoming: chi adopted it, toolerr echoes chi's")
	})

	t.Run("an over-long incoming X-Request-Id is replaced, not echoed", func(t *testing.T) {
		long := strings.Repeat("a", 200)
		res := rig.do(t, "/tools/own_request_id", nil, http.Header{"X-Request-Id": {long}})
		p := rig.assertErrorExits(t, res)
		id := res.header.Get("X-Request-Id")
		assert.NotEqual(t, long, id)
		assert.True(t, toolerr.ValidRequestID(id), id)
		assert.Equal(t, id, p["request_id"])
	})

	t.Run("an incoming X-Request-Id holding a live key", func(t *testing.T) {
		res := rig.do(t, "/tools/own_request_id", nil, http.Header{"X-Request-Id": {"req_" + hsStripe}})
		p := rig.assertErrorExits(t, res)
		id := res.header.Get("X-Request-Id")
		assert.Equal(t, id, p["request_id"], "one id in the header and the body")
		assert.NotEmpty(t, rig.logsFor(t, id), "the operator's log has the id the agent got")
	})

	// chi's RequestID makes ids "<hostname>/<random>-<counter>" and adopts
	// an incoming X-Request-Id alike; on an EC2 host the hostname is
	// ip-10-1-2-3.ec2.internal. chi computes its prefix once at init, so the
	// incoming header stands in for that host here: the id toolerr gets
	// from chi is the same either way.
	t.Run("chi's id on an EC2 host names the internal host", func(t *testing.T) {
		ec2 := "ip-10-1-2-3.ec2.internal/Cwo9MeKE5n-000001"
		res := rig.do(t, "/tools/own_request_id", nil, http.Header{"X-Request-Id": {ec2}})
		require.Equal(t, ec2, res.chiID)
		id := res.header.Get("X-Request-Id")
		var p map[string]any
		require.NoError(t, json.Unmarshal(res.body, &p))
		assert.Equal(t, id, p["request_id"], "one id in the header and the body")
		for _, m := range []string{"ec2.internal", "ip-10-1-2-3"} {
			assert.NotContains(t, id, m, "X-Request-Id names the host")
			assert.NotContains(t, string(res.body), m, "the body names the host")
		}
		assert.NotEmpty(t, rig.logsFor(t, id), "the operator's log has the id the agent got")
	})

	t.Run("every log record and span of the service", rig.sweep)
}

// TestHTTPStackBenignIdentifiersSurvive tries to make the sanitizer eat
// what is not a secret: order ids, UUIDs, git SHAs, idempotency keys,
// public documentation URLs and a vendor's plain request id reach the
// agent exactly as the handler or vendor wrote them.
func TestHTTPStackBenignIdentifiersSurvive(t *testing.T) {
	rig := newHSRig(t)

	t.Run("identifiers in detail text are not redacted", func(t *testing.T) {
		res := rig.do(t, "/tools/benign_detail", nil, nil)
		p := rig.assertErrorExits(t, res)
		assert.Equal(t, hsBenignDetail, p["detail"])
		details, _ := p["details"].(map[string]any)
		for k, v := range hsBenign {
			assert.Equal(t, v, details[k], "benign %s survives", k)
		}
	})

	t.Run("a vendor's plain request id and doc URL are kept", func(t *testing.T) {
		res := rig.do(t, "/svc/vendor_402_benign", nil, nil)
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		up, _ := p["upstream"].(map[string]any)
		require.NotNil(t, up, "%s", res.body)
		assert.Equal(t, "req_9Xy7Zq2LmN", up["request_id"])
		details, _ := p["details"].(map[string]any)
		assert.Equal(t, "https://stripe.com/docs/error-codes/card-declined", details["doc_url"], "%s", res.body)
	})

	t.Run("every log record and span of the service", rig.sweep)
}
