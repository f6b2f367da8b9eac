package toolerrconnect_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/internal/spantext"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
	"github.com/toolerr/toolerr/translate"
)

// The procedures of the payment service and of its downstream.
const (
	procCharge = "/toolerr.test.v1.PayService/Charge"
	procLedger = "/toolerr.test.v1.LedgerService/Debit"
)

// payTap records every byte a client received: the head, the body (the
// Connect JSON error, the gRPC frames) and the trailers of each response.
type payTap struct {
	base http.RoundTripper
	mu   sync.Mutex
	buf  bytes.Buffer
}

func (p *payTap) write(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
}

func (p *payTap) bytes() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Clone(p.buf.Bytes())
}

func (p *payTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	p.write([]byte(leakprobe.HeaderText(resp.Header)))
	resp.Body = &payTapBody{ReadCloser: resp.Body, tap: p, resp: resp}
	return resp, nil
}

// payTapBody copies a body into its tap, then the trailers at its end.
type payTapBody struct {
	io.ReadCloser
	tap  *payTap
	resp *http.Response
	once sync.Once
}

func (b *payTapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.tap.write(p[:n])
	if err != nil {
		b.once.Do(func() { b.tap.write([]byte(leakprobe.HeaderText(b.resp.Trailer))) })
	}
	return n, err
}

// payDetailText writes every detail of an error: its JSON when the
// client can decode it, and its bytes always.
func payDetailText(t *testing.T, msgs []proto.Message, raw [][]byte) string {
	var s strings.Builder
	for _, m := range msgs {
		b, err := protojson.Marshal(m)
		require.NoError(t, err)
		s.Write(b)
		s.WriteString("\n")
	}
	for _, b := range raw {
		s.Write(b)
		s.WriteString("\n")
	}
	return s.String()
}

// payFailure is the error the Charge handler returns for kind; stripe is
// the URL of a Stripe-like server, ledger that of a Connect downstream.
func payFailure(ctx context.Context, t *testing.T, kind, stripe, ledger string) error {
	switch kind {
	case "go_error":
		return fmt.Errorf("charging card %s failed: %w", leakprobe.Card, errors.New(leakprobe.PaymentTextNoCode+", cvc: 123"))
	case "connect_invalid":
		return connect.NewError(connect.CodeInvalidArgument, errors.New("card "+leakprobe.Card+" declined; "+leakprobe.PaymentText))
	case "connect_internal":
		return connect.NewError(connect.CodeInternal, errors.New(leakprobe.PaymentText))
	case "connect_details":
		ce := connect.NewError(connect.CodeInvalidArgument, errors.New("card "+leakprobe.Card+" refused"))
		ce.AddDetail(mustDetail(t, &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "card.number", Description: "card " + leakprobe.Card + " is declined, cvc: 123"}}}))
		ce.AddDetail(mustDetail(t, &errdetails.ErrorInfo{Reason: "CARD_DECLINED", Domain: "payments.example.com",
			Metadata: map[string]string{"card": "4242424242424242", "cvc": "cvc: 123", "iban": leakprobe.IBAN, "ssn": leakprobe.SSN}}))
		ce.AddDetail(mustDetail(t, &errdetails.PreconditionFailure{Violations: []*errdetails.PreconditionFailure_Violation{
			{Type: "CARD", Subject: "card " + leakprobe.Card, Description: leakprobe.PaymentText}}}))
		ce.AddDetail(mustDetail(t, &errdetails.ResourceInfo{ResourceType: "card", ResourceName: "cards/4242424242424242", Description: leakprobe.PaymentText}))
		ce.AddDetail(mustDetail(t, &errdetails.LocalizedMessage{Locale: "en-US", Message: "Your card " + leakprobe.Card + " was declined (cvc: 123)."}))
		ce.AddDetail(mustDetail(t, &errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{
			{Subject: "card:4242424242424242", Description: leakprobe.PaymentText}}}))
		ce.AddDetail(mustDetail(t, &errdetails.DebugInfo{StackEntries: []string{"charge.go:12 " + leakprobe.Card}, Detail: leakprobe.PaymentText}))
		ce.AddDetail(mustDetail(t, structpb.NewStringValue(leakprobe.PaymentText)))
		ce.Meta().Set("X-Card", leakprobe.PaymentText)
		ce.Meta().Set("X-Card-Bin", "NDI0MjQyNDI0MjQyNDI0Mg==")
		return ce
	case "details":
		return toolerr.Default().New(toolerr.CodeValidationFailed, "card "+leakprobe.Card+" refused, cvc: 123").
			WithDetails(map[string]any{"card": 4242424242424242, "card_text": leakprobe.Card, "cvc": 123,
				"note": "cvc: 123", "iban": leakprobe.IBAN, "ssn": leakprobe.SSN}).
			WithCause(errors.New(leakprobe.PaymentText))
	case "panic":
		panic("charging failed: " + leakprobe.PaymentTextNoCode + ", cvc: 123")
	case "vendor":
		toolerr.RecordVendor(ctx, "stripe")
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, stripe+"/v1/charges", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return fmt.Errorf("stripe: %w", translate.Response(resp))
	case "downstream":
		c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](http.DefaultClient, ledger+procLedger)
		_, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.String("debit")))
		return err
	}
	t.Errorf("unknown kind %q", kind)
	return nil
}

