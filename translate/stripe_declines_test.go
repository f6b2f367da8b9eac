package translate

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// stripeDecline classifies a card_declined 402 with decline through a Set.
func stripeDecline(t *testing.T, decline string) *toolerr.Error {
	t.Helper()
	keep := func(s string) string { return s }
	set, err := NewSet(classify.New(nil, classify.WithMessageFilter(keep)))
	require.NoError(t, err)
	r := devRaw(402, `{"error":{"type":"card_error","code":"card_declined","decline_code":"`+decline+`","message":"Your card was declined."}}`,
		"Request-Id", "req_decline")
	r.Host = "api.stripe.com"
	e := set.Classify(context.Background(), r)
	require.NotNil(t, e)
	return e
}

// TestStripeDeclineCodes classifies declines by decline_code: retryable, customer-fixable, or a policy refusal.
func TestStripeDeclineCodes(t *testing.T) {
	for _, decline := range []string{"try_again_later", "approve_with_id", "issuer_not_available", "processing_error", "reenter_transaction"} {
		e := stripeDecline(t, decline)
		assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code, decline)
		assert.True(t, e.Retryable, decline)
		assert.Equal(t, "card_declined", e.Upstream.Code, decline)
	}
	for _, decline := range []string{"insufficient_funds", "expired_card", "card_velocity_exceeded", "do_not_honor", "generic_decline"} {
		e := stripeDecline(t, decline)
		assert.Equal(t, toolerr.CodePaymentRequired, e.Code, decline)
		assert.False(t, e.Retryable, decline)
		assert.Equal(t, decline, e.Details["decline_code"], decline)
	}
	e := stripeDecline(t, "incorrect_cvc")
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	e = stripeDecline(t, "some_future_decline")
	assert.Equal(t, toolerr.CodePaymentRequired, e.Code, "an unknown decline code leaves the class to card_declined")
}

// TestStripeFraudDeclines refuses fraud and lost or stolen cards by policy, never retried, without accusing the user.
func TestStripeFraudDeclines(t *testing.T) {
	for _, decline := range []string{"fraudulent", "stolen_card", "lost_card", "pickup_card", "merchant_blacklist", "restricted_card", "security_violation"} {
		e := stripeDecline(t, decline)
		assert.Equal(t, toolerr.CodePolicyBlocked, e.Code, decline)
		assert.False(t, e.Retryable, decline)
		assert.Equal(t, "generic_decline", e.Details["decline_code"], "%s is not shown to the customer", decline)
		for _, text := range []string{e.HumanHint, e.Hint, e.Detail} {
			lower := strings.ToLower(text)
			for _, word := range []string{"fraud", "stolen", "lost", "blacklist", "pickup", "security"} {
				assert.NotContains(t, lower, word, "%s: %q", decline, text)
			}
		}
	}
}

// TestStripeTableAgrees checks that no decline code silently changes the class of an error code with the same name.
func TestStripeTableAgrees(t *testing.T) {
	for code, target := range stripeDeclineCodes {
		if own, ok := stripeCodes[code]; ok && own != target {
			assert.Equal(t, "currency_not_supported", code, "%s: %s as a decline, %s as an error code", code, target, own)
		}
	}
}
