package classify

import (
	"net/textproto"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every header name the classifier reads with headerValue is canonical, so
// that canonheader.Value(h, name) is h.Get(name).
func TestHeaderNamesCanonical(t *testing.T) {
	names := []string{"Cf-Mitigated", "X-Ratelimit-Remaining", "Stripe-Should-Retry", "X-Should-Retry"}
	for _, dh := range retryHeaders {
		names = append(names, dh.name)
	}
	for _, dh := range resetHeaders {
		names = append(names, dh.name)
	}
	for _, n := range names {
		assert.Equal(t, textproto.CanonicalMIMEHeaderKey(n), n)
	}
}
