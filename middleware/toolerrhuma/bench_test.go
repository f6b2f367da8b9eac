package toolerrhuma_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// huma's own constructors, as the package variables held them before any
// Install of the test binary (package variables are set before tests run).
var (
	humaNewError            = huma.NewError
	humaNewErrorWithContext = huma.NewErrorWithContext
)

// BenchmarkHuma runs huma alone and huma with toolerr (the middleware on the
// chi router, Install on the API) side by side, through the router's
// ServeHTTP: (a) a 200 that passes through, (b) huma's 422 validation
// error, which toolerr turns into VALIDATION_FAILED with repairs.
//
// huma's constructors are process-wide: the huma sub-benchmarks put huma's
// own back while they run, and the toolerr ones toolerr's.
func BenchmarkHuma(b *testing.B) {
	alone := chi.NewMux()
	registerTools(humachi.New(alone, huma.DefaultConfig("Orders", "1.0.0")))
	with := chi.NewMux()
	with.Use(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler))))
	registerTools(toolerrhuma.Install(humachi.New(with, huma.DefaultConfig("Orders", "1.0.0"))))
	ours, oursWithContext := huma.NewError, huma.NewErrorWithContext
	b.Cleanup(func() { huma.NewError, huma.NewErrorWithContext = ours, oursWithContext })

	cases := []struct {
		name, body string
		status     int
	}{
		{"ok", `{"query":"boots","limit":5,"carrier":"ups"}`, http.StatusOK},
		{"invalid", `{"query":"boots","limit":500,"carrier":"UPS"}`, 0},
	}
	stacks := []struct {
		name    string
		h       http.Handler
		restore func()
	}{
		{"huma", alone, func() { huma.NewError, huma.NewErrorWithContext = humaNewError, humaNewErrorWithContext }},
		{"toolerr", with, func() { huma.NewError, huma.NewErrorWithContext = ours, oursWithContext }},
	}
	for _, c := range cases {
		for _, s := range stacks {
			b.Run(c.name+"/"+s.name, func(b *testing.B) {
				s.restore()
				body := []byte(c.body)
				rd := bytes.NewReader(body)
				req := httptest.NewRequest(http.MethodPost, "/orders/search", nil)
				b.ReportAllocs()
				for b.Loop() {
					// A new request's headers: the middleware stamps ids in
					// them, which a reused map would carry into the next.
					req.Header = http.Header{"Content-Type": {"application/json"}}
					rd.Reset(body)
					req.Body = io.NopCloser(rd)
					w := httptest.NewRecorder()
					s.h.ServeHTTP(w, req)
					if c.status != 0 && w.Code != c.status || c.status == 0 && w.Code < 400 {
						b.Fatalf("status %d: %s", w.Code, w.Body)
					}
				}
			})
		}
	}
}
