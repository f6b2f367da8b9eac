package grpcerr_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/grpcerr"
)

// googleStatus is the status the test service answers for the services
// named after ErrorInfo domains: Google APIs' standard reasons, in the
// shape Google's gRPC APIs send them (documented in google.api.ErrorReason
// and AIP-193), and a service's own domain.
func googleStatus(service string) *status.Status {
	switch service {
	case "google-rate":
		st, _ := status.New(codes.ResourceExhausted, "Quota exceeded for quota metric 'Read requests'").WithDetails(
			&errdetails.ErrorInfo{Reason: "RATE_LIMIT_EXCEEDED", Domain: grpcerr.GoogleDomain, Metadata: map[string]string{
				"service": "sheets.googleapis.com", "quota_metric": "sheets.googleapis.com/read_requests",
				"quota_limit": "ReadRequestsPerMinutePerProject", "quota_limit_value": "300"}},
			&errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{{Subject: "project:12345", Description: "read requests per minute"}}},
			&errdetails.RetryInfo{RetryDelay: durationpb.New(20 * time.Second)})
		return st
	case "google-daily":
		st, _ := status.New(codes.ResourceExhausted, "Quota exceeded for quota metric 'Queries'").WithDetails(
			&errdetails.ErrorInfo{Reason: "RATE_LIMIT_EXCEEDED", Domain: grpcerr.GoogleDomain, Metadata: map[string]string{
				"service": "translate.googleapis.com", "quota_limit": "DefaultRequestsPerDayPerProject"}})
		return st
	case "google-disabled":
		st, _ := status.New(codes.PermissionDenied, "Cloud Pub/Sub API has not been used in project 12345").WithDetails(
			&errdetails.ErrorInfo{Reason: "SERVICE_DISABLED", Domain: grpcerr.GoogleDomain, Metadata: map[string]string{
				"service": "pubsub.googleapis.com", "consumer": "projects/12345"}},
			&errdetails.Help{Links: []*errdetails.Help_Link{{Description: "enable", Url: "https://console.developers.google.com/apis/api/pubsub.googleapis.com/overview?project=12345"}}})
		return st
	case "google-new-reason":
		st, _ := status.New(codes.Unavailable, "backend restarting").WithDetails(
			&errdetails.ErrorInfo{Reason: "SOME_REASON_NOT_YET_DOCUMENTED", Domain: grpcerr.GoogleDomain})
		return st
	case "ledger-frozen":
		st, _ := status.New(codes.FailedPrecondition, "account frozen").WithDetails(
			&errdetails.ErrorInfo{Reason: "ACCOUNT_FROZEN", Domain: "ledger.example.com"})
		return st
	case "ledger-busy":
		st, _ := status.New(codes.Unavailable, "ledger busy").WithDetails(
			&errdetails.ErrorInfo{Reason: "LEDGER_BUSY", Domain: "ledger.example.com"})
		return st
	}
	return nil
}

// TestErrorInfoDomains: an ErrorInfo's reason decides the class when its
// domain's table knows it: Google's standard reasons by translate's
// Google table (per-day quotas included), a service's own by the table
// given with WithDomain. Otherwise the status code decides.
func TestErrorInfoDomains(t *testing.T) {
	client := serve(t)
	ledger := map[string]string{
		"ACCOUNT_FROZEN": toolerr.CodePolicyBlocked,
		"LEDGER_BUSY":    toolerr.CodeUpstreamUnavailable,
	}
	c := classify.New(nil, classify.WithErrorMappers(grpcerr.Mapper(grpcerr.WithDomain("ledger.example.com", "ledger", ledger))))
	ctx := context.Background()
	call := func(service, method string) *toolerr.Error {
		t.Helper()
		_, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, err, method, false)
		require.True(t, ok)
		require.NotNil(t, e.Upstream, service)
		return e
	}

	e := call("google-rate", http.MethodPost)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code, "Google's reason is finer than the QuotaFailure beside it")
	assert.True(t, e.Retryable)
	assert.Equal(t, 20*time.Second, e.RetryAfter)
	assert.Equal(t, "google", e.Upstream.Vendor)
	assert.Equal(t, "RATE_LIMIT_EXCEEDED", e.Upstream.Code)
	assert.Equal(t, "RESOURCE_EXHAUSTED", e.Details["grpc_code"])

	e = call("google-daily", http.MethodGet)
	assert.Equal(t, toolerr.CodeQuotaExhausted, e.Code, "a per-day quota is not seconds away")
	assert.False(t, e.Retryable)
	assert.Equal(t, "google", e.Upstream.Vendor)

	e = call("google-disabled", http.MethodGet)
	assert.Equal(t, toolerr.CodeUpstreamMisconfigured, e.Code, "the project must enable the API")
	assert.Equal(t, "SERVICE_DISABLED", e.Upstream.Code)

	e = call("google-new-reason", http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code, "a reason Google's table lacks leaves the status to decide")
	assert.Equal(t, grpcerr.Vendor, e.Upstream.Vendor)
	assert.Equal(t, "UNAVAILABLE", e.Upstream.Code)
	assert.False(t, e.Retryable, "and UNAVAILABLE's unknown outcome still holds")

	e = call("ledger-frozen", http.MethodPost)
	assert.Equal(t, toolerr.CodePolicyBlocked, e.Code)
	assert.Equal(t, "ledger", e.Upstream.Vendor)
	assert.Equal(t, "ACCOUNT_FROZEN", e.Upstream.Code)
	assert.Equal(t, "FAILED_PRECONDITION", e.Details["grpc_code"])

	e = call("ledger-busy", http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.False(t, e.Retryable, "the domain's table decides the class, the status whether the call may have run")
	assert.True(t, call("ledger-busy", http.MethodGet).Retryable)

	// Without the domain's table, the status decides.
	plain := classify.New(nil, classify.WithErrorMappers(grpcerr.Mapper()))
	_, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: "ledger-frozen"})
	e, _ = plain.HandlerError(ctx, err, http.MethodPost, false)
	assert.Equal(t, toolerr.CodePreconditionFailed, e.Code)
	assert.Equal(t, grpcerr.Vendor, e.Upstream.Vendor)
}

// TestWithDomainIgnoresEmptyArguments: an option missing its domain,
// vendor or table changes nothing.
func TestWithDomainIgnoresEmptyArguments(t *testing.T) {
	st, _ := status.New(codes.FailedPrecondition, "frozen").WithDetails(
		&errdetails.ErrorInfo{Reason: "ACCOUNT_FROZEN", Domain: "ledger.example.com"})
	for _, opt := range []grpcerr.Option{
		grpcerr.WithDomain("", "ledger", map[string]string{"ACCOUNT_FROZEN": toolerr.CodePolicyBlocked}),
		grpcerr.WithDomain("ledger.example.com", "", map[string]string{"ACCOUNT_FROZEN": toolerr.CodePolicyBlocked}),
		grpcerr.WithDomain("ledger.example.com", "ledger", nil),
		nil,
	} {
		o, ok := grpcerr.Mapper(opt).MapError(st.Err())
		require.True(t, ok)
		assert.Equal(t, grpcerr.Vendor, o.Vendor)
		assert.Equal(t, "FAILED_PRECONDITION", o.VendorCode)
	}
}
