package toolerrhuma_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// The secrets the handlers leak on purpose; no response may carry them.
const (
	secretToken = "sk_live_51HqLyjWDarjtT1zdp7dcXkZzq8Q2mN0bVvA"
	secretHost  = "orders-db.prod.internal"
	secretCard  = "4242424242424242"
)

// searchInput is a tool call with a JSON body.
type searchInput struct {
	Body struct {
		Query   string `json:"query" minLength:"1" doc:"What to search for"`
		Limit   int    `json:"limit" minimum:"1" maximum:"100" doc:"How many orders; more than 100 are capped to 100"`
		Carrier string `json:"carrier,omitempty" enum:"ups,fedex,dhl" doc:"Carrier"`
	}
}

type searchOutput struct {
	Body struct {
		Orders []string `json:"orders"`
	}
}

type orderInput struct {
	ID      string `path:"id" pattern:"^[a-z]+$" doc:"Order id"`
	Verbose int    `query:"verbose" minimum:"0" maximum:"2"`
}

type orderOutput struct {
	Body struct {
		ID string `json:"id"`
	}
}

// registerTools registers the operations every test serves.
func registerTools(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "search-orders", Method: http.MethodPost, Path: "/orders/search",
		Errors: []int{http.StatusTooManyRequests},
	}, func(ctx context.Context, in *searchInput) (*searchOutput, error) {
		if in.Body.Query == "forbidden words" {
			return nil, huma.Error422UnprocessableEntity("the search was refused",
				&huma.ErrorDetail{Location: "body.query", Message: "must not name a banned term", Value: in.Body.Query})
		}
		out := &searchOutput{}
		out.Body.Orders = []string{"o-1", "o-2"}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-order", Method: http.MethodGet, Path: "/orders/{id}",
		Errors: []int{http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *orderInput) (*orderOutput, error) {
		switch in.ID {
		case "missing":
			return nil, huma.Error404NotFound("order missing was not found")
		case "teapot":
			return nil, huma.Error409Conflict("order teapot is locked by " + secretHost)
		case "locked":
			return nil, toolerr.Default().New(toolerr.CodeConflict, "The order is locked by another update.").
				WithField("/id").WithDetails(map[string]any{"locked_by": "job-7"})
		case "secret":
			return nil, errors.New("dial tcp " + secretHost + ":5432: password=" + secretToken)
		case "panic":
			panic("card " + secretCard + " token " + secretToken)
		case "slow":
			return nil, fmt.Errorf("query orders on %s: %w", secretHost, context.DeadlineExceeded)
		case "html":
			return nil, huma.Error500InternalServerError("<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1><script>x()</script></body></html>")
		}
		out := &orderOutput{}
		out.Body.ID = in.ID
		return out, nil
	})
}

// mount is one way of serving a huma API.
type mount struct {
	name string
	// middleware says whether the toolerr middleware serves the API.
	middleware bool
	new        func(cfg huma.Config, mw bool) (huma.API, http.Handler)
}

// mounts are humachi on a chi router and humago on a ServeMux.
var mounts = []mount{
	{name: "humachi", middleware: true, new: newChi},
	{name: "humago", middleware: true, new: newMux},
}

func newChi(cfg huma.Config, mw bool) (huma.API, http.Handler) {
	r := chi.NewMux()
	if mw {
		r.Use(middleware.New())
	}
	return humachi.New(r, cfg), r
}

func newMux(cfg huma.Config, mw bool) (huma.API, http.Handler) {
	mux := http.NewServeMux()
	api := humago.New(mux, cfg)
	if mw {
		return api, middleware.New()(mux)
	}
	return api, mux
}

// serve starts a loopback server of the tools under m.
func serve(t *testing.T, m mount, mw bool) *httptest.Server {
	t.Helper()
	api, h := m.new(huma.DefaultConfig("Orders", "1.0.0"), mw)
	registerTools(toolerrhuma.Install(api))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// call sends one request and returns the response and its body.
func call(t *testing.T, method, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// ctxT is a handler's context type.
type ctxT = context.Context

// jsonUnmarshal decodes a body.
func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// startServer serves h on a loopback port for the test.
func startServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// reflectTypeOf is reflect.TypeOf.
func reflectTypeOf(v any) reflect.Type { return reflect.TypeOf(v) }

// stringsReader is strings.NewReader.
func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// installAPI is toolerrhuma.Install with the defaults.
func installAPI(api huma.API) huma.API { return toolerrhuma.Install(api) }
