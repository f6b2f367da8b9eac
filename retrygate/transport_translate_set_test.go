package retrygate

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// TestWithTranslateSetDecidesWhatIsRetried: a Transport reads responses
// with the Set it is given. A 403 whose body says "busy_now" is a
// permission error to the built-in tables, and is not retried; with a Set
// whose translator maps the vendor's "busy_now" to RATE_LIMITED, it is.
func TestWithTranslateSetDecidesWhatIsRetried(t *testing.T) {
	busy := status(http.StatusForbidden, `{"code":"busy_now","message":"try later"}`, "Content-Type", "application/json")
	acme := &translate.Vendor{
		Name:      "acme",
		HostNames: []string{"127.0.0.1"},
		Parse: func(r *translate.Raw) (classify.Outcome, bool) {
			var body struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			}
			if json.Unmarshal(r.Body, &body) != nil || body.Code == "" {
				return classify.Outcome{}, false
			}
			return classify.Outcome{VendorCode: body.Code, Message: body.Message}, true
		},
		CodeTable: map[string]string{"busy_now": "RATE_LIMITED"},
	}
	set, err := translate.NewSet(nil, translate.WithTranslators(acme))
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		opts []Option
		hits int
	}{
		{"built-in tables", nil, 1},
		{"the vendor's translator", []Option{WithTranslateSet(set)}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newScripted(t, busy, ok200)
			p := DefaultPolicy()
			p.Clock = &sleepClock{}
			c := &http.Client{Transport: Transport(nil, append([]Option{WithPolicy(p)}, tc.opts...)...)}
			_, err := status0(t, c, srv.URL)
			require.NoError(t, err)
			assert.Len(t, srv.Hits(), tc.hits)
		})
	}
}
