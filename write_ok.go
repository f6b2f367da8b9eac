package toolerr

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// WriteOK writes a successful tool result in the envelope that
// [FormatEnvelope] errors share, with status 200 as application/json:
//
//	{"ok":true,"result":<result as JSON>,"request_id":"…","trace_id":"…"}
//
// The ids follow [Write]: the request id comes from the context
// ([RequestID]), else an X-Request-Id already set on w, else a new random
// one; the trace id from the context ([TraceID]), left out when there is
// none or it is not valid. The headers are those of Write: Content-Type,
// Content-Length, X-Request-Id, Cache-Control: no-store and
// X-Content-Type-Options: nosniff; a Retry-After set earlier is removed.
//
// result is encoded with encoding/json; nil is written as null. When it
// cannot be encoded, nothing of it is written: the response is the
// INTERNAL_ERROR of the registry set by [WithRegistry] (default [Default]),
// written by Write with opts and with the encoding error as its Go cause.
func WriteOK(w http.ResponseWriter, r *http.Request, result any, opts ...WriteOption) {
	encoded, err := json.Marshal(result)
	if err != nil {
		cfg := newWriteConfig(opts)
		Write(w, r, cfg.registry.New(CodeInternal, "").WithCause(fmt.Errorf("toolerr: encode result: %w", err)), opts...)
		return
	}
	h := w.Header()
	ctxID, traceID := "", ""
	if r != nil {
		ctxID, traceID = RequestID(r.Context()), TraceID(r.Context())
	}
	requestID := firstValidRequestID(ctxID, h.Get("X-Request-Id"))

	body := make([]byte, 0, len(encoded)+128)
	body = append(body, `{"ok":true,"result":`...)
	body = append(body, encoded...)
	body = appendMember(body, "request_id", requestID, 0)
	if ValidTraceID(traceID) {
		body = appendMember(body, "trace_id", traceID, 0)
	}
	body = append(body, '}')

	h.Set("Content-Type", ContentTypeEnvelope)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Request-Id", requestID)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Del("Retry-After")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body) // a failed write means the client went away; nothing to tell it.
}
