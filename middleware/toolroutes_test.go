package middleware

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// okTool answers 200.
var okTool = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})

// notFoundOf sends a request and returns its TOOL_NOT_FOUND error, parsed,
// and the body.
func notFoundOf(t *testing.T, method, url string) (*toolerr.Error, string) {
	t.Helper()
	resp, body := do(t, method, url, nil, "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "%s", body)
	problem(t, body)
	e, err := toolerr.Parse(body)
	require.NoError(t, err)
	require.Equal(t, toolerr.CodeToolNotFound, e.Code, "%s", body)
	return e, string(body)
}

// muxTools is a ServeMux of tools and the patterns it was given.
func muxTools() (*http.ServeMux, []string) {
	patterns := []string{
		"POST /tools/search_orders", "POST /tools/search_customers",
		"POST /tools/get_user", "POST /tools/set_user",
		"GET /tools/get_order", "/tools/echo", "GET /orders/{id}",
	}
	mux := http.NewServeMux()
	for _, p := range patterns {
		mux.Handle(p, okTool)
	}
	return mux, patterns
}

// TestToolRoutesServeMux: a ServeMux's 404 lists the nearest routes given
// with Routes; the suggestion only when one alone is meant; nothing for an
// unrelated path; the call's method respected.
func TestToolRoutesServeMux(t *testing.T) {
	mux, patterns := muxTools()
	url := serve(t, mux, WithToolRoutes(Routes(patterns...)))
	plain := serve(t, mux)

	for _, tc := range []struct {
		name, method, path string
		allowed            []string
		suggested          string
	}{
		{"near miss", "POST", "/tools/search_order", []string{"POST /tools/search_orders"}, "POST /tools/search_orders"},
		{"case", "POST", "/tools/Search_Orders", []string{"POST /tools/search_orders"}, "POST /tools/search_orders"},
		{"words reordered", "POST", "/tools/order_search", []string{"POST /tools/search_orders"}, ""},
		{"prefix missing", "POST", "/search_orders", []string{"POST /tools/search_orders"}, ""},
		{"ambiguous", "POST", "/tools/xet_user", []string{"POST /tools/get_user", "POST /tools/set_user"}, ""},
		{"path parameter", "GET", "/order/42", []string{"GET /orders/{id}"}, "GET /orders/{id}"},
		{"any method: the call's", "PUT", "/tools/ecko", []string{"PUT /tools/echo"}, "PUT /tools/echo"},
		{"HEAD takes GET routes", "HEAD", "/tools/get_ordr", []string{"GET /tools/get_order"}, "GET /tools/get_order"},
		{"GET route, POST call", "POST", "/tools/get_ordr", nil, ""},
		{"POST route, GET call", "GET", "/tools/search_order", nil, ""},
		{"unrelated", "POST", "/tools/weather_forecast", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.method == "HEAD" {
				resp, _ := do(t, tc.method, url+tc.path, nil, "")
				require.Equal(t, http.StatusNotFound, resp.StatusCode)
				tc.method = "GET" // a HEAD response has no body: GET reads the same routes
				tc.path = "/tools/get_ordr"
			}
			e, body := notFoundOf(t, tc.method, url+tc.path)
			if tc.allowed == nil {
				assert.Nil(t, e.AllowedValues, body)
				assert.Nil(t, e.SuggestedValue, body)
				// Unchanged: the error of the middleware without routes.
				want, _ := notFoundOf(t, tc.method, plain+tc.path)
				assert.Equal(t, want.Hint, e.Hint)
				assert.Equal(t, want.Detail, e.Detail)
				assert.Equal(t, want.Suggestions, e.Suggestions)
				return
			}
			assert.Equal(t, anySlice(tc.allowed), e.AllowedValues, body)
			assert.Empty(t, e.Field, "the route is no argument")
			obs := e.Observation()
			assert.Contains(t, obs, "\nallowed_values: "+jsonList(tc.allowed)+"\n")
			if tc.suggested == "" {
				assert.Nil(t, e.SuggestedValue, body)
				assert.NotContains(t, obs, "suggested_value")
				assert.Contains(t, e.Hint, "allowed_values")
				return
			}
			assert.Equal(t, tc.suggested, e.SuggestedValue)
			assert.Contains(t, obs, "\nsuggested_value: \""+tc.suggested+"\"\n")
			assert.Contains(t, e.Hint, "suggested_value")
		})
	}
}