// payRig is the payment service as production serves it: Connect
// handlers with the interceptor, under middleware.New and a server span
// (what otelhttp starts), logging to a real slog JSON handler and tracing
// to the OTel SDK.
type payRig struct {
	url   string
	logs  *lockedWriter
	spans *tracetest.SpanRecorder
}

func newPayRig(t *testing.T) *payRig {
	t.Helper()
	stripe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_1")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = w.Write([]byte(leakprobe.StripeDecline))
	}))
	t.Cleanup(stripe.Close)
	ledgerMux := http.NewServeMux()
	ledgerMux.Handle(procLedger, connect.NewUnaryHandler(procLedger,
		func(context.Context, *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			ce := connect.NewError(connect.CodeInvalidArgument, errors.New("card "+leakprobe.Card+" refused; "+leakprobe.PaymentText))
			ce.AddDetail(mustDetail(t, &errdetails.ErrorInfo{Reason: "CARD_DECLINED", Domain: "ledger.example.com",
				Metadata: map[string]string{"card": "4242424242424242", "request_id": "req_down_1"}}))
			return nil, ce
		}))
	ledger := startServer(t, ledgerMux)

	r := &payRig{logs: &lockedWriter{w: &bytes.Buffer{}}, spans: tracetest.NewSpanRecorder()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	logger := slog.New(slog.NewJSONHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mux := http.NewServeMux()
	mux.Handle(procCharge, connect.NewUnaryHandler(procCharge,
		func(ctx context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			if req.Msg.GetValue() == "ok" {
				return connect.NewResponse(wrapperspb.String("charged ch_1 for 1200")), nil
			}
			return nil, payFailure(ctx, t, req.Msg.GetValue(), stripe.URL, ledger.URL)
		}, connect.WithInterceptors(toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(logger)))))
	traced := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx, span := tp.Tracer("server").Start(req.Context(), "rpc")
		defer span.End()
		mux.ServeHTTP(w, req.WithContext(ctx))
	})
	r.url = startServer(t, middleware.New(middleware.WithLogger(logger), middleware.WithTracerProvider(tp))(traced)).URL
	return r
}

// payCases are the failing kinds, the Connect code each must keep and the
// toolerr code its ErrorInfo names.
var payCases = []struct {
	kind   string
	code   connect.Code
	reason string
}{
	{"go_error", connect.CodeInternal, toolerr.CodeInternal},
	{"connect_invalid", connect.CodeInvalidArgument, toolerr.CodeValidationFailed},
	{"connect_internal", connect.CodeInternal, toolerr.CodeInternal},
	{"connect_details", connect.CodeInvalidArgument, toolerr.CodeValidationFailed},
	{"details", connect.CodeInvalidArgument, toolerr.CodeValidationFailed},
	{"panic", connect.CodeInternal, toolerr.CodeInternal},
	{"vendor", connect.CodePermissionDenied, toolerr.CodePaymentRequired},
	{"downstream", connect.CodeInvalidArgument, toolerr.CodeValidationFailed},
}

// payInfo returns toolerr's ErrorInfo among msgs; a handler's own
// ErrorInfo of another domain may be kept beside it.
func payInfo(t *testing.T, msgs []proto.Message) *errdetails.ErrorInfo {
	t.Helper()
	var found *errdetails.ErrorInfo
	for _, m := range msgs {
		if info, ok := m.(*errdetails.ErrorInfo); ok && info.GetDomain() == toolerrconnect.Domain {
			require.Nil(t, found, "one ErrorInfo of toolerr")
			found = info
		}
	}
	require.NotNil(t, found, "the contract's ErrorInfo")
	return found
}

