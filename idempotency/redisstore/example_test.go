package redisstore_test

import (
	"context"
	"net/http"

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
