// Command example is a tool service instrumented for the toolerr dashboard
// and alerts of github.com/toolerr/toolerr/observability: the toolerr
// middleware, retrygate and idempotency record their metrics through an
// OpenTelemetry MeterProvider whose reader is the Prometheus exporter, on a
// registry of its own served at /metrics.
//
//	go run ./example -vendor https://vendor.example -redis 127.0.0.1:6379
//
// Its tools:
//
//   - POST /tools/search_orders checks its arguments (validation errors);
//   - POST /tools/track_shipment relays the vendor's answer as it is, error
//     pages included, which the middleware translates (an answer no
//     translator maps counts in toolerr_upstream_unmapped_total);
//   - POST /tools/get_quote calls the vendor through retrygate (retries,
//     budget, breaker) and returns translate.Response's error;
//   - POST /tools/create_label runs once per Idempotency-Key (an in-memory
//     store) behind the duplicate-action guard;
//   - POST /tools/book_pickup runs once per Idempotency-Key on Redis: with
//     no Redis at -redis it answers IDEMPOTENCY_UNAVAILABLE.
package main

import (
	"context"
	"flag"
	"log"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	vendor := flag.String("vendor", "http://127.0.0.1:8081", "base URL of the downstream vendor the tools call")
	redisAddr := flag.String("redis", "127.0.0.1:6379", "Redis address of book_pickup's idempotency store")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	svc, err := Start(ln, Config{
		VendorURL: *vendor,
		RedisAddr: *redisAddr,
		Logger:    slog.New(slog.NewTextHandler(os.Stderr, nil)),
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("serving tools and /metrics on %s", svc.URL)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := svc.Close(shutdown); err != nil {
		log.Print(err)
	}
}
