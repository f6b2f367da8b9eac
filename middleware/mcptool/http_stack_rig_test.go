package mcptool_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
)

// What an attacker plants in the stack of http_stack_test.go. The tokens
// are random-looking (no counting sequences, which the sanitizer keeps as
// documentation stand-ins).
const (
	hsStripe = "sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd"
	hsGitHub = "ghp_Xq7Lm2Rp9ZkT4wNb8VcY3hJd6FsG1aQe5UoP"
	hsDSN    = "postgres://billing:Vb7nQ2xLm9pZw4Kt@db-7.prod.internal:5432/orders"
	hsHost   = "db-7.prod.internal"
	hsIP     = "10.1.2.3"
	hsPEM    = "-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEpQIBAAKCAQEAx9Jq4Vn8Rt2Lx6Wm3Zb7Kc1Hd5Tf9Ys2Pg4Nh8Qr6Ue0Ia3\n" +
		"OvLw7Xk2Mj5Bn9Cp1Dq4Er8Fs3Gt6Hu0Iv2Jw5Kx7Ly9Mz1Na3Ob5Pc7Qd9Re1Sf\n" +
		"3TgUh5Vi7Wj9Xk1Yl3Zm5An7Bo9Cp1Dq3Er5Fs7Gt9Hu1Iv3Jw5Kx7Ly9Mz1Na3\n" +
		"-----END RSA PRIVATE KEY-----"
	hsPlanted = "key " + hsStripe + " token " + hsGitHub + " dsn " + hsDSN + " host " + hsHost + " ip " + hsIP

	// hsBig and hsBigNext differ only past 2^53: as float64 they are equal.
	hsBig     = "1152921504606846977"
	hsBigNext = "1152921504606846976"
)

var (
	// Fragments of the secrets above: none may be seen outside, anywhere.
	hsSecretMarkers = []string{"Rk7Qm2ZpX9aLw4Tn", "Xq7Lm2Rp9ZkT4wNb", "Vb7nQ2xLm9pZw4Kt", "Jq4Vn8Rt2Lx6Wm3Z", "OvLw7Xk2Mj5Bn9Cp"}
	// Internal names and addresses: never to the agent; logs' cause and
	// stack may keep them for the operator.
	hsInternalMarkers = []string{"prod.internal", hsIP}
	// Signs of a stack trace in what the agent reads.
	hsStackMarkers = []string{"at com.acme", ".java:", "Traceback (most recent", `File "/srv`, "goroutine ", "runtime/debug", "hs_panic"}
	// Benign identifiers: none is a secret and all must survive as sent.
	hsBenign = map[string]any{
		"order_id":        "ord_8f3a2b91",
		"uuid":            "3fa85f64-5717-4562-b3fc-2c963f66afa6",
		"commit":          "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
		"docs":            "https://stripe.com/docs/error-codes/card-declined",
		"idempotency_key": "idem-7f3c9e21-4b6d-4a8e-b1f0-2d5c8e9a7b13",
	}
)

// hsHostileError is a handler's error with the planted text in every
// member a handler can set, the benign identifiers in details, and a
// request id of its own.
func hsHostileError() error {
	reg := toolerr.Default()
	item := reg.New(toolerr.CodeNotFound, "item lookup on "+hsHost+" with "+hsGitHub).
		WithDetails(map[string]any{"dsn": hsDSN}).WithHint("Retry with " + hsStripe + ".")
	e := reg.New(toolerr.CodeValidationFailed, "charge rejected: "+hsPlanted).
		WithField("/card/" + hsStripe).
		WithAllowedValues([]any{"visa", hsPlanted, map[string]any{"pem": hsPEM}}).
		WithSuggestedValue(map[string]any{"dsn": hsDSN, "ip": hsIP}).
		WithHint("Use " + hsStripe + " instead.").
		WithHumanHint("Ask the team at " + hsHost + ".").
		WithSuggestions("rotate " + hsGitHub).
		WithDetails(map[string]any{"deep": map[string]any{"list": []any{hsPlanted, map[string]any{"pem": hsPEM}}}, hsStripe: "a secret as a key"}).
		WithDetails(hsBenign).
		WithExampleRequest(map[string]any{"token": hsGitHub, "db": hsDSN}).
		WithIntent(toolerr.Intent{Operation: "charge " + hsStripe, ResourceID: hsGitHub, State: hsHost, Recovery: "GET http://" + hsIP + "/charges"}).
		WithTool("charge_" + hsStripe).
		WithUpstream(toolerr.Upstream{Vendor: "stripe", Status: 402, Code: hsStripe, RequestID: "req_" + hsStripe}).
		WithItems(toolerr.ItemError{Index: 0, Err: item}).
		WithRequestID(hsStripe)
	return fmt.Errorf("charge: %w", e)
}

