package middleware

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/toolerr/toolerr"
)

// TestCompositionServeMux: Go 1.22 ServeMux wrapped by toolerr. Its own
// 404 says the tool does not exist, its 405 keeps Allow, a handler's 404
// stays NOT_FOUND, and http.TimeoutHandler inside toolerr is a local
// timeout.
func TestCompositionServeMux(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /tools/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "order "+r.PathValue("id")+" not found", http.StatusNotFound)
	})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	mux.Handle("/tools/slow", http.TimeoutHandler(slow, 30*time.Millisecond, ""))
	url := newServer(t, New(WithLogger(quiet))(mux))

	for _, tc := range []struct {
		name, method, path string
		code               string
		status             int
		retryable          bool
	}{
		{"mux's 404", "GET", "/tools/nope", toolerr.CodeToolNotFound, 404, false},
		{"handler's 404", "GET", "/tools/orders/42", toolerr.CodeNotFound, 404, false},
		{"mux's 405", "POST", "/tools/orders/42", toolerr.CodeMethodNotAllowed, 405, false},
		{"TimeoutHandler on a GET", "GET", "/tools/slow", toolerr.CodeToolTimeout, 504, true},
		{"TimeoutHandler on a POST", "POST", "/tools/slow", toolerr.CodeToolTimeout, 504, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, tc.method, url+tc.path, nil, "")
			require.Equal(t, tc.status, resp.StatusCode, "%s", body)
			p := problem(t, body)
			assert.Equal(t, tc.code, p["code"])
			assert.Equal(t, tc.retryable, p["retryable"])
			assert.NotContains(t, p, "upstream")
			if tc.code == toolerr.CodeMethodNotAllowed {
				assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"))
			}
		})
	}
}

// TestCompositionEvidenceStillBlamesTheDownstream: with evidence, a
// failure is the downstream's: a gateway page relayed as it came, a vendor
// the handler named, a network error of an outbound call.
func TestCompositionEvidenceStillBlamesTheDownstream(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	deadAddr := closed.Addr().String()
	require.NoError(t, closed.Close())

	r := chi.NewRouter()
	r.Use(New(WithLogger(quiet)))
	r.Get("/tools/cdn", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", "cloudflare")
		w.Header().Set("Cf-Ray", "8a1b2c3d4e5f6789-SJC")
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(522)
		_, _ = w.Write([]byte(fixture(t, "html/cloudflare_522.html")))
	})
	r.Get("/tools/named", func(w http.ResponseWriter, r *http.Request) {
		toolerr.RecordVendor(r.Context(), "acme")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	r.Get("/tools/dial", ToolFunc("dial", func(w http.ResponseWriter, r *http.Request) error {
		resp, err := http.Get("http://" + deadAddr + "/")
		if err == nil {
			_ = resp.Body.Close()
		}
		return err
	}))
	url := newServer(t, r)
	for path, want := range map[string]struct {
		code, vendor string
	}{
		"/tools/cdn":   {toolerr.CodeUpstreamTimeout, "cloudflare"},
		"/tools/named": {toolerr.CodeUpstreamUnavailable, "acme"},
		"/tools/dial":  {toolerr.CodeUpstreamUnavailable, ""},
	} {
		t.Run(path, func(t *testing.T) {
			_, body := do(t, "GET", url+path, nil, "")
			p := problem(t, body)
			assert.Equal(t, want.code, p["code"], "%s", body)
			if want.vendor != "" {
				up, _ := p["upstream"].(map[string]any)
				require.NotNil(t, up, "%s", body)
				assert.Equal(t, want.vendor, up["vendor"])
			}
		})
	}
}

// TestCompositionOtelhttpOutermost: otelhttp outermost, toolerr inside,
// chi inside that. The body's trace_id is the server span's; a 5xx sets
// the span's status and error.type, a 4xx neither.
func TestCompositionOtelhttpOutermost(t *testing.T) {
	rig := newOtelRig(t)
	r := chi.NewRouter()
	r.Use(New(append(rig.options(), WithLogger(quiet))...))
	r.Get("/tools/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	r.Get("/tools/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "order 42 not found", http.StatusNotFound)
	})
	url := newServer(t, otelhttp.NewHandler(r, "tool",
		otelhttp.WithTracerProvider(rig.tp), otelhttp.WithMeterProvider(rig.mp)))

	for path, want := range map[string]struct {
		status int
		span   codes.Code
	}{
		"/tools/broken":    {500, codes.Error},
		"/tools/orders/42": {404, codes.Unset},
	} {
		t.Run(path, func(t *testing.T) {
			rig.spans.Reset()
			resp, body := do(t, "GET", url+path, nil, "")
			require.Equal(t, want.status, resp.StatusCode)
			p := problem(t, body)
			spans := rig.spans.Ended()
			require.Len(t, spans, 1, "otelhttp's server span only: toolerr adds none when one exists")
			span := spans[0]
			assert.Equal(t, span.SpanContext().TraceID().String(), p["trace_id"])
			assert.Equal(t, want.span, span.Status().Code)
			a := attrs(attribute.NewSet(span.Attributes()...))
			assert.Equal(t, p["code"], a["toolerr.code"])
			if want.status >= 500 {
				assert.Equal(t, p["code"], a["error.type"])
			} else {
				assert.NotContains(t, a, "error.type")
			}
		})
	}
}