// anySlice is ss as JSON decodes it.
func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// jsonList is ss as a JSON array.
func jsonList(ss []string) string {
	return `["` + strings.Join(ss, `","`) + `"]`
}

// TestToolRoutesChi: mounted in a chi router, or wrapping one, the
// middleware lists chi's routes itself, sub-routers included; a nil
// WithToolRoutes turns it off.
func TestToolRoutesChi(t *testing.T) {
	build := func(mws ...func(http.Handler) http.Handler) *chi.Mux {
		r := chi.NewRouter()
		r.Use(mws...) // chi takes middlewares before routes only
		r.Route("/tools", func(r chi.Router) {
			r.Post("/search_orders", okTool)
			r.Post("/refund_order", okTool)
		})
		r.Get("/orders/{id}", okTool)
		return r
	}
	for name, url := range map[string]string{
		"mounted inside": newServer(t, build(New(WithLogger(quiet)))),
		"wrapping":       serve(t, build()),
	} {
		t.Run(name, func(t *testing.T) {
			e, body := notFoundOf(t, "POST", url+"/tools/search_order")
			assert.Equal(t, "POST /tools/search_orders", e.SuggestedValue, body)
			e, body = notFoundOf(t, "POST", url+"/tools/refund")
			assert.Equal(t, []any{"POST /tools/refund_order"}, e.AllowedValues, body)
			assert.Nil(t, e.SuggestedValue)
			e, body = notFoundOf(t, "GET", url+"/order/7")
			assert.Equal(t, "GET /orders/{id}", e.SuggestedValue, body)
		})
	}
	off := serve(t, build(), WithToolRoutes(nil))
	e, body := notFoundOf(t, "POST", off+"/tools/search_order")
	assert.Nil(t, e.AllowedValues, body)
	assert.Nil(t, e.SuggestedValue, body)
}

// TestToolRoutesOnlyRouterMisses: a handler's own TOOL_NOT_FOUND (a
// dispatcher route) and a handler's 404 get no routes.
func TestToolRoutesOnlyRouterMisses(t *testing.T) {
	r := chi.NewRouter()
	r.Use(New(WithLogger(quiet)))
	r.Post("/tools/search_orders", okTool)
	r.Post("/dispatch/{tool}", func(w http.ResponseWriter, r *http.Request) {
		ReportError(r.Context(), toolerr.Default().New(toolerr.CodeToolNotFound, ""))
	})
	r.Get("/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "order not found", http.StatusNotFound)
	})
	url := newServer(t, r)

	e, body := notFoundOf(t, "POST", url+"/dispatch/search_order")
	assert.Nil(t, e.AllowedValues, body)
	resp, b := do(t, "GET", url+"/orders/search_orders", nil, "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	p := problem(t, b)
	assert.Equal(t, toolerr.CodeNotFound, p["code"])
	assert.NotContains(t, p, "allowed_values")
}

// TestToolRoutesReported: a framework adapter's routes (ReportRoutes) are
// used for its TOOL_NOT_FOUND; WithToolRoutes takes precedence; without
// the middleware ReportRoutes does nothing.
func TestToolRoutesReported(t *testing.T) {
	calls := 0
	adapter := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A framework's router found no route, as gin's NoRoute does.
		assert.True(t, ReportRoutes(r.Context(), func() []string {
			calls++
			return []string{"POST /tools/search_orders", "POST /tools/refund_order"}
		}))
		ReportError(r.Context(), toolerr.Default().New(toolerr.CodeToolNotFound, ""))
	})
	e, body := notFoundOf(t, "POST", serve(t, adapter)+"/tools/search_order")
	assert.Equal(t, "POST /tools/search_orders", e.SuggestedValue, body)
	assert.Equal(t, 1, calls)

	own := serve(t, adapter, WithToolRoutes(Routes("POST /tools/search_orderz")))
	e, body = notFoundOf(t, "POST", own+"/tools/search_order")
	assert.Equal(t, "POST /tools/search_orderz", e.SuggestedValue, body)
	assert.Equal(t, 1, calls, "the option's routes, not the adapter's")

	req, _ := http.NewRequest("POST", "/x", nil)
	assert.False(t, ReportRoutes(req.Context(), Routes("POST /x")))
}