// TestPaymentDataReachesNoSink: a Connect service with the interceptor,
// under middleware.New and a server span, called by connect-go's client
// in the Connect, gRPC and gRPC-Web protocols and by grpc-go's client. A
// returned Go error, connect.NewError with the data in its message (an
// invalid argument, an internal error), a connect error with google.rpc
// details and metadata holding it, a toolerr error's detail and details,
// a panic, a relayed Stripe decline and a downstream's Connect error,
// each holding a card number, an IBAN, an SSN and a security code, stay
// Connect errors of their code, and none of the planted data is in the
// message, the decoded details, the headers and trailers, the bytes the
// client received, the log or the spans; a success is unchanged.
func TestPaymentDataReachesNoSink(t *testing.T) {
	rig := newPayRig(t)
	tap := &payTap{base: h2cClient().Transport}
	for _, p := range protocols {
		client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](&http.Client{Transport: tap}, rig.url+procCharge, p.opts...)
		for _, tc := range payCases {
			t.Run(p.name+"/"+tc.kind, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_, err := client.CallUnary(ctx, connect.NewRequest(wrapperspb.String(tc.kind)))
				var ce *connect.Error
				require.ErrorAs(t, err, &ce, "a Connect error")
				assert.Equal(t, tc.code, ce.Code(), "the protocol's code: %v", err)
				assert.NotEmpty(t, ce.Message())
				var msgs []proto.Message
				var raw [][]byte
				for _, d := range ce.Details() {
					raw = append(raw, d.Bytes())
					if m, derr := d.Value(); derr == nil {
						msgs = append(msgs, m)
					}
				}
				written := ce.Error() + "\n" + payDetailText(t, msgs, raw) + leakprobe.HeaderText(ce.Meta())
				assert.Empty(t, leakprobe.FindPayment([]byte(written)), "the error holds payment data: %s", written)
				info := payInfo(t, msgs)
				assert.Equal(t, tc.reason, info.GetReason())
				assert.Equal(t, procCharge, info.GetMetadata()["tool"])
			})
		}
		res, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String("ok")))
		require.NoError(t, err, p.name)
		assert.Equal(t, "charged ch_1 for 1200", res.Msg.GetValue(), "a success passes unchanged")
		assert.Empty(t, leakprobe.FindPayment([]byte(leakprobe.HeaderText(res.Header())+leakprobe.HeaderText(res.Trailer()))))
	}
	wired := tap.bytes()
	assert.Contains(t, string(wired), "[card ending 4242]", "the client's bytes are the ones searched")
	assert.Empty(t, leakprobe.FindPayment(wired), "the client received payment data: %s", wired)

	t.Run("grpc-go", func(t *testing.T) { payGRPCGo(t, rig.url) })

	logs := []byte(rig.logs.String())
	for _, want := range []string{"toolerr: rpc failed", `"cause":`, `"stack":`} {
		assert.Contains(t, string(logs), want, "the log has the records the test searches")
	}
	assert.Empty(t, leakprobe.FindPayment(logs), "the log holds payment data: %s", logs)
	spans := spantext.Of(rig.spans.Ended())
	assert.Contains(t, spans, "exception.message=", "the internal errors record an exception event")
	assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
}

// payGRPCGo calls every failing kind with grpc-go's own client and
// searches the status's message, its decoded details and the header and
// trailer metadata.
func payGRPCGo(t *testing.T, url string) {
	conn := grpcConn(t, strings.TrimPrefix(url, "http://"))
	for _, tc := range payCases {
		t.Run(tc.kind, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var header, trailer metadata.MD
			err := conn.Invoke(ctx, procCharge, wrapperspb.String(tc.kind), new(wrapperspb.StringValue),
				grpc.Header(&header), grpc.Trailer(&trailer))
			st, ok := status.FromError(err)
			require.True(t, ok, "a status: %v", err)
			assert.Equal(t, tc.code, connect.Code(st.Code()))
			var msgs []proto.Message
			for _, d := range st.Details() {
				m, ok := d.(proto.Message)
				require.True(t, ok, "detail decodes: %v", d)
				msgs = append(msgs, m)
			}
			written := st.Message() + "\n" + payDetailText(t, msgs, nil) + leakprobe.HeaderText(http.Header(header)) + leakprobe.HeaderText(http.Header(trailer))
			assert.Empty(t, leakprobe.FindPayment([]byte(written)), "the status holds payment data: %s", written)
			assert.Equal(t, tc.reason, payInfo(t, msgs).GetReason())
		})
	}
	out := new(wrapperspb.StringValue)
	require.NoError(t, conn.Invoke(context.Background(), procCharge, wrapperspb.String("ok"), out))
	assert.Equal(t, "charged ch_1 for 1200", out.GetValue())
}
