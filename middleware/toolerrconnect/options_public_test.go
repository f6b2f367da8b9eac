package toolerrconnect_test

import (
	"errors"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// ledgerBusy is the typed error of a ledger SDK the tests make up: it
// knows its own retry delay, which only a mapper of it can read.
type ledgerBusy struct{ retryAfter string }

func (e *ledgerBusy) Error() string { return "ledger busy at " + secretHost }

// ledgerMapper maps a *ledgerBusy to a 429 with its Retry-After.
var ledgerMapper = classify.MapperFunc(func(err error) (classify.Outcome, bool) {
	var lb *ledgerBusy
	if !errors.As(err, &lb) {
		return classify.Outcome{}, false
	}
	return classify.Outcome{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {lb.retryAfter}}}, true
})

// TestWithErrorMappers: a mapper given with WithErrorMappers decides the
// outcome of the typed error it knows, wrapped or not, on the classifier
// the interceptor builds; without it the same error is an internal one;
// a classifier given with WithClassifier keeps its own mappers.
func TestWithErrorMappers(t *testing.T) {
	busy := &ledgerBusy{retryAfter: "7"}
	for _, err := range []error{busy, errors.Join(errors.New("charge"), busy)} {
		ce := serve(t, err, toolerrconnect.WithErrorMappers(ledgerMapper))
		assert.Equal(t, connect.CodeResourceExhausted, ce.Code())
		d := connectDetails(t, ce)
		assert.Equal(t, toolerr.CodeRateLimited, d.info.GetReason())
		assert.Equal(t, "7000", d.info.GetMetadata()["retry_after_ms"])
		noLeak(t, ce.Message())
	}

	for name, opts := range map[string][]toolerrconnect.Option{
		"no mapper":             nil,
		"classifier of its own": {toolerrconnect.WithClassifier(classify.New(nil)), toolerrconnect.WithErrorMappers(ledgerMapper)},
	} {
		ce := serve(t, busy, opts...)
		d := connectDetails(t, ce)
		assert.Equal(t, toolerr.CodeInternal, d.info.GetReason(), name)
		assert.Equal(t, connect.CodeInternal, ce.Code(), name)
		noLeak(t, ce.Message())
	}
}
