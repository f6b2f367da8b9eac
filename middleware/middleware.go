package middleware

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// handler is one configured middleware; it is immutable and shared by all
// requests.
type handler struct {
	cfg     config
	tel     *telemetry
	ids     idVerdicts // ids.go
	names   toolNames  // toolname.go
	cleaner *textCleaner
	// hooks are the request scope's hooks. Clean is the text filter
	// every error of the middleware passes through: the sanitizer, with
	// the registry's texts done once (cleantext.go); Redact is the
	// sanitizer's secret stage (a failure response idempotency stores
	// keeps its shape); Unmapped counts, logs and samples an unmapped
	// response a handler's outbound call read (translate.Response).
	hooks reqscope.Hooks
	// writeOpts are the options of every toolerr.Write of the
	// middleware, made once; problemOpts those of the problem object
	// inside a JSON-RPC error (jsonrpc_error.go).
	writeOpts, problemOpts []toolerr.WriteOption
}

// recorderKey is the context key of the request's recorder (which is the
// request's context itself), through which a [Tool] adapter hands its error
// to the middleware.
type recorderKey struct{}

// New returns the toolerr middleware: mount it with chi's Router.Use or
// Router.With, or wrap any http.Handler. For each request it
//
//   - finds the request id (see [RequestIDPolicy]) and the trace id (the
//     span in the context, else a valid traceparent header; else none),
//     echoes the request id in X-Request-Id and stores both in the context
//     ([toolerr.RequestID], [toolerr.TraceID]) and in the request's
//     Toolerr-Request-Id and Toolerr-Trace-Id headers, where
//     package mcptool reads the ids of each MCP tool call;
//   - passes responses below 400 through untouched and unbuffered;
//   - replaces a response of 400 or more that is not already a toolerr
//     error (an HTML page, a vendor JSON body, plain text, nothing) with the
//     classified, sanitized error; a toolerr error keeps its contents and
//     gets its ids filled;
//   - renders the error a [Tool] handler returned;
//   - answers a JSON-RPC request (MCP's streamable HTTP, any JSON-RPC 2.0
//     endpoint) in JSON-RPC: the library's own JSON-RPC errors kept,
//     sanitized, and every other error, a panic included, as a JSON-RPC
//     error object with the request's id and the problem as its data
//     (see the package documentation);
//   - recovers panics: before anything was sent the agent gets
//     INTERNAL_ERROR; after, the connection is aborted; a hijacked or
//     upgraded connection is left alone; http.ErrAbortHandler is re-panicked;
//   - attaches the intent recorded with toolerr.RecordIntent to a CANCELLED
//     or UPSTREAM_TIMEOUT error;
//   - records each error on the current span, in the toolerr.errors
//     counter and in one log record.
//
// Mounting New twice on one request's path is harmless: the inner one steps
// aside for the outer.
func New(opts ...Option) func(http.Handler) http.Handler {
	m := newHandler(opts)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m.serve(w, r, next)
		})
	}
}

// newHandler builds a middleware from its options.
func newHandler(opts []Option) *handler {
	cfg := newConfig(opts)
	c := newTextCleaner(cfg.sanitizer, cfg.registry)
	tel := newTelemetry(cfg)
	return &handler{cfg: cfg, tel: tel, cleaner: c,
		hooks:       reqscope.Hooks{Clean: c.clean, Redact: cfg.sanitizer.Redact, Unmapped: tel.unmapped.Report},
		writeOpts:   []toolerr.WriteOption{toolerr.WithFormat(cfg.format), toolerr.WithRegistry(cfg.registry)},
		problemOpts: []toolerr.WriteOption{toolerr.WithFormat(toolerr.FormatProblem), toolerr.WithRegistry(cfg.registry)}}
}

// recorderFrom returns the recorder of the request of ctx, or nil.
func recorderFrom(ctx context.Context) *recorder {
	rec, _ := ctx.Value(recorderKey{}).(*recorder)
	return rec
}

