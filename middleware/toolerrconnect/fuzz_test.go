package toolerrconnect_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// fuzzTypes are the detail types a fuzzed detail claims to be.
var fuzzTypes = []string{
	"type.googleapis.com/google.rpc.RetryInfo",
	"type.googleapis.com/google.rpc.ErrorInfo",
	"type.googleapis.com/google.rpc.BadRequest",
	"type.googleapis.com/google.rpc.QuotaFailure",
	"type.googleapis.com/google.rpc.RequestInfo",
	"type.googleapis.com/google.rpc.Help",
	"type.googleapis.com/google.rpc.DebugInfo",
	"type.googleapis.com/unknown.Type",
}

// FuzzMapError feeds the mapper a downstream's error with arbitrary
// details off the wire (any bytes, claiming any detail type) and a
// message: it never panics, the classified error is one of the registry's
// codes, its delay is within the classifier's cap and never negative, and
// a secret in the message never reaches the detail. The seed corpus is in
// testdata/fuzz/FuzzMapError.
func FuzzMapError(f *testing.F) {
	c := classify.New(nil, classify.WithErrorMappers(toolerrconnect.Mapper()))
	f.Fuzz(func(t *testing.T, code uint8, typ uint8, value []byte, msg string) {
		ce := connect.NewWireError(connect.Code(code%18), errors.New(msg+" "+secretKey))
		ce.AddDetail(mustDetail(t, &anypb.Any{TypeUrl: fuzzTypes[int(typ)%len(fuzzTypes)], Value: value}))
		e, ok := c.GoError(context.Background(), ce, "POST", false)
		require.True(t, ok)
		_, _, known := toolerr.Default().Kind(e.Code)
		require.True(t, known, e.Code)
		require.GreaterOrEqual(t, e.RetryAfter, time.Duration(0))
		require.LessOrEqual(t, e.RetryAfter, classify.DefaultMaxDelay)
		require.NotContains(t, e.Detail, secretKey)
		if e.Upstream != nil && e.Upstream.RequestID != "" {
			require.True(t, toolerr.ValidRequestID(e.Upstream.RequestID), e.Upstream.RequestID)
		}
	})
}
