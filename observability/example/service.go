package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/retrygate"
)

// Config is what the service needs from its environment.
type Config struct {
	// VendorURL is the base URL of the downstream vendor the tools call.
	VendorURL string
	// RedisAddr is the Redis server of book_pickup's idempotency store.
	RedisAddr string
	// Logger receives the middleware's records. Default: discarded.
	Logger *slog.Logger
}

// Service is the example service, serving on its listener.
type Service struct {
	// URL is the service's base URL, "http://" and the listener's address.
	URL    string
	srv    *http.Server
	meters *sdkmetric.MeterProvider
	redis  *redis.Client
}

// Start serves the tools and /metrics on ln until Close. The metrics are
// those of a MeterProvider of its own, exported on a Prometheus registry
// of its own: nothing global is set.
func Start(ln net.Listener, cfg Config) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	registry := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(registry))
	if err != nil {
		return nil, err
	}
	meters := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	schema, err := argcheck.Compile(searchOrdersSchema)
	if err != nil {
		return nil, errors.Join(err, meters.Shutdown(context.Background()))
	}
	rdb := redis.NewClient(&redis.Options{Addr: cfg.RedisAddr, MaxRetries: -1, DialerRetries: 1, DialTimeout: 200 * time.Millisecond})
	t := tools{
		vendor: cfg.VendorURL,
		// One Transport per downstream client: its budget and breakers
		// are shared by all its calls.
		quotes: &http.Client{Transport: retrygate.Transport(nil,
			retrygate.WithPolicy(retrygate.DefaultPolicy().WithMeterProvider(meters))), Timeout: 10 * time.Second},
		relay: &http.Client{Timeout: 10 * time.Second},
	}
	r := chi.NewRouter()
	r.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	r.Group(func(r chi.Router) {
		r.Use(middleware.New(middleware.WithMeterProvider(meters), middleware.WithLogger(cfg.Logger)))
		r.Method(http.MethodPost, "/tools/search_orders", middleware.Tool("search_orders", t.searchOrders(schema)))
		r.Method(http.MethodPost, "/tools/track_shipment", middleware.Tool("track_shipment", t.trackShipment))
		r.Method(http.MethodPost, "/tools/get_quote", middleware.Tool("get_quote", t.getQuote))
		labels := idempotency.NewMemoryStore()
		r.Method(http.MethodPost, "/tools/create_label", middleware.Tool("create_label", createLabel,
			idempotency.DuplicateGuard(labels, idempotency.WithLogger(cfg.Logger), idempotency.WithMeterProvider(meters)),
			idempotency.Middleware(labels, idempotency.WithLogger(cfg.Logger), idempotency.WithMeterProvider(meters))))
		pickups := redisstore.New(rdb)
		r.Method(http.MethodPost, "/tools/book_pickup", middleware.Tool("book_pickup", bookPickup,
			idempotency.Middleware(pickups, idempotency.WithLogger(cfg.Logger), idempotency.WithMeterProvider(meters))))
	})
	s := &Service{
		URL:    "http://" + ln.Addr().String(),
		srv:    &http.Server{Handler: r, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn)},
		meters: meters,
		redis:  rdb,
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops serving, waiting for the calls in progress within ctx, and
// releases the Redis client and the MeterProvider.
func (s *Service) Close(ctx context.Context) error {
	return errors.Join(s.srv.Shutdown(ctx), s.redis.Close(), s.meters.Shutdown(ctx))
}
