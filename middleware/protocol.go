package middleware

import (
	"net/http"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// Protocols stay protocols. A Connect, gRPC or gRPC-Web call answers its
// errors in its own wire format: gRPC and gRPC-Web in trailers (gRPC-Web's
// inside the body, after a status of 200), Connect's unary calls in a JSON
// body whose code the client reads back. Replacing such a response with a
// problem+json body breaks the client: connect-go reads a replaced
// not_found as unimplemented. So the middleware recognises these requests,
// by the request alone, never by guessing from the response, and leaves
// their responses to the handler; the Connect interceptor of package
// toolerrconnect sanitizes and classifies their errors inside the protocol.

// rpcRequest reports whether r is a Connect, gRPC or gRPC-Web call:
//
//   - a Content-Type of application/grpc, application/grpc+…,
//     application/grpc-web… (gRPC and gRPC-Web, any codec) or
//     application/connect+… (Connect streaming);
//   - a Connect-Protocol-Version header (Connect unary, which connect-go
//     clients always send and servers may require);
//   - a GET whose query has connect=v1 (Connect unary GET).
//
// ct is the request's Content-Type.
func rpcRequest(r *http.Request, ct string) bool {
	if rpcContentType(ct) {
		return true
	}
	if canonheader.Value(r.Header, "Connect-Protocol-Version") != "" {
		return true
	}
	return r.Method == http.MethodGet && r.URL != nil && strings.Contains(r.URL.RawQuery, "connect=v1") &&
		r.URL.Query().Get("connect") == "v1"
}

// rpcContentType reports whether ct, a request's Content-Type, is one of
// gRPC, gRPC-Web or Connect streaming, in any case and with any codec.
func rpcContentType(ct string) bool {
	const grpc, connect = "application/grpc", "application/connect+"
	if asciifold.HasPrefix(ct, grpc) {
		rest := ct[len(grpc):]
		return rest == "" || rest[0] == '+' || rest[0] == '-' || rest[0] == ';'
	}
	return len(ct) > len(connect) && asciifold.HasPrefix(ct, connect)
}
