package pgstore_test

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/pgstore"
)

// Mount idempotency and the duplicate guard on a mutating tool, with keys
// shared by every replica through Postgres: create the table once, sweep
// expired rows in the background, and fail closed (503
// IDEMPOTENCY_UNAVAILABLE) when the database cannot answer. (Compiled, not
// run: it needs a Postgres server.)
func Example() {
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig("postgres://app@db.internal:5432/app")
	if err != nil {
		log.Fatal(err)
	}
	cfg.MaxConns = 32 // the requests in flight, each holding a connection for one round trip
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()

	store := pgstore.New(pool, pgstore.WithTable("shipping_idempotency"))
	if err := store.Migrate(ctx); err != nil { // or pgstore.MigrationSQL in your migration tool
		log.Fatal(err)
	}
	go func() { _ = store.RunSweeper(ctx, time.Minute, func(err error) { log.Print(err) }) }()

	createLabel := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	})
	mux := http.NewServeMux()
	mux.Handle("POST /tools/create_shipment_label",
		idempotency.DuplicateGuard(store)(idempotency.Middleware(store)(createLabel)))
	_ = http.ListenAndServe("127.0.0.1:8080", mux)
}
