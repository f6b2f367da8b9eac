package toolerrconnect_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// A Connect handler returns a toolerr error; the interceptor sends it as
// a Connect error whose code, message and google.rpc details a client
// reads.
func ExampleNewInterceptor() {
	const procedure = "/orders.v1.OrderService/GetOrder"
	getOrder := func(ctx context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
		return nil, toolerr.Default().New(toolerr.CodeRateLimited, "Too many lookups.").WithRetryAfter(2 * time.Second)
	}
	mux := http.NewServeMux()
	mux.Handle(procedure, connect.NewUnaryHandler(procedure, getOrder,
		connect.WithInterceptors(toolerrconnect.NewInterceptor())))
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler)))(mux))
	defer srv.Close()

	client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](srv.Client(), srv.URL+procedure)
	_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("ord_1")))
	var ce *connect.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.Code(), ce.Message())
		for _, d := range ce.Details() {
			switch m, _ := d.Value(); m := m.(type) {
			case *errdetails.ErrorInfo:
				md := m.GetMetadata()
				fmt.Println(m.GetReason(), m.GetDomain(), md["category"], md["retryable"], md["retry_after_ms"])
				fmt.Println(md["request_id"] == ce.Meta().Get("X-Request-Id"))
			case *errdetails.RetryInfo:
				fmt.Println("retry in", m.GetRetryDelay().AsDuration())
			}
		}
	}
	// Output:
	// resource_exhausted Too many lookups.
	// RATE_LIMITED toolerr rate_limit true 2000
	// true
	// retry in 2s
}

// A *connect.Error from a downstream call, with RetryInfo, classified
// with its delay.
func ExampleMapper() {
	// What a Connect client returns for a downstream's
	// resource_exhausted with RetryInfo{12s}.
	err := connect.NewWireError(connect.CodeResourceExhausted, errors.New("slow down"))
	if d, derr := connect.NewErrorDetail(&errdetails.RetryInfo{RetryDelay: durationpb.New(12 * time.Second)}); derr == nil {
		err.AddDetail(d)
	}

	c := classify.New(nil, classify.WithErrorMappers(toolerrconnect.Mapper()))
	e, _ := c.GoError(context.Background(), fmt.Errorf("lookup: %w", err), http.MethodPost, false)
	fmt.Println(e.Code, e.Retryable, e.RetryAfter, e.Upstream.Vendor)
	// Output: RATE_LIMITED true 12s connect
}
