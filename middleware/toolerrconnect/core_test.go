package toolerrconnect_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// TestCoreLeavesRPCAlone is the bug report's scenario: a Connect service
// mounted under middleware.New() alone, no interceptor. Every client, in
// every protocol, reads the codes, messages and details the handler sent
// (before, a connect-go client read not_found as unimplemented,
// invalid_argument as internal and resource_exhausted as unavailable),
// and the response carries the middleware's X-Request-Id.
func TestCoreLeavesRPCAlone(t *testing.T) {
	codes := []connect.Code{connect.CodeNotFound, connect.CodeInvalidArgument, connect.CodeResourceExhausted}
	mux := http.NewServeMux()
	mux.Handle(procFail, connect.NewUnaryHandler(procFail,
		func(_ context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			for _, c := range codes {
				if req.Msg.GetValue() == c.String() {
					ce := connect.NewError(c, errors.New("the handler's words for "+c.String()))
					d, err := connect.NewErrorDetail(&errdetails.RetryInfo{RetryDelay: durationpb.New(12 * time.Second)})
					require.NoError(t, err)
					ce.AddDetail(d)
					return nil, ce
				}
			}
			return connect.NewResponse(wrapperspb.String("fine")), nil
		}))
	url := startServer(t, middleware.New(middleware.WithLogger(quiet))(mux)).URL
	for _, p := range protocols {
		client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail, p.opts...)
		for _, c := range codes {
			t.Run(p.name+"/"+c.String(), func(t *testing.T) {
				_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String(c.String())))
				var ce *connect.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, c, ce.Code())
				assert.Equal(t, "the handler's words for "+c.String(), ce.Message())
				d := connectDetails(t, ce)
				require.NotNil(t, d.retry)
				assert.Equal(t, 12*time.Second, d.retry.GetRetryDelay().AsDuration())
				assert.True(t, toolerr.ValidRequestID(ce.Meta().Get("X-Request-Id")))
			})
		}
		res, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("ok")))
		require.NoError(t, err, p.name)
		assert.Equal(t, "fine", res.Msg.GetValue())
	}
	// grpc-go's client too.
	conn := grpcConn(t, url[len("http://"):])
	for _, c := range codes {
		err := conn.Invoke(context.Background(), procFail, wrapperspb.String(c.String()), new(wrapperspb.StringValue))
		st, ok := statusOf(err)
		require.True(t, ok)
		assert.Equal(t, c, connect.Code(st.Code()))
		assert.Equal(t, "the handler's words for "+c.String(), st.Message())
	}
}
