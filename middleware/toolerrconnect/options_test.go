package toolerrconnect_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// serve starts a service whose Fail handler returns err, with the
// interceptor built from opts, and calls it.
func serve(t *testing.T, err error, opts ...toolerrconnect.Option) *connect.Error {
	mux := http.NewServeMux()
	mux.Handle(procFail, connect.NewUnaryHandler(procFail,
		func(context.Context, *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			return nil, err
		}, connect.WithInterceptors(toolerrconnect.NewInterceptor(append([]toolerrconnect.Option{toolerrconnect.WithLogger(quiet)}, opts...)...))))
	return call(t, mux, "x")
}

// TestWithRegistry: a service's own code, from its registry, keeps its
// code and its category's Connect code; its hint reaches the metadata.
func TestWithRegistry(t *testing.T) {
	reg := toolerr.NewRegistry(toolerr.Default())
	require.NoError(t, reg.Register(toolerr.Def{
		Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: toolerr.CategoryValidation, Status: http.StatusUnprocessableEntity,
		Title: "The amount exceeds what can be refunded", Hint: "Refund at most the refundable balance.",
		HumanHint: "That refund is larger than the payment.",
	}))
	ce := serve(t, reg.New("AMOUNT_EXCEEDS_REFUNDABLE", "").WithField("/amount"), toolerrconnect.WithRegistry(reg))
	assert.Equal(t, connect.CodeInvalidArgument, ce.Code())
	d := connectDetails(t, ce)
	assert.Equal(t, "AMOUNT_EXCEEDS_REFUNDABLE", d.info.GetReason())
	assert.Equal(t, "amount", d.bad.GetFieldViolations()[0].GetField())
	require.NotNil(t, d.localized)
	assert.Equal(t, "That refund is larger than the payment.", d.localized.GetMessage())
	assert.NotEmpty(t, d.info.GetMetadata()["hint"])
}

// TestWithSanitizer: the sanitizer given is the one applied: a value it
// was told is secret never leaves.
func TestWithSanitizer(t *testing.T) {
	san := sanitize.New(sanitize.WithSecrets("swordfish-42"))
	ce := serve(t, connect.NewError(connect.CodeNotFound, errors.New("no order for swordfish-42")), toolerrconnect.WithSanitizer(san))
	assert.Equal(t, connect.CodeNotFound, ce.Code())
	assert.NotContains(t, ce.Message(), "swordfish-42")
	assert.Contains(t, ce.Message(), "no order for")
}

// TestWithClassifier: a classifier of the service's own, built without
// Mapper, still classifies a downstream's error by the Connect code
// table, which the interceptor registers on it, RetryInfo included.
func TestWithClassifier(t *testing.T) {
	err := downstreamErr(t, "down_exhausted")
	ce := serve(t, err, toolerrconnect.WithClassifier(classify.New(nil)))
	assert.Equal(t, connect.CodeResourceExhausted, ce.Code())
	d := connectDetails(t, ce)
	assert.Equal(t, toolerr.CodeRateLimited, d.info.GetReason())
	assert.Equal(t, "12000", d.info.GetMetadata()["retry_after_ms"])
	noLeak(t, ce.Message())
}
