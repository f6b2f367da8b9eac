package middleware

import (
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/toolerr/toolerr"
)

// panicInfo is a recovered panic: its value and the stack of the panicking
// goroutine. Both go to the log and the span, secrets redacted, never to
// the body.
type panicInfo struct {
	value any
	stack []byte
}

// panicError is the Go cause of the INTERNAL_ERROR that replaces a panic.
type panicError struct{ value any }

// Error describes the panic value for logs.
func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// Unwrap returns the panic value when it is an error (a runtime error, a
// *runtime.PanicNilError), so errors.As can find it.
func (p panicError) Unwrap() error {
	err, _ := p.value.(error)
	return err
}

// recovered handles a panic of the handler, or of the middleware's own
// error path:
//   - http.ErrAbortHandler is re-panicked untouched: the handler asked
//     net/http to abort the response;
//   - a hijacked or upgraded (101) connection belongs to the handler: the
//     panic is logged and nothing is written;
//   - after the response has started, the panic is logged and the
//     connection aborted with http.ErrAbortHandler, so the client sees a
//     broken response rather than a truncated one that looks whole;
//   - otherwise the agent gets INTERNAL_ERROR, including when the handler
//     had written an error status and part of its body, which were held
//     back and are dropped.
func (m *handler) recovered(rec *recorder, r *http.Request, v any) {
	if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
		panic(v)
	}
	p := &panicInfo{value: v, stack: debug.Stack()}
	e := m.cfg.registry.New(toolerr.CodeInternal, "").WithCause(panicError{v})
	switch {
	case rec.hijacked || rec.status == http.StatusSwitchingProtocols:
		m.tel.record(rec, r, m.complete(rec, r, e), 0, p)
	case rec.started:
		m.tel.record(rec, r, m.complete(rec, r, e), rec.status, p)
		panic(http.ErrAbortHandler)
	default:
		m.respond(rec, r, e, true, p) // built here, for this response
	}
}
