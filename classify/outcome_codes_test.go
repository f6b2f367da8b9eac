package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestDecideClassCode classifies by a finer vendor code when the table maps it, else by VendorCode.
func TestDecideClassCode(t *testing.T) {
	c := New(nil)
	require.NoError(t, c.RegisterVendor("stripe", map[string]string{
		"card_declined":   toolerr.CodePaymentRequired,
		"try_again_later": toolerr.CodeUpstreamUnavailable,
		"fraudulent":      toolerr.CodePolicyBlocked,
	}))
	cases := []struct {
		name, class, code string
		retryable         bool
		unmapped          bool
	}{
		{"no class code", "", toolerr.CodePaymentRequired, false, false},
		{"retryable decline", "try_again_later", toolerr.CodeUpstreamUnavailable, true, false},
		{"fraud", "fraudulent", toolerr.CodePolicyBlocked, false, false},
		{"unknown decline falls back", "brand_new_decline", toolerr.CodePaymentRequired, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := c.Decide(Outcome{Status: 402, Method: "POST", Vendor: "stripe", VendorCode: "card_declined", ClassCode: tc.class})
			assert.Equal(t, tc.code, d.Code)
			assert.Equal(t, RuleVendorCode, d.Rule)
			assert.Equal(t, tc.retryable, d.Retryable)
			assert.Equal(t, tc.unmapped, d.Unmapped)
		})
	}
	d := c.Decide(Outcome{Status: 402, Vendor: "stripe", VendorCode: "unknown_code", ClassCode: "also_unknown"})
	assert.True(t, d.Unmapped, "neither code mapped")
	assert.Equal(t, toolerr.CodePaymentRequired, d.Code, "the status decides")
}

// TestDecideGenericCode leaves a catch-all vendor code to the status without counting it as unmapped.
func TestDecideGenericCode(t *testing.T) {
	c := New(nil)
	require.NoError(t, c.RegisterVendor("stripe", map[string]string{"card_declined": toolerr.CodePaymentRequired}))
	for status, want := range map[int]string{401: toolerr.CodeUnauthenticated, 404: toolerr.CodeNotFound, 400: toolerr.CodeValidationFailed} {
		d := c.Decide(Outcome{Status: status, Vendor: "stripe", VendorCode: "invalid_request_error", GenericCode: true})
		assert.Equal(t, want, d.Code, "%d", status)
		assert.Equal(t, RuleStatus, d.Rule)
		assert.False(t, d.Unmapped, "%d", status)
	}
	d := c.Decide(Outcome{Status: 401, Vendor: "stripe", VendorCode: "invalid_request_error"})
	assert.True(t, d.Unmapped, "the same code, not marked generic, is unmapped")
}
