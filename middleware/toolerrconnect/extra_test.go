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

// call sends kind to a server built from h and returns the client's error.
func call(t *testing.T, h http.Handler, kind string, opts ...connect.ClientOption) *connect.Error {
	url := startServer(t, h).URL
	client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail, opts...)
	_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String(kind)))
	var ce *connect.Error
	require.ErrorAs(t, err, &ce)
	return ce
}

// TestMountedTwice: a second interceptor outside the first sends the
// first one's error as it is: one ErrorInfo, the same request id.
func TestMountedTwice(t *testing.T) {
	inner := toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet))
	outer := toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet))
	ce := call(t, newService(t, "", connect.WithInterceptors(outer, inner)), "not_found")
	assert.Equal(t, connect.CodeNotFound, ce.Code())
	d := connectDetails(t, ce) // fails on a second ErrorInfo
	require.NotNil(t, d.info)
	assert.Equal(t, ce.Meta().Get("X-Request-Id"), d.info.GetMetadata()["request_id"])
	assert.Len(t, ce.Meta().Values("X-Request-Id"), 1)
}

// TestWithRecoverInside: connect.WithRecover given after the interceptor
// sees the panic first; its error, secret and all, is then converted.
func TestWithRecoverInside(t *testing.T) {
	called := false
	h := newService(t, "",
		connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet))),
		connect.WithRecover(func(_ context.Context, _ connect.Spec, _ http.Header, v any) error {
			called = true
			return connect.NewError(connect.CodeInternal, errors.New("recovered: "+dirty))
		}))
	ce := call(t, h, "panic")
	assert.True(t, called)
	assert.Equal(t, connect.CodeInternal, ce.Code())
	noLeak(t, ce.Message())
	assert.Equal(t, toolerr.CodeInternal, connectDetails(t, ce).info.GetReason())
}

// TestLocalErrorMeta: the metadata of a handler's own *connect.Error is
// sent sanitized; binary metadata is dropped; dropped details are gone.
func TestLocalErrorMeta(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			ce := call(t, newService(t, "", connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet)))),
				"local_retry", p.opts...)
			assert.NotEmpty(t, ce.Meta().Get("X-Debug"))
			noLeak(t, ce.Meta().Get("X-Debug"))
			assert.Empty(t, ce.Meta().Get("X-Blob-Bin"))
			d := connectDetails(t, ce)
			require.NotNil(t, d.resource, "ResourceInfo is kept, sanitized")
			assert.Equal(t, "order", d.resource.GetResourceType())
			noLeak(t, d.resource.GetDescription())
			assert.Empty(t, d.others, "DebugInfo and the Struct are dropped")
		})
	}
}

// TestNotModifiedPassesThrough: a Connect GET's 304 is a success, left
// alone.
func TestNotModifiedPassesThrough(t *testing.T) {
	icpt := toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet))
	var got error
	wrapped := icpt.WrapUnary(func(context.Context, connect.AnyRequest) (connect.AnyResponse, error) {
		return nil, connect.NewNotModifiedError(nil)
	})
	_, got = wrapped(context.Background(), connect.NewRequest(wrapperspb.String("x")))
	assert.True(t, connect.IsNotModifiedError(got))
}

// TestIncomingRequestIDKept: under middleware.New, a client's valid
// X-Request-Id is the error's request_id, exactly, even when it is all
// digits (the card rule leaves numbers that are no card alone); an id that
// is a card number is not echoed, since the sanitizer would mask it.
func TestIncomingRequestIDKept(t *testing.T) {
	h := middleware.New(middleware.WithLogger(quiet))(
		newService(t, "", connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet)))))
	url := startServer(t, h).URL
	for _, id := range []string{"1710403200123456", "req_client_1", "4242424242424242"} {
		client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail)
		req := connect.NewRequest(wrapperspb.String("not_found"))
		req.Header().Set("X-Request-Id", id)
		_, err := client.CallUnary(context.Background(), req)
		var ce *connect.Error
		require.ErrorAs(t, err, &ce)
		if id == "4242424242424242" {
			assert.NotEqual(t, id, ce.Meta().Get("X-Request-Id"))
			assert.NotContains(t, connectDetails(t, ce).info.GetMetadata()["request_id"], id)
			continue
		}
		assert.Equal(t, id, ce.Meta().Get("X-Request-Id"))
		assert.Equal(t, id, connectDetails(t, ce).info.GetMetadata()["request_id"])
	}
}

// TestChainOfToolerrServices: a service relays the error of a downstream
// that runs the interceptor too: the downstream's code and delay survive
// (read from its ErrorInfo and RetryInfo), its request id is the
// upstream's, and the request id is ours.
func TestChainOfToolerrServices(t *testing.T) {
	icpt := connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet)))
	down := startServer(t, newService(t, "", icpt))
	downClient := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), down.URL+procFail, connect.WithGRPC())
	mux := http.NewServeMux()
	mux.Handle(procFail, connect.NewUnaryHandler(procFail,
		func(ctx context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			_, err := downClient.CallUnary(ctx, connect.NewRequest(req.Msg))
			return nil, err
		}, icpt))
	for _, tc := range []struct {
		kind, code string
		connect    connect.Code
		retryMS    string
	}{
		{"rate_limited", toolerr.CodeRateLimited, connect.CodeResourceExhausted, "12000"},
		{"policy", toolerr.CodePolicyBlocked, connect.CodePermissionDenied, ""},
		{"conflict", toolerr.CodeConflict, connect.CodeAborted, ""},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			ce := call(t, mux, tc.kind)
			assert.Equal(t, tc.connect, ce.Code())
			d := connectDetails(t, ce)
			md := d.info.GetMetadata()
			assert.Equal(t, tc.code, d.info.GetReason())
			assert.Equal(t, tc.retryMS, md["retry_after_ms"])
			assert.Equal(t, toolerrconnect.Vendor, md["upstream_vendor"])
			assert.True(t, toolerr.ValidRequestID(md["upstream_request_id"]))
			assert.NotEqual(t, md["request_id"], md["upstream_request_id"])
			assert.Equal(t, ce.Meta().Get("X-Request-Id"), md["request_id"])
		})
	}
}