// TestToolRoutesHostile: the request's path is never shown (a secret in
// it stays out of the body); a huge path, many routes, malformed routes
// and a panicking routes function cost the error its routes at most,
// never the response.
func TestToolRoutesHostile(t *testing.T) {
	const secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	routes := []string{
		"POST internal-billing.corp.example/tools/search_orders",
		"POST /tools/" + secret + "x", // a service's own route: shown, sanitized
		"POST /tools/refund\norder", "BAD METHOD /tools/x", "no-slash", "POST /tools/a b",
	}
	for i := range 5000 {
		routes = append(routes, fmt.Sprintf("POST /tools/tool_%04d", i))
	}
	logger, sink := newLogger()
	panics := func() []string { panic("routes unavailable") }
	url := serve(t, http.NotFoundHandler(), WithToolRoutes(Routes(routes...)))
	panicky := serve(t, http.NotFoundHandler(), WithToolRoutes(panics), WithLogger(logger))

	e, body := notFoundOf(t, "POST", url+"/tools/search_order")
	assert.Equal(t, "POST /tools/search_orders", e.SuggestedValue, "host dropped: %s", body)
	assert.NotContains(t, body, "internal-billing")
	assert.NotContains(t, body, "corp.example")

	_, body = notFoundOf(t, "POST", url+"/tools/search_order/"+secret)
	assert.NotContains(t, body, secret)
	assert.NotContains(t, body, secret[8:])

	// The nearest route is the one with the secret-like name: listed,
	// sanitized as every text is.
	e, body = notFoundOf(t, "POST", url+"/tools/"+secret)
	assert.NotNil(t, e.SuggestedValue, body)
	assert.NotContains(t, body, secret)
	assert.NotContains(t, body, secret[8:])

	e, body = notFoundOf(t, "POST", url+"/tools/tool_0001x")
	require.NotEmpty(t, e.AllowedValues, body)
	values := e.AllowedValues.([]any)
	assert.LessOrEqual(t, len(values), maxNearRoutes)
	assert.Equal(t, "POST /tools/tool_0001", values[0])
	_, body = notFoundOf(t, "POST", url+"/tools/tool_4999x")
	assert.NotContains(t, body, "tool_4999\"", "only the first 1024 routes are compared")

	e, body = notFoundOf(t, "POST", url+"/tools/"+strings.Repeat("search_orders", 8<<10))
	assert.Nil(t, e.AllowedValues, body)
	assert.Less(t, len(body), 4<<10, "the path is not echoed")

	e, body = notFoundOf(t, "POST", panicky+"/tools/search_order")
	assert.Nil(t, e.AllowedValues, body)
	assert.Len(t, sink.byMessage("toolerr: the tool routes function panicked; TOOL_NOT_FOUND lists no routes"), 1)
}

func TestParseRoute(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want toolRoute
		ok   bool
	}{
		{"POST /tools/x", toolRoute{"POST", "/tools/x"}, true},
		{"/tools/x", toolRoute{"", "/tools/x"}, true},
		{"  GET   example.com/orders/{id} ", toolRoute{"GET", "/orders/{id}"}, true},
		{"api.internal/x", toolRoute{"", "/x"}, true},
		{"get /x", toolRoute{}, false},
		{"GET x", toolRoute{}, false},
		{"GET /a b", toolRoute{}, false},
		{"GET /a\x00", toolRoute{}, false},
		{"GET /\xff", toolRoute{}, false},
		{"", toolRoute{}, false},
		{"GET /" + strings.Repeat("a", maxRoutePathLen), toolRoute{}, false},
	} {
		got, ok := parseRoute(tc.in)
		assert.Equal(t, tc.ok, ok, "%q", tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
	}
}

