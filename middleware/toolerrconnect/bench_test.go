package toolerrconnect_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// BenchmarkUnary serves a Connect unary call (protobuf, pre-built
// request) through the handler's ServeHTTP with a recorder: Connect
// alone, with the interceptor, and with the interceptor under
// middleware.New(); for a successful call (ok) and for a handler that
// returns connect.NewError(NotFound, …) (error).
func BenchmarkUnary(b *testing.B) {
	handler := func(ctx context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
		if req.Msg.GetValue() == "error" {
			return nil, connect.NewError(connect.CodeNotFound, errors.New("order 42 not found"))
		}
		return connect.NewResponse(wrapperspb.String("ok")), nil
	}
	icpt := toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet))
	stacks := []struct {
		name string
		h    http.Handler
	}{
		{"connect", connect.NewUnaryHandler(procFail, handler)},
		{"interceptor", connect.NewUnaryHandler(procFail, handler, connect.WithInterceptors(icpt))},
		{"middleware+interceptor", middleware.New(middleware.WithLogger(quiet))(
			connect.NewUnaryHandler(procFail, handler, connect.WithInterceptors(icpt)))},
	}
	for _, call := range []string{"ok", "error"} {
		body, err := proto.Marshal(wrapperspb.String(call))
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range stacks {
			b.Run(call+"/"+s.name, func(b *testing.B) {
				req := httptest.NewRequest(http.MethodPost, procFail, nil)
				want := http.StatusOK
				if call == "error" {
					want = http.StatusNotFound
				}
				b.ReportAllocs()
				for b.Loop() {
					// A new request's headers: the middleware stamps ids in
					// them, which a reused map would carry into the next.
					req.Header = http.Header{"Content-Type": {"application/proto"}, "Connect-Protocol-Version": {"1"}}
					req.Body = nopCloser{bytes.NewReader(body)}
					w := httptest.NewRecorder()
					s.h.ServeHTTP(w, req)
					if w.Code != want {
						b.Fatalf("status %d, want %d: %s", w.Code, want, w.Body)
					}
				}
			})
		}
	}
}

// nopCloser is a request body.
type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }
