package toolerrhuma_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// A fallback declared with middleware.WithFallbacks for an operation id
// is offered through huma, and the guard holds: no mutating fallback
// after an auth failure.
func TestFallbacksThroughHuma(t *testing.T) {
	type chargeInput struct {
		Code string `query:"code"`
	}
	router := chi.NewMux()
	router.Use(middleware.New(middleware.WithFallbacks("charge",
		toolerr.Fallback{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}, Mutates: true},
		toolerr.Fallback{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}})))
	api := toolerrhuma.Install(humachi.New(router, huma.DefaultConfig("Billing", "1.0.0")))
	huma.Register(api, huma.Operation{OperationID: "charge", Method: http.MethodPost, Path: "/tools/charge"},
		func(_ context.Context, in *chargeInput) (*struct{}, error) {
			return nil, toolerr.Default().New(in.Code, "")
		})
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	for code, want := range map[string][]string{
		toolerr.CodeUpstreamUnavailable: {"charge_backup", "charge_status"},
		toolerr.CodeUnauthenticated:     {"charge_status"},
	} {
		resp, err := http.Post(srv.URL+"/tools/charge?code="+code, "application/json", strings.NewReader("{}"))
		require.NoError(t, err)
		var got toolerr.Error
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
		_ = resp.Body.Close()
		assert.Equal(t, "charge", got.Tool)
		assert.Equal(t, want, toolerr.FallbackTools(&got), code)
		assert.Contains(t, got.Hint, "charge_status", code)
	}
}
