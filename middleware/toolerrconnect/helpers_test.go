package toolerrconnect_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
)

// Secrets and internal names a handler's error text carries in the
// tests; none may reach a client.
const (
	secretKey  = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	secretHost = "db.prod.internal:5432"
	secretCard = "4242424242424242"
)

// leaks are the strings that must never reach a client.
var leaks = []string{secretKey, "sk_live_", "db.prod.internal", secretCard, "hunter2", "goroutine ", ".go:"}

// The procedures of the test service.
const (
	procFail   = "/toolerr.test.v1.TestService/Fail"
	procStream = "/toolerr.test.v1.TestService/Stream"
)

// dirty is a handler's error text full of what must not leak.
const dirty = "pq: connection to " + secretHost + " failed: password=hunter2 key " + secretKey + " card " + secretCard

// mustDetail wraps m as a Connect error detail.
func mustDetail(t testing.TB, m proto.Message) *connect.ErrorDetail {
	d, err := connect.NewErrorDetail(m)
	require.NoError(t, err)
	return d
}

// failure returns the error the test handler returns for kind; down is
// the URL of a downstream Connect server, for the kinds that call it.
func failure(ctx context.Context, t testing.TB, kind, down string) error {
	reg := toolerr.Default()
	switch kind {
	case "ok":
		return nil
	case "validation":
		return reg.New(toolerr.CodeValidationFailed, "limit must be at most 100; got 500 ("+secretKey+")").
			WithField("/items/2/limit").
			WithViolations(toolerr.Violation{Field: "/items/2/limit", Reason: "must be at most 100 on " + secretHost})
	case "not_found":
		return connect.NewError(connect.CodeNotFound, errors.New("order 42 not found on "+secretHost))
	case "connect_internal":
		return connect.NewError(connect.CodeInternal, errors.New(dirty))
	case "connect_unknown":
		return connect.NewError(connect.CodeUnknown, errors.New(dirty))
	case "go_error":
		return errors.New(dirty)
	case "connect_deadline":
		return connect.NewError(connect.CodeDeadlineExceeded, errors.New("the ledger took too long"))
	case "many_violations":
		vs := make([]toolerr.Violation, 5000)
		for i := range vs {
			vs[i] = toolerr.Violation{Field: "/items/" + strconv.Itoa(i), Reason: "is invalid"}
		}
		return reg.New(toolerr.CodeValidationFailed, "").WithField("/items/0").WithViolations(vs...)
	case "deadline":
		return context.DeadlineExceeded
	case "unauthenticated":
		return reg.New(toolerr.CodeUnauthenticated, "token expired for "+secretKey)
	case "permission":
		return reg.New(toolerr.CodePermissionDenied, "")
	case "policy":
		return reg.New(toolerr.CodePolicyBlocked, "")
	case "precondition":
		return reg.New(toolerr.CodePreconditionFailed, "")
	case "conflict":
		return reg.New(toolerr.CodeConflict, "")
	case "cancelled":
		return reg.New(toolerr.CodeCancelled, "")
	case "unavailable":
		return reg.New(toolerr.CodeUpstreamUnavailable, "")
	case "rate_limited":
		return reg.New(toolerr.CodeRateLimited, "slow down").WithRetryAfter(12 * time.Second)
	case "local_retry":
		ce := connect.NewError(connect.CodeResourceExhausted, errors.New("slow down, "+secretHost+" is busy"))
		ce.AddDetail(mustDetail(t, &errdetails.RetryInfo{RetryDelay: durationpb.New(3 * time.Second)}))
		ce.AddDetail(mustDetail(t, &errdetails.DebugInfo{StackEntries: []string{"main.go:12"}, Detail: dirty}))
		ce.AddDetail(mustDetail(t, structpb.NewStringValue(dirty)))
		ce.AddDetail(mustDetail(t, &errdetails.ResourceInfo{ResourceType: "order", ResourceName: "orders/42 on " + secretHost, Description: dirty}))
		ce.AddDetail(mustDetail(t, &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "order.items[2].sku", Description: "unknown sku"}}}))
		ce.Meta().Set("X-Debug", dirty)
		ce.Meta().Set("X-Blob-Bin", "AAAA")
		return ce
	case "downstream":
		c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](http.DefaultClient, down+procFail)
		_, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.String("down_exhausted")))
		return err
	case "down_exhausted":
		ce := connect.NewError(connect.CodeResourceExhausted, errors.New("quota of "+secretHost+" exceeded"))
		ce.AddDetail(mustDetail(t, &errdetails.RetryInfo{RetryDelay: durationpb.New(12 * time.Second)}))
		ce.AddDetail(mustDetail(t, &errdetails.ErrorInfo{Reason: "RATE_LIMIT_EXCEEDED", Domain: "ledger.example.com",
			Metadata: map[string]string{"request_id": "req_down_1"}}))
		return ce
	case "http_refused":
		res, err := http.Get("http://" + freePort(t) + "/v1/charges")
		if err == nil {
			_ = res.Body.Close()
		}
		return err
	case "down_refused":
		c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](http.DefaultClient, "http://"+freePort(t)+procFail)
		_, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.String("x")))
		return err
	case "panic":
		panic("boom with " + secretKey + " at " + secretHost)
	}
	t.Errorf("unknown kind %q", kind)
	return nil
}

