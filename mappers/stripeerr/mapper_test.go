package stripeerr_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v82"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/stripeerr"
	"github.com/toolerr/toolerr/translate"
)

// stripeResponse is one of Stripe's documented error responses
// (docs.stripe.com/api/errors, docs.stripe.com/declines/codes).
type stripeResponse struct {
	status int
	header map[string]string
	body   string
}

// responses are keyed by the description of the payment intent the test
// creates.
var responses = map[string]stripeResponse{
	"insufficient-funds": {402, nil, `{"error": {"charge": "ch_3Q", "code": "card_declined",
		"decline_code": "insufficient_funds", "doc_url": "https://stripe.com/docs/error-codes/card-declined",
		"message": "Your card has insufficient funds.", "param": "", "type": "card_error"}}`},
	"fraudulent": {402, nil, `{"error": {"code": "card_declined", "decline_code": "fraudulent",
		"doc_url": "https://stripe.com/docs/error-codes/card-declined",
		"message": "Your card was declined.", "type": "card_error"}}`},
	"try-again": {402, nil, `{"error": {"code": "card_declined", "decline_code": "try_again_later",
		"message": "Your card was declined.", "type": "card_error"}}`},
	"missing-param": {400, nil, `{"error": {"code": "parameter_missing",
		"doc_url": "https://stripe.com/docs/error-codes/parameter-missing",
		"message": "Missing required param: amount.", "param": "amount", "type": "invalid_request_error"}}`},
	"bad-key": {401, nil, `{"error": {"message": "Invalid API Key provided: sk_test_****1234",
		"type": "invalid_request_error"}}`},
	"lock-timeout": {429, map[string]string{"Retry-After": "2"}, `{"error": {"code": "lock_timeout",
		"doc_url": "https://stripe.com/docs/error-codes/lock-timeout",
		"message": "This object cannot be accessed right now because another API request or Stripe process is currently accessing it.",
		"type": "invalid_request_error"}}`},
	"api-error-retry": {500, map[string]string{"Stripe-Should-Retry": "true"}, `{"error": {"message": "An unknown error occurred",
		"type": "api_error"}}`},
	"api-error-no-retry": {500, map[string]string{"Stripe-Should-Retry": "false"}, `{"error": {"message": "An unknown error occurred",
		"type": "api_error"}}`},
	"api-error": {500, nil, `{"error": {"message": "An unknown error occurred", "type": "api_error"}}`},
	"no-such-customer": {404, nil, `{"error": {"code": "resource_missing",
		"doc_url": "https://stripe.com/docs/error-codes/resource-missing",
		"message": "No such customer: 'cus_404'", "param": "customer", "type": "invalid_request_error"}}`},
}

// replay serves the responses as the Stripe API does (Request-Id,
// Stripe-Version, the Idempotency-Key of a write echoed back) and returns a
// real stripe-go client against it, its own retries off.
func replay(t testing.TB) *stripe.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		resp, ok := responses[r.PostForm.Get("description")]
		if !ok {
			resp = stripeResponse{404, nil, `{"error": {"message": "Unrecognized request URL.", "type": "invalid_request_error"}}`}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_"+r.PostForm.Get("description"))
		w.Header().Set("Stripe-Version", "2025-03-31.basil")
		if k := r.Header.Get("Idempotency-Key"); k != "" {
			w.Header().Set("Idempotency-Key", k)
		}
		for k, v := range resp.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(resp.status)
		_, _ = w.Write([]byte(resp.body))
	}))
	t.Cleanup(srv.Close)
	return stripe.NewClient("sk_test_toolerr", stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
		URL:               stripe.String(srv.URL),
		MaxNetworkRetries: stripe.Int64(0),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	})))
}

