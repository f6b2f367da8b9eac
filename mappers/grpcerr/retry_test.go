package grpcerr_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/toolerr/toolerr/mappers/grpcerr"
	"github.com/toolerr/toolerr/retrygate"
)

// TestDoRetriesAStatusByItsDetails: retrygate.Do, given the mapper, reads
// a real server's UNAVAILABLE with RetryInfo: an idempotent read is
// retried after RetryInfo's delay, a write is not (it may have run), and
// a QuotaFailure is never retried.
func TestDoRetriesAStatusByItsDetails(t *testing.T) {
	client := serve(t)
	var waits []time.Duration
	base := retrygate.DefaultPolicy().WithErrorMappers(grpcerr.Mapper())
	base.MaxServerDelay = 10 * time.Millisecond // RetryInfo asks 1.5 s; the cap keeps the test short
	base.OnRetry = func(ev retrygate.RetryEvent) { waits = append(waits, ev.Delay) }
	run := func(service string, idempotent bool) int {
		t.Helper()
		p := base
		p.Idempotent = idempotent
		n := 0
		err := retrygate.Do(context.Background(), p, func(ctx context.Context) error {
			n++
			_, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
			return err
		})
		require.Error(t, err)
		return n
	}

	assert.Equal(t, 3, run("unavailable-retry", true))
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}, waits, "RetryInfo's delay, capped by MaxServerDelay")
	assert.Equal(t, 1, run("unavailable-retry", false), "UNAVAILABLE may have run")
	assert.Equal(t, 1, run("quota", true), "an exhausted quota")
	assert.Equal(t, 3, run("rate", false), "RESOURCE_EXHAUSTED without a QuotaFailure is a rate: nothing ran")
}