// serve runs next under the middleware.
func (m *handler) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if recorderFrom(r.Context()) != nil {
		next.ServeHTTP(w, r) // an outer toolerr middleware has this request
		return
	}
	ids := new(requestIDs)
	rec := &recorder{w: w, m: m, next: next, ids: ids}
	reqID, traceID := m.requestID(r, w.Header(), ids), traceIDOf(r)
	rec.Init(r.Context(), reqID, traceID)
	rec.SetHooks(&m.hooks)
	r = r.WithContext(rec)
	w.Header()["X-Request-Id"] = stamp(r, reqID, traceID, &ids.vals) // stamp.go; canonical already: skip Set's check
	ct := canonheader.Value(r.Header, "Content-Type")
	if rpcRequest(r, ct) {
		// Connect, gRPC and gRPC-Web answer in their own wire format,
		// errors included (protocol.go): the ids are set and the response
		// is the handler's, untouched, panics included.
		rec.detached = true
		next.ServeHTTP(w, r)
		return
	}
	rec.jsonrpc = jsonrpcHintOf(r, ct)
	stampSpan(r, rec.jsonrpc != hintNone) // stamp.go
	if rec.jsonrpc != hintNone && r.Method == http.MethodPost {
		// It may be JSON-RPC: the body is watched, to be read only if an
		// error is answered (jsonrpc.go, jsonrpc_body.go).
		if rec.reqBody = watchBody(r.Body); rec.reqBody.src != nil {
			r.Body = rec.reqBody
		}
	}
	defer func() {
		if v := recover(); v != nil {
			defer rec.detach()
			defer rec.reqBody.release()
			defer rec.releaseFailure()
			defer m.countCall(rec, r)
			defer rec.endSpan() // recovered records, and may panic again
			m.recovered(rec, r, v)
			return
		}
		rec.endSpan()
		m.countCall(rec, r)
		rec.releaseFailure()
		rec.reqBody.release()
		rec.detach()
	}()
	next.ServeHTTP(rec.wrap(), r)
	m.finish(rec, r)
}

// finish replaces a held-back error response, or sends a Tool's rendered
// error, once the handler has returned.
func (m *handler) finish(rec *recorder, r *http.Request) {
	switch {
	case rec.err != nil && rec.hijacked:
		// The connection is the handler's; the error can only be logged.
		m.tel.record(rec, r, m.complete(rec, r, m.fromError(r, rec.err)), 0, nil)
	case rec.hijacked:
	case rec.err != nil && rec.started:
		// The response is out; the error can only be logged and counted.
		m.tel.record(rec, r, m.complete(rec, r, m.fromError(r, rec.err)), rec.status, nil)
	case rec.err != nil:
		m.respond(rec, r, m.fromError(r, rec.err), false, nil)
	case rec.capturing && rec.fail != nil && rec.fail.rendered != nil && rec.fail.rendered.current(rec):
		// A Tool rendered its error and the chain passed it on: send that
		// rendering (failure.go).
		m.replay(rec, r, rec.fail.rendered)
	case rec.capturing:
		if m.keepJSONRPCError(rec, r) {
			return // the JSON-RPC library's own error, sanitized (jsonrpc_kept.go)
		}
		e, owned := m.fromCapture(rec, r)
		m.respond(rec, r, e, owned, nil)
	case !rec.started && errors.Is(r.Context().Err(), context.DeadlineExceeded):
		// The handler gave up on the request's deadline (chi's Timeout,
		// a server-wide one) and wrote nothing: whatever the middleware
		// that set the deadline might write, the agent gets TOOL_TIMEOUT.
		m.respond(rec, r, m.fromError(r, r.Context().Err()), false, nil)
	}
}

// respond completes e, writes it in place of whatever the handler held
// back, and records it. toolerr.Write sanitizes it, once: r's context is
// the recorder, whose text filter is the middleware's sanitizer; the error
// it recorded as rendered is the one logged and counted.
//
// owned says that e was built for this response alone (a translation of the
// captured response), so that annotate may fill it in place.
func (m *handler) respond(rec *recorder, r *http.Request, e *toolerr.Error, owned bool, p *panicInfo) {
	e = m.withNearestRoutes(rec, r, m.annotate(rec, r, e, true, owned)) // toolroutes.go
	if call := m.jsonrpcCallOf(rec, r, true); call != nil {
		m.sendJSONRPC(rec, r, call, e, p) // a JSON-RPC request's answer is JSON-RPC
		return
	}
	if e.Code == toolerr.CodeMethodNotAllowed && rec.allow == "" {
		// A reported 405 (a framework's router handing its answer over
		// with ReportError) keeps the Allow header the router set, as a
		// captured one does (attribution.go).
		if methods := allowedMethods(rec.w.Header()); len(methods) > 0 {
			rec.allow = strings.Join(methods, ", ")
			if e.AllowedValues == nil {
				e = e.WithAllowedValues(methods)
			}
		}
	}
	clearHeader(rec.w.Header())
	if rec.allow != "" && e.Code == toolerr.CodeMethodNotAllowed {
		rec.w.Header()["Allow"] = []string{rec.allow}
	}
	rec.capturing, rec.body, rec.started, rec.replaced = false, nil, true, true
	before := reqscope.Written[*toolerr.Error](rec)
	toolerr.Write(rec.w, r, e, m.writeOpts...)
	written := reqscope.Written[*toolerr.Error](rec)
	if written == nil || written == before {
		written = m.sanitized(e) // not reached: r's scope is the recorder's
	}
	m.tel.record(rec, r, written, written.Status, p)
}

