package toolerrhuma_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// refundTooLarge is a code of the service's own, in its registry only.
const refundTooLarge = "REFUND_TOO_LARGE"

// TestWithRegistry: the OpenAPI document of an installation given a
// registry lists that registry's codes, the service's own among them,
// with a response of its own; an installation with the defaults does not
// know the code.
func TestWithRegistry(t *testing.T) {
	reg := toolerr.NewRegistry(toolerr.Default())
	require.NoError(t, reg.Register(toolerr.Def{
		Code: refundTooLarge, Category: toolerr.CategoryValidation, Status: http.StatusUnprocessableEntity,
		Title: "The refund is larger than the payment", Hint: "Refund at most the refundable balance.",
		HumanHint: "That refund is larger than the payment.",
	}))
	for _, tc := range []struct {
		name string
		opts []toolerrhuma.Option
		want bool
	}{
		{"its own registry", []toolerrhuma.Option{toolerrhuma.WithRegistry(reg)}, true},
		{"the default registry", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api, h := newMux(huma.DefaultConfig("Refunds", "1.0.0"), true)
			registerTools(toolerrhuma.Install(api, tc.opts...))
			srv := startServer(t, h)
			_, body := call(t, http.MethodGet, srv.URL+"/openapi.json", "")
			var doc openAPIDoc
			require.NoError(t, json.Unmarshal(body, &doc))
			codes := codesOf(doc.Components.Codes)
			assert.Contains(t, codes, toolerr.CodeNotFound, "the built-in codes stay")
			assert.Equal(t, tc.want, slices.Contains(codes, refundTooLarge), "%v", codes)
			r, ok := doc.Components.Responses[refundTooLarge]
			require.Equal(t, tc.want, ok)
			if tc.want {
				e, err := toolerr.Parse(r.Content[toolerr.ContentTypeProblem].Example)
				require.NoError(t, err)
				assert.Equal(t, refundTooLarge, e.Code)
				assert.Equal(t, http.StatusUnprocessableEntity, e.Status)
			}
		})
	}
}

// TestWithSanitizer: without a toolerr middleware huma renders the error
// itself, cleaned by the installation's sanitizer: a value that sanitizer
// was told is secret leaves the detail, which the default sanitizer,
// knowing nothing of it, keeps.
func TestWithSanitizer(t *testing.T) {
	const secret = "swordfish-4711"
	for _, tc := range []struct {
		name string
		opts []toolerrhuma.Option
		kept bool
	}{
		{"its own sanitizer", []toolerrhuma.Option{toolerrhuma.WithSanitizer(sanitize.New(sanitize.WithSecrets(secret)))}, false},
		{"the default sanitizer", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api, h := newMux(huma.DefaultConfig("Orders", "1.0.0"), false)
			huma.Register(toolerrhuma.Install(api, tc.opts...), huma.Operation{OperationID: "lock-order", Method: http.MethodPost, Path: "/lock"},
				func(_ ctxT, _ *struct{}) (*struct{}, error) {
					return nil, huma.Error409Conflict("the order is locked with passphrase " + secret)
				})
			srv := startServer(t, h)
			resp, body := call(t, http.MethodPost, srv.URL+"/lock", "")
			e := assertError(t, resp, body, http.StatusConflict, toolerr.CodeConflict)
			assert.Contains(t, e.Detail, "the order is locked with passphrase")
			assert.Equal(t, tc.kept, strings.Contains(string(body), secret), "%s", body)
		})
	}
}