// hsUTF16LE encodes s as UTF-16 little-endian, with a byte-order mark when bom.
func hsUTF16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = []byte{0xff, 0xfe}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// hsSeen is what a tool handler received.
type hsSeen struct {
	body   []byte
	header http.Header
}

// hsRig is one service with everything mounted together, as production
// mounts it: otelhttp (real SDK, span recorder) around chi with chi's
// RequestID, toolerr's middleware, HTTP tools, a ServeMux under a chi
// sub-route, a keyed tool behind idempotency, a keyless one behind the
// duplicate guard, and MCP servers (hsMCPRoutes).
type hsRig struct {
	url    string
	client *http.Client
	spans  *tracetest.SpanRecorder
	logs   *logBuffer
	probes atomic.Int64
	chiIDs sync.Map // X-Probe → chi's request id
	spanOf sync.Map // X-Probe → the span context of otelhttp's server span
	seen   sync.Map // X-Probe → hsSeen
	runs   sync.Map // Idempotency-Key or tool → *atomic.Int32
}

// newHSRig starts the service on a loopback port, with otelhttp's options
// otel besides its tracer provider.
func newHSRig(t *testing.T, otel ...otelhttp.Option) *hsRig {
	t.Helper()
	rig := &hsRig{spans: tracetest.NewSpanRecorder(), client: &http.Client{Timeout: 30 * time.Second}}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rig.spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	logger, logs := newLogger()
	rig.logs = logs
	store := idempotency.NewMemoryStore()

	mux := http.NewServeMux()
	mux.HandleFunc("POST /svc/raw_html_500", hsRawHTML)
	mux.HandleFunc("POST /svc/vendor_402", hsVendor402("req_"+hsStripe, "Your card was declined. Key "+hsStripe+" on "+hsHost+"."))
	mux.HandleFunc("POST /svc/vendor_402_benign", hsVendor402("req_9Xy7Zq2LmN", "Your card was declined."))
	mux.HandleFunc("POST /svc/utf16", hsRaw(http.StatusBadGateway, "text/plain; charset=utf-16le", hsUTF16LE("upstream failed: "+hsPlanted, true)))

	mcpServer := hsMCPServer(logger)
	r := chi.NewRouter()
	r.Use(chimw.RequestID, rig.probe, middleware.New(middleware.WithLogger(logger), middleware.WithTracerProvider(tp)))
	tool := func(name string, h func(http.ResponseWriter, *http.Request) error) {
		r.Method(http.MethodPost, "/tools/"+name, middleware.Tool(name, h))
	}
	tool("hostile_error", func(http.ResponseWriter, *http.Request) error { return hsHostileError() })
	tool("own_request_id", func(http.ResponseWriter, *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.").WithRequestID("handler-own-77")
	})
	tool("benign_detail", func(http.ResponseWriter, *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, hsBenignDetail).WithDetails(hsBenign)
	})
	r.Post("/tools/invalid_utf8", hsRaw(http.StatusBadRequest, "application/json",
		[]byte("{\"message\":\"lookup failed \xff\xfe\xfd "+hsGitHub+" then \xc0\xaf"+hsGitHub+" on "+hsHost+"\"}")))
	r.Post("/tools/utf16_nobom", hsRaw(http.StatusBadGateway, "text/plain", hsUTF16LE("upstream failed: "+hsPlanted, false)))
	r.Post("/tools/panic", func(http.ResponseWriter, *http.Request) { hsPanic() })
	r.Post("/tools/downstream_id_503", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Request-Id", "downstream-req-77")
		hsRaw(http.StatusServiceUnavailable, "application/json", []byte(`{"message":"pool exhausted"}`))(w, nil)
	})
	r.Post("/tools/relay", func(w http.ResponseWriter, _ *http.Request) {
		down := toolerr.Default().New(toolerr.CodeNotFound, "No such order.").WithRequestID("down-42").AppendJSON(nil)
		w.Header().Set("X-Request-Id", "down-42")
		hsRaw(http.StatusNotFound, toolerr.ContentTypeProblem, down)(w, nil)
	})
	r.Post("/tools/proxy_200", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Request-Id", "downstream-req-77")
		hsRaw(http.StatusOK, "application/json", []byte(`{"ok":true}`))(w, nil)
	})
	r.Route("/svc", func(sr chi.Router) { sr.Mount("/", mux) })
	r.With(idempotency.Middleware(store, idempotency.WithLogger(logger))).
		Method(http.MethodPost, "/tools/create_label", middleware.Tool("create_label", rig.createLabel))
	r.With(idempotency.DuplicateGuard(store, idempotency.WithLogger(logger))).
		Method(http.MethodPost, "/tools/send_message", middleware.Tool("send_message", rig.sendMessage))
	for path, h := range hsMCPRoutes(mcpServer) {
		r.Handle(path, h)
	}

	srv := httptest.NewServer(otelhttp.NewHandler(r, "tools", append(otel, otelhttp.WithTracerProvider(tp))...))
	t.Cleanup(srv.Close)
	rig.url = srv.URL
	return rig
}

