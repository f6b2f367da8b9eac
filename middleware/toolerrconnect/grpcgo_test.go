package toolerrconnect_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// grpcConn dials srv with grpc-go over h2c.
func grpcConn(t *testing.T, url string) *grpc.ClientConn {
	conn, err := grpc.NewClient(url, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// grpcDetails decodes a status's details.
func grpcDetails(t *testing.T, st *status.Status) decoded {
	var msgs []proto.Message
	for _, d := range st.Details() {
		m, ok := d.(proto.Message)
		require.True(t, ok, "detail decodes: %v", d)
		msgs = append(msgs, m)
	}
	return decode(t, msgs)
}

// TestErrorsRoundTripGRPCGo: the same errors, read by grpc-go's own
// client, with and without the HTTP middleware.
func TestErrorsRoundTripGRPCGo(t *testing.T) {
	for _, mounted := range []bool{false, true} {
		srvURL := servers(t, mounted)
		conn := grpcConn(t, srvURL[len("http://"):])
		for _, tc := range errorCases {
			name := tc.kind
			if mounted {
				name = "middleware/" + name
			}
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				var header, trailer metadata.MD
				out := new(wrapperspb.StringValue)
				err := conn.Invoke(ctx, procFail, wrapperspb.String(tc.kind), out, grpc.Header(&header), grpc.Trailer(&trailer))
				st, ok := status.FromError(err)
				require.True(t, ok, "a status: %v", err)
				id := first("x-request-id", header, trailer)
				checkError(t, tc, connect.Code(st.Code()), st.Message(), grpcDetails(t, st), id, procFail)
			})
		}
	}
}

// first returns the first value of key in any of mds.
func first(key string, mds ...metadata.MD) string {
	for _, md := range mds {
		if v := md.Get(key); len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// TestStreamErrorsGRPCGo: a server stream's messages arrive, then its
// error, converted, in grpc-go's client.
func TestStreamErrorsGRPCGo(t *testing.T) {
	conn := grpcConn(t, servers(t, true)[len("http://"):])
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, procStream)
	require.NoError(t, err)
	require.NoError(t, st.SendMsg(wrapperspb.String("connect_internal")))
	require.NoError(t, st.CloseSend())
	var got []string
	for {
		m := new(wrapperspb.StringValue)
		if err = st.RecvMsg(m); err != nil {
			break
		}
		got = append(got, m.GetValue())
	}
	require.False(t, errors.Is(err, io.EOF), "the stream ends in an error")
	assert.Equal(t, []string{"msg0", "msg1"}, got)
	s, _ := status.FromError(err)
	assert.Equal(t, connect.CodeInternal, connect.Code(s.Code()))
	noLeak(t, s.Message())
	d := grpcDetails(t, s)
	require.NotNil(t, d.info)
	assert.Equal(t, procStream, d.info.GetMetadata()["tool"])
	header, _ := st.Header()
	id := first("x-request-id", header, st.Trailer())
	require.NotEmpty(t, id)
	assert.Equal(t, id, d.info.GetMetadata()["request_id"])
}

// statusOf is status.FromError.
func statusOf(err error) (*status.Status, bool) { return status.FromError(err) }
