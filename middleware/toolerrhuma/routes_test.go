package toolerrhuma_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// notFoundAt sends a request and returns its TOOL_NOT_FOUND, parsed.
func notFoundAt(t *testing.T, method, url string) (*toolerr.Error, string) {
	t.Helper()
	resp, body := call(t, method, url, "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "%s", body)
	require.NoError(t, toolerr.Validate(body), "%s", body)
	e, err := toolerr.Parse(body)
	require.NoError(t, err)
	require.Equal(t, toolerr.CodeToolNotFound, e.Code, "%s", body)
	return e, string(body)
}

// TestToolRoutes: the router's 404 lists the API's nearest operations:
// with humachi from chi's routes, with humago from Routes (a ServeMux
// cannot list its patterns), a prefix of humago.NewWithPrefix included;
// an unrelated path gets none.
func TestToolRoutes(t *testing.T) {
	goMux := func(prefix string) string {
		mux := http.NewServeMux()
		var api huma.API
		if prefix == "" {
			api = humago.New(mux, huma.DefaultConfig("Orders", "1.0.0"))
		} else {
			api = humago.NewWithPrefix(mux, prefix, huma.DefaultConfig("Orders", "1.0.0"))
		}
		api = toolerrhuma.Install(api)
		registerTools(api)
		return startServer(t, middleware.New(middleware.WithToolRoutes(toolerrhuma.Routes(api)))(mux)).URL
	}
	for name, url := range map[string]string{
		"humachi": serve(t, mounts[0], true).URL,
		"humago":  goMux(""),
	} {
		t.Run(name, func(t *testing.T) {
			e, body := notFoundAt(t, "POST", url+"/order/search")
			assert.Equal(t, "POST /orders/search", e.SuggestedValue, body)
			assert.Equal(t, []any{"POST /orders/search"}, e.AllowedValues, body)
			e, body = notFoundAt(t, "GET", url+"/order/abc")
			assert.Equal(t, "GET /orders/{id}", e.SuggestedValue, body)
			e, body = notFoundAt(t, "POST", url+"/weather/forecast")
			assert.Nil(t, e.AllowedValues, body)
			assert.Nil(t, e.SuggestedValue, body)
		})
	}
	e, body := notFoundAt(t, "POST", goMux("/api")+"/api/order/search")
	assert.Equal(t, "POST /api/orders/search", e.SuggestedValue, body)

	plain := serve(t, mounts[1], true).URL // humago without Routes
	e, body = notFoundAt(t, "POST", plain+"/order/search")
	assert.Nil(t, e.AllowedValues, body)
}

// TestToolRoutesHostile: a secret in the path never reaches the body; a
// 100 KB path gets no listing.
func TestToolRoutesHostile(t *testing.T) {
	url := serve(t, mounts[0], true).URL
	_, body := notFoundAt(t, "POST", url+"/order/search/"+secretToken)
	assert.NotContains(t, body, secretToken[8:])
	e, body := notFoundAt(t, "POST", url+"/order/"+strings.Repeat("search", 20<<10))
	assert.Nil(t, e.AllowedValues, body)
	assert.Less(t, len(body), 4<<10)
}

// TestRoutesListsOperations: Routes lists every operation of the
// document, sorted by path ("/orders/search" before "/orders/{id}").
func TestRoutesListsOperations(t *testing.T) {
	api, _ := newMux(huma.DefaultConfig("Orders", "1.0.0"), false)
	registerTools(toolerrhuma.Install(api))
	assert.Equal(t, []string{"POST /orders/search", "GET /orders/{id}"}, toolerrhuma.Routes(api)())
}
