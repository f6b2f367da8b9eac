package redisstore_test

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/redis/go-redis/v9"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/middleware"
)

// tenantKey is where an authentication middleware put the caller's tenant.
type tenantKey struct{}

// tenantOf returns the authenticated tenant of ctx, "" when none.
func tenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}

// Mount idempotency and the duplicate guard on a mutating tool, with keys
// shared by every replica through Redis and scoped by tenant. (Compiled,
// not run: it needs a Redis server.)
func Example() {
	redisClient := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	createLabel := middleware.ToolFunc("create_shipment_label", func(w http.ResponseWriter, r *http.Request) error {
		w.WriteHeader(http.StatusCreated)
		return nil
	})
	r := chi.NewRouter()
	r.Use(middleware.New())

	store := redisstore.New(redisClient) // or idempotency.NewMemoryStore() for one replica
	tenant := idempotency.WithPrincipal(func(r *http.Request) string {
		return tenantOf(r.Context()) // your authenticated caller; "" is anonymous
	})
	r.With(idempotency.DuplicateGuard(store, tenant), idempotency.Middleware(store, tenant)).
		Post("/tools/create_shipment_label", createLabel)
	_ = http.ListenAndServe("127.0.0.1:8080", r)
}

// Survive a failover of a primary with two replicas: a claim is only
// taken, and the handler only runs, once both replicas have it. The WAIT
// timeout stays well below the middleware's store deadline and the
// client's ReadTimeout. (Compiled, not run: it needs a Redis server.)
func ExampleWithReplicaAck() {
	redisClient := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:    "orders",
		SentinelAddrs: []string{"sentinel-1:26379", "sentinel-2:26379", "sentinel-3:26379"},
		ReadTimeout:   time.Second,
	})
	store := redisstore.New(redisClient, redisstore.WithReplicaAck(2, 100*time.Millisecond))
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) })
	_ = http.ListenAndServe("127.0.0.1:8080",
		idempotency.Middleware(store,
			idempotency.WithPrincipal(func(r *http.Request) string { return tenantOf(r.Context()) }),
			idempotency.WithStoreTimeout(500*time.Millisecond))(handler))
}
