package grpcerr_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/grpcerr"
)

// failingHealth is a real gRPC service (the standard health service) whose
// Check answers each "service" name with the status that name asks for,
// details attached, as a server does.
type failingHealth struct {
	healthpb.UnimplementedHealthServer
}

func (failingHealth) Check(_ context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	var st *status.Status
	switch req.GetService() {
	case "unavailable-retry":
		st, _ = status.New(codes.Unavailable, "the ledger is restarting").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)})
	case "bad-request":
		st, _ = status.New(codes.InvalidArgument, "invalid order").WithDetails(&errdetails.BadRequest{
			FieldViolations: []*errdetails.BadRequest_FieldViolation{
				{Field: "order.quantity", Description: "must be positive"},
				{Field: "order.sku", Description: "unknown SKU"},
			}})
	case "quota":
		st, _ = status.New(codes.ResourceExhausted, "quota exceeded").WithDetails(&errdetails.QuotaFailure{
			Violations: []*errdetails.QuotaFailure_Violation{{Subject: "project:acme", Description: "daily limit of 1000 reached"}}},
			&errdetails.ErrorInfo{Reason: "RATE_LIMIT_EXCEEDED", Domain: "ledger.example.com", Metadata: map[string]string{"quota_limit": "daily"}})
	case "rate":
		st, _ = status.New(codes.ResourceExhausted, "slow down").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(2 * time.Second)})
	case "deadline":
		st = status.New(codes.DeadlineExceeded, "ledger took too long")
	case "not-found":
		st, _ = status.New(codes.NotFound, "no such account").WithDetails(
			&errdetails.ResourceInfo{ResourceType: "account", ResourceName: "acct_42"},
			&errdetails.LocalizedMessage{Locale: "en-US", Message: "Account acct_42 does not exist."},
			&errdetails.Help{Links: []*errdetails.Help_Link{{Description: "docs", Url: "https://ledger.example.com/docs/accounts"}}})
	case "precondition":
		st, _ = status.New(codes.FailedPrecondition, "account frozen").WithDetails(&errdetails.PreconditionFailure{
			Violations: []*errdetails.PreconditionFailure_Violation{{Type: "STATE", Subject: "acct_42", Description: "account is frozen"}}})
	case "aborted":
		st = status.New(codes.Aborted, "transaction aborted")
	case "unauthenticated":
		st = status.New(codes.Unauthenticated, "token expired")
	default:
		if st = googleStatus(req.GetService()); st != nil {
			break
		}
		return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
	}
	return nil, st.Err()
}

// serve starts the service on a free loopback port and returns a client.
func serve(t *testing.T) healthpb.HealthClient {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, failingHealth{})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return healthpb.NewHealthClient(conn)
}

func TestStatusesFromARealServer(t *testing.T) {
	client := serve(t)
	c := classify.New(nil, classify.WithErrorMappers(grpcerr.Mapper()))
	ctx := context.Background()
	call := func(service, method string) *toolerr.Error {
		t.Helper()
		_, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, fmt.Errorf("ledger: %w", err), method, false)
		require.True(t, ok, "%s: a wrapped status is known", service)
		require.NotNil(t, e.Upstream, service)
		assert.Equal(t, grpcerr.Vendor, e.Upstream.Vendor, service)
		return e
	}

	e := call("unavailable-retry", http.MethodGet)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 1500*time.Millisecond, e.RetryAfter, "RetryInfo's delay")
	assert.Equal(t, "UNAVAILABLE", e.Upstream.Code)
	e = call("unavailable-retry", http.MethodPost)
	assert.False(t, e.Retryable, "UNAVAILABLE may have run: a non-idempotent call is not retried")

	e = call("bad-request", http.MethodPost)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "order.quantity", e.Field)
	assert.Equal(t, []toolerr.Violation{
		{Field: "/order/quantity", Reason: "must be positive"},
		{Field: "/order/sku", Reason: "unknown SKU"},
	}, e.Violations, "every field violation, its path as a JSON pointer")

	e = call("quota", http.MethodGet)
	assert.Equal(t, toolerr.CodeQuotaExhausted, e.Code, "a QuotaFailure is an exhausted quota")
	assert.False(t, e.Retryable)
	assert.Equal(t, "RATE_LIMIT_EXCEEDED", e.Details["reason"])
	assert.Equal(t, "daily", e.Details["metadata.quota_limit"])

	e = call("rate", http.MethodPost)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 2*time.Second, e.RetryAfter)

	e = call("deadline", http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamTimeout, e.Code)
	assert.False(t, e.Retryable)
	e = call("deadline", http.MethodGet)
	assert.True(t, e.Retryable)

	e = call("not-found", http.MethodGet)
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.Equal(t, "Account acct_42 does not exist.", e.Detail, "the LocalizedMessage")
	assert.Equal(t, "account", e.Details["resource_type"])
	assert.Equal(t, "https://ledger.example.com/docs/accounts", e.Details["doc_url"])

	assert.Equal(t, toolerr.CodePreconditionFailed, call("precondition", http.MethodPost).Code)
	assert.Equal(t, toolerr.CodeConflict, call("aborted", http.MethodPost).Code)
	assert.Equal(t, toolerr.CodeUnauthenticated, call("unauthenticated", http.MethodGet).Code)

	_, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: "fine"})
	require.NoError(t, err)
}

// TestRefusedDial: a client whose server is gone gets UNAVAILABLE whose
// only trace of the refused dial is its text; nothing was sent, so even a
// non-idempotent call may be retried.
func TestRefusedDial(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)

	c := classify.New(nil, classify.WithErrorMappers(grpcerr.Mapper()))
	e, ok := c.HandlerError(ctx, err, http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable, "a refused dial sent nothing")
	assert.NotContains(t, e.Detail, "127.0.0.1", "the dial target does not reach the agent")
}

// TestNotAStatus: errors without a gRPC status are not the mapper's.
func TestNotAStatus(t *testing.T) {
	_, ok := grpcerr.Mapper().MapError(fmt.Errorf("plain"))
	assert.False(t, ok)
	_, ok = grpcerr.Mapper().MapError(status.Error(codes.OK, ""))
	assert.False(t, ok)
}
