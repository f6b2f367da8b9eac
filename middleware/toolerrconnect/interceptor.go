package toolerrconnect

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"

	"connectrpc.com/connect"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// interceptor is the toolerr interceptor of Connect handlers, built by
// [NewInterceptor]. It is immutable and safe for concurrent use.
type interceptor struct {
	cfg     config
	clean   func(string) string
	san     *sanitize.Sanitizer
	metrics *toolmetrics.Set
}

var _ connect.Interceptor = (*interceptor)(nil)

// NewInterceptor returns the interceptor that gives Connect, gRPC and
// gRPC-Web handlers what the HTTP middleware gives HTTP tools: every error
// a handler returns, and every panic, leaves as a Connect error of the
// protocol's own wire format, with a code derived from the classified
// toolerr error ([CodeFor]; a handler's own *connect.Error keeps its
// code), a sanitized message, and the contract in google.rpc details
// (ErrorInfo, RetryInfo, BadRequest, LocalizedMessage, Help). Mount it in
// one line, on a handler:
//
//	mux.Handle(procedure, connect.NewUnaryHandler(procedure, getOrder,
//		connect.WithInterceptors(toolerrconnect.NewInterceptor())))
//
// Generated handlers take the same option:
// ordersv1connect.NewOrderServiceHandler(svc, connect.WithInterceptors(…)).
//
// Mount it first among the interceptors (outermost), so that it sees what
// every other one returns; a connect.WithRecover given after it sees the
// handler's panics first, and its error is then sanitized like any other.
// Successful calls pass through untouched. The interceptor is immutable
// and safe for concurrent use.
//
// On a client, the interceptor does nothing: calls and their errors pass
// through unchanged. A client's errors are read by [Mapper].
func NewInterceptor(opts ...Option) connect.Interceptor {
	cfg := newConfig(opts)
	return &interceptor{cfg: cfg, san: cfg.sanitizer, clean: newCleaner(cfg.sanitizer, cfg.registry),
		metrics: cfg.metrics}
}

// WrapUnary wraps a unary handler; a unary client call passes through.
func (i *interceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (res connect.AnyResponse, err error) {
		spec := req.Spec()
		if spec.IsClient {
			return next(ctx, req)
		}
		call := callInfo{spec: spec, method: req.HTTPMethod(), protocol: req.Peer().Protocol}
		i.metrics.Call(i.toolOf(call))
		defer func() {
			if v := recover(); v != nil {
				res, err = nil, i.recovered(ctx, call, v)
			}
		}()
		res, err = next(ctx, req)
		if err != nil {
			return nil, i.convert(ctx, call, err, nil)
		}
		return res, nil
	}
}

// WrapStreamingClient returns next unchanged: the interceptor serves
// handlers only.
func (i *interceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

// WrapStreamingHandler wraps a streaming handler: its returned error, or
// its panic, ends the stream as a converted Connect error, after whatever
// messages it sent.
func (i *interceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) (err error) {
		call := callInfo{spec: conn.Spec(), method: http.MethodPost, protocol: conn.Peer().Protocol}
		i.metrics.Call(i.toolOf(call))
		defer func() {
			if v := recover(); v != nil {
				err = i.recovered(ctx, call, v)
			}
		}()
		if err = next(ctx, conn); err != nil {
			return i.convert(ctx, call, err, nil)
		}
		return nil
	}
}

// callInfo is what the conversion of an error needs to know of the call.
type callInfo struct {
	spec     connect.Spec
	method   string
	protocol string
}

// panicInfo is a recovered panic: for the log only.
type panicInfo struct {
	value any
	stack []byte
}

// recovered turns a panic into an INTERNAL_ERROR Connect error: nothing
// of the panic value reaches the client; the value and the stack go to
// the log, redacted. http.ErrAbortHandler is panicked again, as net/http
// and connect.WithRecover expect.
func (i *interceptor) recovered(ctx context.Context, call callInfo, v any) error {
	if v == http.ErrAbortHandler { //nolint:errorlint // net/http compares with ==
		panic(v)
	}
	p := &panicInfo{value: v, stack: debug.Stack()}
	return i.convert(ctx, call, fmt.Errorf("panic: %v", v), p)
}
