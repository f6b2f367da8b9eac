package toolerrhuma_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// installed makes sure huma's constructors are toolerr's for the test.
func installed(t *testing.T) {
	t.Helper()
	api, _ := newMux(huma.DefaultConfig("Any", "1.0.0"), false)
	toolerrhuma.Install(api)
}

// TestConstructor checks what huma's constructors build once Install ran,
// outside any request: huma's statuses through the core's local rows, its
// details as violations with JSON pointers.
func TestConstructor(t *testing.T) {
	installed(t)
	cases := []struct {
		name   string
		err    huma.StatusError
		code   string
		status int
		fields []string
	}{
		{"404", huma.Error404NotFound("no such order"), toolerr.CodeNotFound, 404, nil},
		{"409", huma.Error409Conflict("locked"), toolerr.CodeConflict, 409, nil},
		{"429", huma.Error429TooManyRequests("slow down"), toolerr.CodeRateLimited, 429, nil},
		{"401", huma.Error401Unauthorized("who are you"), toolerr.CodeUnauthenticated, 401, nil},
		{"403", huma.Error403Forbidden("no"), toolerr.CodePermissionDenied, 403, nil},
		{"502 is the service's own", huma.Error502BadGateway("bad gateway"), toolerr.CodeInternal, 500, nil},
		{"503", huma.Error503ServiceUnavailable("down"), toolerr.CodeToolUnavailable, 503, nil},
		{"504", huma.Error504GatewayTimeout("slow"), toolerr.CodeToolTimeout, 504, nil},
		{"413", huma.Error413RequestEntityTooLarge("big"), toolerr.CodePayloadTooLarge, 413, nil},
		{"422 with details", huma.Error422UnprocessableEntity("validation failed",
			&huma.ErrorDetail{Location: "body.limit", Message: "expected number <= 100", Value: 987654},
			&huma.ErrorDetail{Location: "body.items[2].name", Message: "expected string"},
			&huma.ErrorDetail{Location: "body", Message: "expected object"},
			&huma.ErrorDetail{Location: "query.page", Message: "expected integer"},
			&huma.ErrorDetail{Location: "header.X-Api-Version", Message: "required header parameter is missing"},
		), toolerr.CodeValidationFailed, 400, []string{"/limit", "/items/2/name", "", "query.page", "header.X-Api-Version"}},
		{"400 with a detail", huma.Error400BadRequest("bad", &huma.ErrorDetail{Location: "path.id", Message: "too long"}),
			toolerr.CodeValidationFailed, 400, []string{"path.id"}},
		{"a toolerr error in the details", huma.Error500InternalServerError("x",
			toolerr.Default().New(toolerr.CodeRateLimited, "quota")), toolerr.CodeRateLimited, 429, nil},
		{"status 0", huma.NewError(0, ""), toolerr.CodeInternal, 500, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.status, tc.err.GetStatus())
			e, ok := toolerr.From(tc.err)
			require.True(t, ok, "the huma error wraps a toolerr error")
			assert.Equal(t, tc.code, e.Code)
			var fields []string
			for _, v := range e.Violations {
				fields = append(fields, v.Field)
				assert.Nil(t, v.SuggestedValue, "huma's echoed value is not a suggestion")
			}
			assert.Equal(t, tc.fields, fields)
			if len(tc.fields) > 0 {
				assert.Equal(t, tc.fields[0], e.Field)
			}
			body, err := json.Marshal(tc.err)
			require.NoError(t, err)
			parsed, err := toolerr.Parse(body)
			require.NoError(t, err, "%s", body)
			assert.Equal(t, tc.code, parsed.Code)
			assert.Empty(t, parsed.RequestID, "outside a request, no request id of its own")
			assert.NotContains(t, string(body), "987654", "huma's echoed value is not rendered")
		})
	}
}

// TestConstructorSanitizes checks that an error built outside a request
// renders without the secrets of its text.
func TestConstructorSanitizes(t *testing.T) {
	installed(t)
	err := huma.Error409Conflict("row locked on "+secretHost+" by "+secretToken, errors.New("password="+secretToken))
	body, jerr := json.Marshal(err)
	require.NoError(t, jerr)
	_, perr := toolerr.Parse(body)
	require.NoError(t, perr)
	assertClean(t, body)
	e, _ := toolerr.From(err)
	assert.ErrorContains(t, e.Unwrap(), "password=", "the cause stays for the logs")
}

// TestConcurrentRepairs sends rejected bodies to one operation from many
// goroutines: the schema is compiled once and every answer is repaired.
func TestConcurrentRepairs(t *testing.T) {
	srv := serve(t, mounts[0], true)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			body := fmt.Sprintf(`{"query":"q%d","limit":%d}`, i, 200+i)
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/orders/search", stringsReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			var e toolerr.Error
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				errs <- err
				return
			}
			if fmt.Sprint(e.SuggestedValue) != "100" || e.Field != "/limit" {
				errs <- fmt.Errorf("call %d: field %q suggested %v", i, e.Field, e.SuggestedValue)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

// TestBodyOverCap checks that a body longer than what the adapter keeps
// gets huma's violations and no repair.
func TestBodyOverCap(t *testing.T) {
	api, h := newChi(huma.DefaultConfig("Orders", "1.0.0"), true)
	registerTools(toolerrhuma.Install(api, toolerrhuma.WithMaxBodyBytes(16)))
	srv := startServer(t, h)
	resp, body := call(t, http.MethodPost, srv.URL+"/orders/search", `{"query":"boots and more","limit":500}`)
	e := assertError(t, resp, body, http.StatusBadRequest, toolerr.CodeValidationFailed)
	assert.Equal(t, "/limit", e.Field)
	require.Len(t, e.Violations, 1)
	assert.Nil(t, e.SuggestedValue)
	assert.Nil(t, e.ExampleRequest)
}
