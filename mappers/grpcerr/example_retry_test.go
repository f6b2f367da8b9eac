package grpcerr_test

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/toolerr/toolerr/mappers/grpcerr"
	"github.com/toolerr/toolerr/retrygate"
)

// restartingLedger answers UNAVAILABLE to its first two calls, as a
// service does while it restarts.
type restartingLedger struct {
	healthpb.UnimplementedHealthServer
	calls atomic.Int32
}

func (l *restartingLedger) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if l.calls.Add(1) <= 2 {
		return nil, status.Error(codes.Unavailable, "ledger restarting")
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// ledgerClient is the tool's client of the ledger service.
type ledgerClient struct{ health healthpb.HealthClient }

// GetBalance is a read: repeating it changes nothing.
func (c ledgerClient) GetBalance(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	return c.health.Check(ctx, req)
}

// retrygate.Do retries the status errors of a gRPC read as they come,
// with the mapper on its policy.
func Example_retry() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv := grpc.NewServer()
	server := &restartingLedger{}
	healthpb.RegisterHealthServer(srv, server)
	go func() { _ = srv.Serve(ln) }()
	defer srv.Stop()
	conn, _ := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	defer conn.Close()
	ledger, req, ctx := ledgerClient{healthpb.NewHealthClient(conn)}, &healthpb.HealthCheckRequest{}, context.Background()

	policy := retrygate.DefaultPolicy().WithErrorMappers(grpcerr.Mapper())
	policy.Idempotent = true // the operation is a read
	err := retrygate.Do(ctx, policy, func(ctx context.Context) error {
		_, err := ledger.GetBalance(ctx, req)
		return err
	})
	fmt.Println(err, server.calls.Load())
	// Output: <nil> 3
}