func TestStripeErrorsFromARealClient(t *testing.T) {
	sc := replay(t)
	c := classify.New(nil, classify.WithErrorMappers(stripeerr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	ctx := context.Background()
	calls := 0
	call := func(name string) *toolerr.Error {
		t.Helper()
		_, err := sc.V1PaymentIntents.Create(ctx, &stripe.PaymentIntentCreateParams{
			Amount: stripe.Int64(2000), Currency: stripe.String("usd"), Description: stripe.String(name),
		})
		calls++
		require.Error(t, err)
		_, typed := errors.AsType[*stripe.Error](err)
		require.True(t, typed, "%s: the SDK returns a *stripe.Error", name)
		e, ok := c.HandlerError(ctx, fmt.Errorf("charge: %w", err), http.MethodPost, false)
		require.True(t, ok, name)
		require.NotNil(t, e.Upstream, name)
		assert.Equal(t, stripeerr.Vendor, e.Upstream.Vendor, name)
		assert.Equal(t, "req_"+name, e.Upstream.RequestID, name)
		return e
	}

	e := call("insufficient-funds")
	assert.Equal(t, toolerr.CodePaymentRequired, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "card_declined", e.Upstream.Code)
	assert.Equal(t, 402, e.Upstream.Status)
	assert.Equal(t, "insufficient_funds", e.Details["decline_code"])
	assert.Equal(t, "https://stripe.com/docs/error-codes/card-declined", e.Details["doc_url"])

	e = call("fraudulent")
	assert.Equal(t, toolerr.CodePolicyBlocked, e.Code, "the decline code decides the class")
	assert.False(t, e.Retryable)
	assert.Equal(t, "card_declined", e.Upstream.Code)
	assert.Equal(t, "generic_decline", e.Details["decline_code"], "a concealed decline code is not relayed")

	e = call("try-again")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)

	e = call("missing-param")
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "amount", e.Field)
	assert.Equal(t, "parameter_missing", e.Upstream.Code)

	e = call("bad-key")
	assert.Equal(t, toolerr.CodeUnauthenticated, e.Code, "a bare invalid_request_error: the 401 decides")
	assert.Equal(t, "invalid_request_error", e.Upstream.Code)

	e = call("lock-timeout")
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 2*time.Second, e.RetryAfter)

	e = call("api-error-retry")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable, "Stripe-Should-Retry: true")

	e = call("api-error-no-retry")
	assert.False(t, e.Retryable, "Stripe-Should-Retry: false")

	e = call("api-error")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.False(t, e.Retryable, "an api_error without Stripe's word may have run: a POST is not repeated")
	_, err = sc.V1PaymentIntents.Create(ctx, &stripe.PaymentIntentCreateParams{Description: stripe.String("api-error")})
	require.Error(t, err)
	e, _ = c.HandlerError(ctx, err, http.MethodPost, true)
	require.NotNil(t, e)
	assert.True(t, e.Retryable, "an idempotent tool call may be repeated")

	e = call("no-such-customer")
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.Equal(t, "customer", e.Field)

	assert.Equal(t, len(responses), calls, "one attempt per call")
}

// TestErrorWithoutResponse: an error built by hand, with no response, is
// read from its fields.
func TestErrorWithoutResponse(t *testing.T) {
	c := classify.New(nil, classify.WithErrorMappers(stripeerr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	se := &stripe.Error{Type: stripe.ErrorTypeInvalidRequest, Code: stripe.ErrorCodeResourceMissing,
		HTTPStatusCode: 404, Msg: "No such customer", Param: "customer", RequestID: "req_1"}
	e, ok := c.HandlerError(context.Background(), fmt.Errorf("lookup: %w", se), http.MethodGet, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.Equal(t, "customer", e.Field)
	assert.Equal(t, "resource_missing", e.Upstream.Code)
	assert.Equal(t, "req_1", e.Upstream.RequestID)
}

// TestNotAStripeError: other errors are not the mapper's.
func TestNotAStripeError(t *testing.T) {
	_, ok := stripeerr.Mapper().MapError(errors.New("plain"))
	assert.False(t, ok)
}