// hsBenignDetail is a detail made only of identifiers that are not secrets.
const hsBenignDetail = "No order ord_8f3a2b91 at commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 " +
	"(request 3fa85f64-5717-4562-b3fc-2c963f66afa6, key idem-7f3c9e21-4b6d-4a8e-b1f0-2d5c8e9a7b13); " +
	"see https://stripe.com/docs/error-codes/card-declined"

// probe notes chi's request id and otelhttp's server span of each request
// under its X-Probe header.
func (rig *hsRig) probe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.Header.Get("X-Probe"); p != "" {
			rig.chiIDs.Store(p, chimw.GetReqID(r.Context()))
			rig.spanOf.Store(p, trace.SpanContextFromContext(r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}

// counter returns the run counter of name.
func (rig *hsRig) counter(name string) *atomic.Int32 {
	c, _ := rig.runs.LoadOrStore(name, new(atomic.Int32))
	return c.(*atomic.Int32)
}

// received reads the body and notes what the handler got; it returns the
// body's SHA-256.
func (rig *hsRig) received(r *http.Request) (string, int, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return "", 0, err
	}
	rig.seen.Store(r.Header.Get("X-Probe"), hsSeen{body: b, header: r.Header.Clone()})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), len(b), nil
}

// createLabel is the keyed mutating tool: it counts its runs per key and,
// for the key "k-burst", stays in flight long enough for every concurrent
// retry to arrive.
func (rig *hsRig) createLabel(w http.ResponseWriter, r *http.Request) error {
	n := rig.counter(r.Header.Get("Idempotency-Key")).Add(1)
	if r.Header.Get("Idempotency-Key") == "k-burst" {
		time.Sleep(300 * time.Millisecond)
	}
	sum, size, err := rig.received(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_, err = fmt.Fprintf(w, `{"label":"L-%d","sha256":%q,"bytes":%d}`, n, sum, size)
	return err
}

// sendMessage is the keyless mutating tool behind the duplicate guard.
func (rig *hsRig) sendMessage(w http.ResponseWriter, r *http.Request) error {
	rig.counter("send_message").Add(1)
	sum, size, err := rig.received(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = fmt.Fprintf(w, `{"sha256":%q,"bytes":%d}`, sum, size)
	return err
}

// hsRaw returns a handler writing a raw response.
func hsRaw(status int, contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// hsPanic panics with the planted secrets; its frame name is a stack marker.
func hsPanic() { panic("hs_panic: charge failed: " + hsPlanted + "\n" + hsPEM) }

// hsHTMLPage is a Tomcat error page with a Java and a Python stack trace.
const hsHTMLPage = `<!doctype html><html><head><title>HTTP Status 500 – Internal Server Error</title></head><body>
<h1>HTTP Status 500 – Internal Server Error</h1>
<pre>java.lang.IllegalStateException: charge failed with key ` + hsStripe + ` on ` + hsHost + `
	at com.acme.billing.Charge.run(Charge.java:88)
	at com.acme.billing.Api.post(Api.java:31)
	at org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:199)
</pre>
<pre>Traceback (most recent call last):
  File "/srv/app/billing.py", line 42, in charge
    stripe.Charge.create(api_key="` + hsStripe + `")
  File "/srv/app/db.py", line 7, in connect
    psycopg2.connect("` + hsDSN + `")
psycopg2.OperationalError: could not connect to server at ` + hsIP + `
</pre></body></html>`

// hsRawHTML writes the raw HTML 500 page, with headers that carry secrets.
func hsRawHTML(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Server", "Apache-Coyote/1.1 ("+hsHost+")")
	h.Set("X-Debug-Dsn", hsDSN)
	h.Set("Set-Cookie", "sid="+hsStripe+"; HttpOnly")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = io.WriteString(w, hsHTMLPage)
}

// hsVendor402 proxies Stripe's card_declined 402 as the vendor sent it.
func hsVendor402(requestID, message string) http.HandlerFunc {
	body := []byte(`{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","param":"source",` +
		`"message":` + strconv.Quote(message) + `,"doc_url":"https://stripe.com/docs/error-codes/card-declined"}}`)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-Id", requestID)
		w.Header().Set("Stripe-Version", "2024-06-20")
		hsRaw(http.StatusPaymentRequired, "application/json", body)(w, r)
	}
}

// hsResult is one answer of the service.
type hsResult struct {
	status int
	header http.Header
	body   []byte
	probe  string
	chiID  string
}

// send posts body to path with header; safe in any goroutine.
func (rig *hsRig) send(path string, body []byte, header http.Header) (hsResult, error) {
	probe := "p-" + strconv.FormatInt(rig.probes.Add(1), 10)
	req, err := http.NewRequest(http.MethodPost, rig.url+path, bytes.NewReader(body))
	if err != nil {
		return hsResult{}, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("X-Probe", probe)
	resp, err := rig.client.Do(req)
	if err != nil {
		return hsResult{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return hsResult{}, err
	}
	id, _ := rig.chiIDs.Load(probe)
	chiID, _ := id.(string)
	return hsResult{status: resp.StatusCode, header: resp.Header, body: b, probe: probe, chiID: chiID}, nil
}

// do is send for the test's goroutine.
func (rig *hsRig) do(t *testing.T, path string, body []byte, header http.Header) hsResult {
	t.Helper()
	res, err := rig.send(path, body, header)
	require.NoError(t, err)
	return res
}

// seenBy returns what the handler received for res.
func (rig *hsRig) seenBy(t *testing.T, res hsResult) hsSeen {
	t.Helper()
	v, ok := rig.seen.Load(res.probe)
	require.True(t, ok, "the handler did not run for %s", res.probe)
	return v.(hsSeen)
}