// complete adds what the request knows to e ([handler.annotate]) and makes
// it safe to log: every string of every member sanitized. An error the
// middleware renders is sanitized by toolerr.Write instead, once.
func (m *handler) complete(rec *recorder, r *http.Request, e *toolerr.Error) *toolerr.Error {
	return m.sanitized(m.annotate(rec, r, e, false, false))
}

// annotate adds what the request knows to e: the tool name; the fallbacks
// declared for the tool that the failure allows ([WithFallbacks]); on
// cancellation or timeout the intent the handler recorded last; the
// request's own request and trace ids in place of any the error carried (a
// handler's, a downstream's), the trace id being the one of the span the
// middleware started for the error when the request has none
// ([telemetry.trace]). It sanitizes nothing: every error the middleware
// sends, logs or records on a span passes through the sanitizer after it,
// in toolerr.Write or in [handler.complete].
//
// For toolerr.Write (forWrite), the instance, when e has none, is set to
// the request path here, as Write would set it. The ids are the ones Write
// puts in: it neither cleans nor copies an error that carries them already,
// so the copy made here is the only one.
func (m *handler) annotate(rec *recorder, r *http.Request, e *toolerr.Error, forWrite, owned bool) *toolerr.Error {
	tool := e.Tool
	if tool == "" {
		tool = m.toolOf(rec, r)
		if tool != "" && tool == rec.tool {
			m.cleaner.learn(tool) // a Tool adapter's name: the service's own
		}
	}
	ctx := r.Context()
	interrupted := e.Code == toolerr.CodeCancelled || e.Code == toolerr.CodeUpstreamTimeout ||
		e.Code == toolerr.CodeToolTimeout || ctx.Err() != nil
	var intent *toolerr.Intent
	if e.Intent == nil && interrupted {
		if in, ok := reqscope.RecordedIntent[toolerr.Intent](ctx); ok {
			intent = &in
		}
	}
	id, ctxTrace := toolerr.RequestID(ctx), toolerr.TraceID(ctx)
	trace := ctxTrace
	if own := m.tel.trace(rec, r); trace == "" {
		trace = own
	}
	instance := e.Instance
	if forWrite && instance == "" && r.URL != nil {
		instance = r.URL.EscapedPath() // as Write would, saving it a copy
	}
	if tool == e.Tool && intent == nil && e.RequestID == id && e.TraceID == trace && instance == e.Instance {
		return m.offerFallbacks(r, e) // fallback.go
	}
	c := e // owned: filled in place
	if !owned {
		cp := *e // one copy for all of them; the With… methods would make one each
		c = &cp
	}
	c.Tool, c.RequestID, c.TraceID, c.Instance = tool, id, trace, instance
	if intent != nil {
		c.Intent = intent
	}
	return m.offerFallbacks(r, c)
}

// keptHeader reports whether an error response keeps header k from the
// replaced one: set by other middleware for the browser, the transport or
// idempotency, these say nothing about the failure. Every other header the
// handler set (Server, Set-Cookie, vendor ids, Content-Length) goes. A
// switch, not a map: it runs for every header of every error response.
func keptHeader(k string) bool {
	switch k {
	case "Access-Control-Allow-Origin",
		"Access-Control-Allow-Credentials",
		"Access-Control-Expose-Headers",
		"Vary",
		"Strict-Transport-Security",
		"X-Request-Id",
		// Set by the idempotency middleware: where the response came from.
		"Idempotent-Replayed",
		"Idempotency-Retention":
		return true
	}
	return false
}

// clearHeader deletes every header of h but the kept ones.
func clearHeader(h http.Header) {
	for k := range h {
		if !keptHeader(k) {
			delete(h, k)
		}
	}
}
