package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sync"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// maxRequestBody bounds the request body the tap keeps; the suite's
// clients send far less.
const maxRequestBody = 1 << 20

// exchange is one HTTP exchange of the server, as it went over the wire:
// the request's method and body, the response's status, headers and
// every byte of its body (an SSE stream included), and the ids of the
// request's server span.
type exchange struct {
	method  string
	request []byte
	call    func() toolCall // the request's tools/call, decoded once

	mu      sync.Mutex
	traceID string // of the request's server span
	spanID  string // of the request's server span
	status  int
	header  http.Header
	body    bytes.Buffer
}

// setSpan notes the trace and span id of the request's server span.
func (e *exchange) setSpan(traceID, spanID string) {
	e.mu.Lock()
	e.traceID, e.spanID = traceID, spanID
	e.mu.Unlock()
}

// response returns the response's status, headers and body so far.
func (e *exchange) response() (status int, header http.Header, body []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status, e.header, bytes.Clone(e.body.Bytes())
}

// trace returns the trace id and span id of the request's server span.
func (e *exchange) trace() (traceID, spanID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.traceID, e.spanID
}

// requestID returns the response's X-Request-Id.
func (e *exchange) requestID() string {
	_, h, _ := e.response()
	return h.Get("X-Request-Id")
}

// toolCall is the tools/call a request carried.
type toolCall struct {
	ok   bool // the request was a tools/call
	name string
	args any
	key  any // its _meta idempotency key, nil when none
}

// decodeToolCall decodes the tools/call in a request's body.
func decodeToolCall(body []byte) toolCall {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments any            `json:"arguments"`
			Meta      map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
		return toolCall{}
	}
	return toolCall{ok: true, name: msg.Params.Name, args: msg.Params.Arguments, key: msg.Params.Meta[mcptool.MetaIdempotencyKey]}
}

// toolCall returns the name and arguments of the tools/call the request
// carried, or ok false for any other request.
func (e *exchange) toolCall() (name string, args any, ok bool) {
	c := e.call()
	return c.name, c.args, c.ok
}

// idempotencyKey returns the idempotency key in the _meta of the
// request's tools/call, nil when it has none.
func (e *exchange) idempotencyKey() any { return e.call().key }

// exchangeKey is the context key of a request's exchange.
type exchangeKey struct{}

// exchangeOf returns the exchange of the request of ctx, or nil.
func exchangeOf(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// wire keeps every exchange of a server. Safe for concurrent use.
type wire struct {
	mu  sync.Mutex
	all []*exchange
}

// tap returns next with every exchange kept: the outermost handler of the
// server, so what it keeps is what the client got.
func (w *wire) tap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
		if err != nil {
			http.Error(rw, "mcptest: reading the request failed", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		ex := &exchange{method: r.Method, request: body, call: sync.OnceValue(func() toolCall { return decodeToolCall(body) })}
		w.mu.Lock()
		w.all = append(w.all, ex)
		w.mu.Unlock()
		next.ServeHTTP(&tapWriter{ResponseWriter: rw, ex: ex}, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
	})
}

// exchanges returns the exchanges so far.
func (w *wire) exchanges() []*exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.all)
}

// callOf returns the exchanges whose request was a tools/call of tool with
// args (compared as JSON values), in the order they arrived.
func (w *wire) callOf(tool string, args json.RawMessage) []*exchange {
	var want any
	if json.Unmarshal(args, &want) != nil {
		return nil
	}
	var out []*exchange
	for _, ex := range w.exchanges() {
		if name, got, ok := ex.toolCall(); ok && name == tool && reflect.DeepEqual(got, want) {
			out = append(out, ex)
		}
	}
	return out
}

// tapWriter copies a response into its exchange as the handler writes it.
type tapWriter struct {
	http.ResponseWriter
	ex      *exchange
	started bool
}

// WriteHeader notes the status and the headers as sent.
func (w *tapWriter) WriteHeader(code int) {
	if !w.started && code >= 200 {
		w.started = true
		w.ex.mu.Lock()
		w.ex.status, w.ex.header = code, w.Header().Clone()
		w.ex.mu.Unlock()
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write keeps p.
func (w *tapWriter) Write(p []byte) (int, error) {
	if !w.started {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(p)
	w.ex.mu.Lock()
	w.ex.body.Write(p[:n])
	w.ex.mu.Unlock()
	return n, err
}

// Flush sends what was written (SSE streams).
func (w *tapWriter) Flush() {
	if !w.started {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap returns the server's writer, for http.ResponseController.
func (w *tapWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
