package toolerrconnect_test

import (
	"context"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// TestStreamErrors: a server-streaming handler's messages arrive, then its
// error, classified and sanitized, in all three protocols, with and
// without the middleware.
func TestStreamErrors(t *testing.T) {
	cases := []errorCase{
		errorCases[1],                 // not_found: the handler's own code and message
		errorCases[2],                 // connect_internal: a raw Go text, replaced
		errorCases[0],                 // validation: the field in BadRequest
		errorCases[len(errorCases)-1], // panic
	}
	for _, mounted := range []bool{false, true} {
		url := servers(t, mounted)
		for _, p := range protocols {
			client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procStream, p.opts...)
			for _, tc := range cases {
				t.Run(p.name+"/"+tc.kind, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					st, err := client.CallServerStream(ctx, connect.NewRequest(wrapperspb.String(tc.kind)))
					require.NoError(t, err)
					var got []string
					for st.Receive() {
						got = append(got, st.Msg().GetValue())
					}
					assert.Equal(t, []string{"msg0", "msg1"}, got)
					var ce *connect.Error
					require.ErrorAs(t, st.Err(), &ce)
					id := st.ResponseHeader().Get("X-Request-Id")
					if id == "" {
						id = st.ResponseTrailer().Get("X-Request-Id")
					}
					tcs := tc
					checkError(t, tcs, ce.Code(), ce.Message(), connectDetails(t, ce), id, procStream)
				})
			}
		}
	}
}
