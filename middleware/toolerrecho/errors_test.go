package toolerrecho_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// errorCase is one echo idiom of failing and what the agent must get.
type errorCase struct {
	name, method, path, body string
	code                     string
	status                   int
	tool                     string // the route template; "" for none
	check                    func(t *testing.T, resp *http.Response, p map[string]any)
}

// errorCases are the ways an echo handler fails, each through a real echo
// server and client.
func errorCases() []errorCase {
	jsonBody := func(t *testing.T, p map[string]any, field string) {
		t.Helper()
		vs, _ := p["violations"].([]any)
		if field == "" { // the arguments as a whole
			assert.NotContains(t, p, "field")
			if assert.Len(t, vs, 1) {
				assert.Equal(t, "", vs[0].(map[string]any)["field"])
			}
			return
		}
		assert.Equal(t, field, p["field"])
		if assert.Len(t, vs, 1) {
			v, _ := vs[0].(map[string]any)
			assert.Equal(t, field, v["field"])
		}
	}
	return []errorCase{
		{name: "a returned *toolerr.Error", method: "GET", path: "/orders/1",
			code: toolerr.CodeConflict, status: 409, tool: "/orders/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Equal(t, "order_id", p["field"])
				assert.Equal(t, "Order 42 was shipped already.", p["detail"])
			}},
		{name: "a wrapped *toolerr.Error", method: "POST", path: "/orders/1/refund",
			code: toolerr.CodeConflict, status: 409, tool: "/orders/:id/refund"},
		{name: "a *toolerr.Error as an HTTPError's message", method: "GET", path: "/quotes/1",
			code: toolerr.CodeConflict, status: 409, tool: "/quotes/:id"},
		{name: "echo.NewHTTPError(404, message)", method: "GET", path: "/orders/7",
			code: toolerr.CodeNotFound, status: 404, tool: "/orders/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Equal(t, "Order 7 does not exist.", p["detail"])
			}},
		{name: "the handler's own echo.ErrNotFound", method: "GET", path: "/orders/8",
			code: toolerr.CodeNotFound, status: 404, tool: "/orders/:id"},
		{name: "a 404 message carrying a secret and a host", method: "GET", path: "/orders/9",
			code: toolerr.CodeNotFound, status: 404, tool: "/orders/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Contains(t, p["detail"], "order 9 not found", "the message, sanitized")
			}},
		{name: "a 4xx message of HTML", method: "GET", path: "/pages/1",
			code: toolerr.CodeValidationFailed, status: 400, tool: "/pages/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Contains(t, p["detail"], "Bad page size")
				assert.NotContains(t, p["detail"], "<")
				assert.NotContains(t, p["detail"], "alert")
			}},
		{name: "echo.NewHTTPError(500, driver text)", method: "GET", path: "/reports/1",
			code: toolerr.CodeInternal, status: 500, tool: "/reports/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.NotContains(t, p["detail"], "pq:")
			}},
		{name: "an HTTPError's Internal error", method: "GET", path: "/labels/1",
			code: toolerr.CodeValidationFailed, status: 400, tool: "/labels/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Equal(t, "Label size must be A6.", p["detail"])
			}},
		{name: "an HTTPError with a success status", method: "GET", path: "/odd/1",
			code: toolerr.CodeInternal, status: 500, tool: "/odd/:id"},
		{name: "a plain error", method: "GET", path: "/refunds/1",
			code: toolerr.CodeInternal, status: 500, tool: "/refunds/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.NotContains(t, p["detail"], "refund failed")
			}},
		{name: "a context error", method: "GET", path: "/slow/1",
			code: toolerr.CodeToolTimeout, status: 504, tool: "/slow/:id"},
		{name: "an HTTPError whose cause is a deadline", method: "GET", path: "/timeout/1",
			code: toolerr.CodeToolTimeout, status: 504, tool: "/timeout/:id"},
		{name: "an HTTPError wrapping a failed outbound call", method: "GET", path: "/tracking/1",
			code: toolerr.CodeUpstreamUnavailable, status: 503, tool: "/tracking/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Equal(t, true, p["retryable"], "a refused connection: nothing ran, retry")
			}},
		{name: "echo.ErrTooManyRequests with Retry-After", method: "GET", path: "/busy/1",
			code: toolerr.CodeRateLimited, status: 429, tool: "/busy/:id",
			check: func(t *testing.T, resp *http.Response, p map[string]any) {
				assert.Equal(t, "7000", str(p["retry_after_ms"]))
				assert.Equal(t, "7", resp.Header.Get("Retry-After"))
			}},
		{name: "bind: malformed JSON", method: "POST", path: "/orders", body: `{"qty": 1,}`,
			code: toolerr.CodeValidationFailed, status: 400, tool: "/orders",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				jsonBody(t, p, "")
				assert.Contains(t, p["detail"], "not valid JSON")
			}},
		{name: "bind: a wrong type", method: "POST", path: "/orders", body: `{"qty": "ten"}`,
			code: toolerr.CodeValidationFailed, status: 400, tool: "/orders",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				jsonBody(t, p, "/qty")
				v := p["violations"].([]any)[0].(map[string]any)
				assert.Equal(t, map[string]any{"type": "integer"}, v["allowed_values"])
				assert.Equal(t, "must be an integer, not a string", v["reason"])
				assert.Contains(t, p["hint"], "qty")
			}},
		{name: "bind: not an object", method: "POST", path: "/orders", body: `[1, 2]`,
			code: toolerr.CodeValidationFailed, status: 400, tool: "/orders",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				jsonBody(t, p, "")
				assert.Equal(t, "The arguments must be an object, not an array.", p["detail"])
				assert.Equal(t, "Send the arguments as an object, then call again.", p["hint"])
			}},
		{name: "bind: a wrong type deep in the body", method: "POST", path: "/orders", body: `{"items": [{"qty": 1}, {"qty": true}]}`,
			code: toolerr.CodeValidationFailed, status: 400, tool: "/orders",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				// encoding/json names the field's path without array
				// indices ("items.qty"): the pointer is the schema's.
				jsonBody(t, p, "/items/qty")
				assert.Contains(t, p["detail"], "items/qty must be an integer, not a boolean")
			}},
		{name: "bind: a query parameter of the wrong type (echo.BindingError)", method: "GET", path: "/search?limit=ten",
			code: toolerr.CodeValidationFailed, status: 400, tool: "/search",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				jsonBody(t, p, "/limit")
				assert.Contains(t, p["violations"].([]any)[0].(map[string]any)["reason"], "int")
			}},
		{name: "a body over MaxBytesReader's limit", method: "POST", path: "/uploads", body: `{"qty": 1000000000}`,
			code: toolerr.CodePayloadTooLarge, status: 413, tool: "/uploads"},
		{name: "unknown route", method: "GET", path: "/no/such/tool",
			code: toolerr.CodeToolNotFound, status: 404},
		{name: "unknown route under a known prefix", method: "GET", path: "/orders/1/nope",
			code: toolerr.CodeToolNotFound, status: 404},
		{name: "a route of a group with middleware", method: "GET", path: "/api/orders/1",
			code: toolerr.CodeConflict, status: 409, tool: "/api/orders/:id"},
		{name: "unknown route in a group with middleware (echo's RouteNotFound)", method: "GET", path: "/api/nope",
			code: toolerr.CodeToolNotFound, status: 404},
		{name: "unknown route answered by e.RouteNotFound", method: "GET", path: "/legacy/orders",
			code: toolerr.CodeToolNotFound, status: 404},
		{name: "unknown route whose e.RouteNotFound writes its own 404", method: "GET", path: "/archive/2019",
			code: toolerr.CodeToolNotFound, status: 404},
		{name: "wrong method", method: "DELETE", path: "/orders/42",
			code: toolerr.CodeMethodNotAllowed, status: 405, tool: "/orders/:id",
			check: func(t *testing.T, resp *http.Response, p map[string]any) {
				allow := resp.Header.Get("Allow")
				assert.Contains(t, allow, "GET", "echo's Allow is kept")
				allowed, _ := p["allowed_values"].([]any)
				assert.Contains(t, allowed, "GET")
				assert.Len(t, allowed, len(strings.Split(allow, ",")))
			}},
		{name: "c.JSON(502, …) written directly", method: "GET", path: "/carriers/1",
			code: toolerr.CodeInternal, status: 500, tool: "/carriers/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.NotContains(t, p, "upstream", "no evidence of a downstream")
			}},
		{name: "c.HTML(502, nginx page) written directly", method: "GET", path: "/gateway/1",
			code: toolerr.CodeUpstreamUnavailable, status: 503, tool: "/gateway/:id",
			check: func(t *testing.T, _ *http.Response, p map[string]any) {
				assert.Equal(t, true, p["retryable"])
				assert.Equal(t, "nginx", p["upstream"].(map[string]any)["vendor"], "nginx's page is evidence of a gateway")
			}},
		{name: "a panic", method: "GET", path: "/panic/1",
			code: toolerr.CodeInternal, status: 500, tool: "/panic/:id"},
	}
}

// TestErrors: every echo idiom of failing reaches the agent as the error
// of its cause, with its code's status, a valid body, the one request id
// and the route's template as the tool, and nothing secret; mounted with
// e.Use, as documented, or with e.Pre, before echo routes.
func TestErrors(t *testing.T) {
	mounts := map[string]*echo.Echo{"Use": newEcho(toolerrMW()), "Pre": newEchoPre(toolerrMW())}
	for mount, e := range mounts {
		url := serve(t, e)
		for _, tc := range errorCases() {
			t.Run(mount+"/"+tc.name, func(t *testing.T) {
				header := http.Header{}
				if tc.body != "" {
					header.Set("Content-Type", "application/json")
				}
				resp, body := do(t, tc.method, url+tc.path, header, tc.body)
				assert.Equal(t, tc.status, resp.StatusCode, "%s", body)
				p := problem(t, resp, body)
				assert.Equal(t, tc.code, p["code"])
				if tc.tool == "" {
					assert.NotContains(t, p, "tool")
				} else {
					assert.Equal(t, tc.tool, p["tool"])
				}
				if tc.check != nil {
					tc.check(t, resp, p)
				}
			})
		}
	}
}