func TestRouteKey(t *testing.T) {
	req := strings.Split("/order/42/refunds", "/")
	for _, tc := range []struct{ route, key string }{
		{"/orders/{id}/refund", "/orders/42/refund"},
		{"/orders/:id/refund", "/orders/42/refund"},
		{"/orders/{id:[0-9]+}", "/orders/42"},
		{"/files/{path...}", "/files/{path...}"},
		{"/files/*", "/files/*"},
		{"/tools/{$}", "/tools/"},
		{"/a/b/c/{d}", "/a/b/c/{d}"}, // no segment of the request there
		{"/plain", "/plain"},
	} {
		assert.Equal(t, tc.key, routeKey(tc.route, req), tc.route)
	}
}

func TestSharedDirs(t *testing.T) {
	for _, tc := range []struct {
		path string
		keys []string
		cut  int
	}{
		{"/tools/search_order", []string{"/tools/search_orders", "/tools/get_user"}, len("/tools/")},
		{"/tools/search_order", []string{"/tools/search_orders", "/orders/1"}, 1},
		{"/tools/x", []string{"/tools/"}, 1},             // nothing would be left of the key
		{"/tools/", []string{"/tools/search_orders"}, 1}, // nor of the path
		{"/api/v1/tools/x", []string{"/api/v1/tools/y"}, len("/api/v1/tools/")},
		{"/x", []string{"/y"}, 1},
	} {
		assert.Equal(t, tc.cut, sharedDirs(tc.path, tc.keys), "%s %q", tc.path, tc.keys)
	}
}

// BenchmarkToolNotFound measures the TOOL_NOT_FOUND of a ServeMux with
// and without routes to compare with: 8 tools, and 1024.
func BenchmarkToolNotFound(b *testing.B) {
	mux, patterns := muxTools()
	many := make([]string, 1024)
	for i := range many {
		many[i] = fmt.Sprintf("POST /tools/tool_%04d", i)
	}
	req, _ := http.NewRequest("POST", "/tools/search_order", nil)
	b.Run("no_routes", func(b *testing.B) { runHandler(b, New(WithLogger(quiet))(mux), req) })
	b.Run("8_routes", func(b *testing.B) {
		runHandler(b, New(WithLogger(quiet), WithToolRoutes(Routes(patterns...)))(mux), req)
	})
	b.Run("1024_routes", func(b *testing.B) {
		runHandler(b, New(WithLogger(quiet), WithToolRoutes(Routes(many...)))(mux), req)
	})
}

// FuzzNearestRoutes: whatever the request's method and path (the client's)
// and the routes, the nearest are at most 5, each "METHOD /path" of a
// route that accepts the method, listed once, the suggested one first.
func FuzzNearestRoutes(f *testing.F) {
	f.Add("POST", "/tools/search_order", "POST /tools/search_orders\nGET /orders/{id}\n/tools/echo")
	f.Add("GET", "/order/42/refunds", "GET /orders/:id/refund\nGET /files/*\nGET /a/{$}")
	f.Add("HEAD", "/", "GET /\n/\nPOST x.example/")
	f.Add("PUT", "//..//%2F", "PUT //\nPUT /{a}/{b...}")
	f.Fuzz(func(t *testing.T, method, path, list string) {
		if len(list) > 1<<14 {
			return
		}
		patterns := strings.Split(list, "\n")
		near, suggested := nearestRoutes(method, path, patterns)
		if len(near) > maxNearRoutes {
			t.Fatalf("%d routes", len(near))
		}
		if suggested != "" && near[0] != suggested {
			t.Fatalf("suggested %q does not head %q", suggested, near)
		}
		seen := map[string]bool{}
		for _, v := range near {
			if seen[v] {
				t.Fatalf("%q twice", v)
			}
			seen[v] = true
			m, p, _ := strings.Cut(v, " ")
			found := false
			for _, pat := range patterns[:min(len(patterns), maxToolRoutes)] {
				if rt, ok := parseRoute(pat); ok && rt.accepts(method) && rt.path == p && (rt.method == m || rt.method == "" && m == method) {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("%q is no route for %s: %q", v, method, patterns)
			}
		}
	})
}
