package toolerrecho

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/toolerr/toolerr"
)

// One request id. echo's RequestID middleware takes the request's
// X-Request-Id, else generates one, and sets it on the response; toolerr
// takes a valid incoming X-Request-Id, else generates one. The adapter
// makes them agree, in either order, by carrying the id in the request's
// X-Request-Id header:
//
//   - RequestID before toolerr: the id it generated, in the response's
//     header, becomes the request's, so toolerr takes it (when it is
//     valid: a client's id that toolerr rejects, too long or carrying a
//     secret, is replaced, in the response's header too);
//   - RequestID after toolerr: the request's header holds toolerr's id,
//     so RequestID takes it.
//
// Only the default header, X-Request-Id, is carried: a RequestID
// middleware configured with another TargetHeader keeps its own id there.

// adoptEchoID puts the id an earlier middleware set on the response (echo's
// RequestID generated it) in the request's X-Request-Id, where toolerr
// looks for an incoming id.
func adoptEchoID(r *http.Request, h http.Header) {
	id := h[echo.HeaderXRequestID]
	if len(id) != 1 || id[0] == "" || r.Header == nil {
		return
	}
	if in := r.Header[echo.HeaderXRequestID]; len(in) == 1 && in[0] == id[0] {
		return
	}
	r.Header[echo.HeaderXRequestID] = []string{id[0]}
}

// shareRequestID sets the request's X-Request-Id to toolerr's id for the
// request, for echo's RequestID and any other reader of the header behind
// the middleware. It shares the value the middleware stamped in
// toolerr.HeaderRequestID: nothing is allocated.
func shareRequestID(r *http.Request) {
	stamped := r.Header[toolerr.HeaderRequestID]
	if len(stamped) != 1 {
		return
	}
	if in := r.Header[echo.HeaderXRequestID]; len(in) == 1 && in[0] == stamped[0] {
		return
	}
	r.Header[echo.HeaderXRequestID] = stamped
}