// newService returns the test service's handler: Fail answers or fails by
// its request's value; Stream sends two messages, then fails the same way.
func newService(t testing.TB, down string, opts ...connect.HandlerOption) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(procFail, connect.NewUnaryHandler(procFail,
		func(ctx context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			if err := failure(ctx, t, req.Msg.GetValue(), down); err != nil {
				return nil, err
			}
			return connect.NewResponse(wrapperspb.String("ok:" + req.Msg.GetValue())), nil
		}, opts...))
	mux.Handle(procStream, connect.NewServerStreamHandler(procStream,
		func(ctx context.Context, req *connect.Request[wrapperspb.StringValue], st *connect.ServerStream[wrapperspb.StringValue]) error {
			for i := range 2 {
				if err := st.Send(wrapperspb.String("msg" + string(rune('0'+i)))); err != nil {
					return err
				}
			}
			return failure(ctx, t, req.Msg.GetValue(), down)
		}, opts...))
	return mux
}

// startServer serves h on a free loopback port over HTTP/1.1 and h2c
// (gRPC needs HTTP/2), until the test ends.
func startServer(t testing.TB, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// h2cClient is an HTTP client that speaks h2c, for all three protocols.
func h2cClient() *http.Client {
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{Protocols: p}}
}

// protocols are the client options of the three protocols.
var protocols = []struct {
	name string
	opts []connect.ClientOption
}{
	{"connect", nil},
	{"grpc", []connect.ClientOption{connect.WithGRPC()}},
	{"grpcweb", []connect.ClientOption{connect.WithGRPCWeb()}},
}

// decoded are the google.rpc details of an error, decoded.
type decoded struct {
	info      *errdetails.ErrorInfo
	retry     *errdetails.RetryInfo
	bad       *errdetails.BadRequest
	localized *errdetails.LocalizedMessage
	help      *errdetails.Help
	resource  *errdetails.ResourceInfo
	others    []proto.Message
}

// decode sorts msgs by type.
func decode(t testing.TB, msgs []proto.Message) decoded {
	var d decoded
	for _, m := range msgs {
		switch m := m.(type) {
		case *errdetails.ErrorInfo:
			require.Nil(t, d.info, "one ErrorInfo")
			d.info = m
		case *errdetails.RetryInfo:
			d.retry = m
		case *errdetails.BadRequest:
			d.bad = m
		case *errdetails.LocalizedMessage:
			d.localized = m
		case *errdetails.Help:
			d.help = m
		case *errdetails.ResourceInfo:
			d.resource = m
		default:
			d.others = append(d.others, m)
		}
	}
	return d
}

// connectDetails decodes a Connect client's error details.
func connectDetails(t testing.TB, ce *connect.Error) decoded {
	var msgs []proto.Message
	for _, d := range ce.Details() {
		m, err := d.Value()
		require.NoError(t, err, d.Type())
		msgs = append(msgs, m)
	}
	return decode(t, msgs)
}

// noLeak fails when s holds any of the leaks.
func noLeak(t testing.TB, s string) {
	t.Helper()
	for _, l := range leaks {
		require.NotContains(t, s, l)
	}
}

// freePort is unused by tests that need a refused dial: a port that was
// free a moment ago.
func freePort(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// quiet is a logger that discards, for tests that do not read the log.
var quiet = slog.New(slog.DiscardHandler)

// lockedWriter is an io.Writer safe for the server's goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// String returns what was written.
func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}
