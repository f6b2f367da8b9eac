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
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// TestConnectGET: a procedure without side effects called with Connect's
// GET (?connect=v1) under middleware.New keeps the protocol; a downstream
// UNAVAILABLE behind it is retryable, the procedure being idempotent, and
// not retryable behind a procedure that is not.
func TestConnectGET(t *testing.T) {
	down := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A Connect server answering every unary call with unavailable.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"code":"unavailable","message":"replica on ` + secretHost + ` down"}`))
	}))
	downClient := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), down.URL+procFail)
	relay := func(ctx context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
		_, err := downClient.CallUnary(ctx, connect.NewRequest(req.Msg))
		return nil, err
	}
	icpt := connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet)))
	const procGet = "/toolerr.test.v1.TestService/Get"
	mux := http.NewServeMux()
	mux.Handle(procGet, connect.NewUnaryHandler(procGet, relay, icpt, connect.WithIdempotency(connect.IdempotencyNoSideEffects)))
	mux.Handle(procFail, connect.NewUnaryHandler(procFail, relay, icpt))
	url := startServer(t, middleware.New(middleware.WithLogger(quiet))(mux)).URL

	cases := []struct {
		proc      string
		opts      []connect.ClientOption
		retryable bool
	}{
		{procGet, []connect.ClientOption{connect.WithHTTPGet(), connect.WithIdempotency(connect.IdempotencyNoSideEffects)}, true},
		{procFail, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.proc, func(t *testing.T) {
			client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+tc.proc, tc.opts...)
			_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("x")))
			var ce *connect.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, connect.CodeUnavailable, ce.Code())
			noLeak(t, ce.Message())
			md := connectDetails(t, ce).info.GetMetadata()
			assert.Equal(t, toolerr.CodeUpstreamUnavailable, connectDetails(t, ce).info.GetReason())
			assert.Equal(t, map[bool]string{true: "true", false: "false"}[tc.retryable], md["retryable"])
			assert.Equal(t, toolerrconnect.Vendor, md["upstream_vendor"])
			assert.Equal(t, "UNAVAILABLE", md["upstream_code"])
			assert.Equal(t, ce.Meta().Get("X-Request-Id"), md["request_id"])
		})
	}
}

// TestClientSidePassesThrough: on a client, the interceptor changes
// nothing: the server's error arrives as the server sent it.
func TestClientSidePassesThrough(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle(procFail, connect.NewUnaryHandler(procFail,
		func(context.Context, *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			return nil, connect.NewError(connect.CodeAborted, errors.New("raw words"))
		}))
	url := startServer(t, mux).URL
	for _, p := range protocols {
		opts := append([]connect.ClientOption{connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet)))}, p.opts...)
		client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail, opts...)
		_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("x")))
		var ce *connect.Error
		require.ErrorAs(t, err, &ce, p.name)
		assert.Equal(t, connect.CodeAborted, ce.Code(), p.name)
		assert.Equal(t, "raw words", ce.Message(), p.name)
		assert.Empty(t, ce.Details(), p.name)
		assert.True(t, connect.IsWireError(err), p.name)
	}
}
