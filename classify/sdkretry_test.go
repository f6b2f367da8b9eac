package classify

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// TestServerErrorsTheSDKsRetry checks the rule for 5xx outcomes no vendor
// code explains: retryable for the vendors whose SDKs retry them, on calls
// that may be repeated, and nowhere else (issue 14 §3).
func TestServerErrorsTheSDKsRetry(t *testing.T) {
	c := New(nil)
	if err := c.RegisterVendor("stripe", map[string]string{"resource_missing": toolerr.CodeNotFound}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		o         Outcome
		code      string
		retryable bool
		delay     time.Duration
	}{
		{"stripe GET 500, unknown code", Outcome{Method: http.MethodGet, Vendor: "stripe", VendorCode: "brand_new_error", Status: 500, Header: header("Retry-After", "5")},
			toolerr.CodeUpstreamUnavailable, true, 5 * time.Second},
		{"google DELETE 500, no code", Outcome{Method: http.MethodDelete, Vendor: "google", Status: 500}, toolerr.CodeUpstreamUnavailable, true, 0},
		{"anthropic keyed POST 500", Outcome{Method: http.MethodPost, Idempotent: true, Vendor: "anthropic", Status: 500}, toolerr.CodeUpstreamUnavailable, true, 0},
		{"openai PUT 512", Outcome{Method: http.MethodPut, Vendor: "openai", Status: 512}, toolerr.CodeUpstreamUnavailable, true, 0},
		{"aws HEAD 500", Outcome{Method: http.MethodHead, Vendor: "aws", Status: 500}, toolerr.CodeUpstreamUnavailable, true, 0},

		// Not by the rule.
		{"aws GET 512: the AWS SDKs retry 500, 502, 503 and 504 only", Outcome{Method: http.MethodGet, Vendor: "aws", Status: 512}, toolerr.CodeUpstreamUnclassified, false, 0},
		{"stripe POST 500 without a key", Outcome{Method: http.MethodPost, Vendor: "stripe", Status: 500}, toolerr.CodeUpstreamUnclassified, false, 0},
		{"unknown vendor GET 500", Outcome{Method: http.MethodGet, Vendor: "acme", Status: 500}, toolerr.CodeUpstreamUnclassified, false, 0},
		{"no vendor GET 500", Outcome{Method: http.MethodGet, Status: 500}, toolerr.CodeUpstreamUnclassified, false, 0},
		{"the vendor says do not retry", Outcome{Method: http.MethodGet, Vendor: "stripe", Status: 500, Header: header("Stripe-Should-Retry", "false")}, toolerr.CodeUpstreamUnclassified, false, 0},
		{"a local failure is ours", Outcome{Method: http.MethodGet, Vendor: "stripe", Status: 500, Local: true}, toolerr.CodeInternal, false, 0},
		{"a status row that names a code keeps it", Outcome{Method: http.MethodGet, Vendor: "openai", Status: 505}, toolerr.CodeUpstreamMisconfigured, false, 0},
		{"a mapped vendor code keeps its code", Outcome{Method: http.MethodGet, Vendor: "stripe", VendorCode: "resource_missing", Status: 500}, toolerr.CodeNotFound, false, 0},
		{"a 4xx is not a server error", Outcome{Method: http.MethodGet, Vendor: "stripe", Status: 418}, toolerr.CodeUpstreamUnclassified, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := c.Decide(tt.o)
			assert.Equal(t, tt.code, d.Code)
			assert.Equal(t, tt.retryable, d.Retryable)
			assert.Equal(t, tt.delay, d.Delay)
		})
	}
}
