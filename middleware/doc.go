// Package middleware makes every failure of a tool endpoint reach the agent
// as one structured, sanitized, traced toolerr error.
//
// Mount [New] around the tool handlers, and write handlers that return
// errors with [Tool]:
//
//	r := chi.NewRouter()
//	r.Use(middleware.New())
//	r.Post("/tools/refund", middleware.Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
//		resp, err := stripe.Do(req.WithContext(r.Context()))
//		if err != nil {
//			return err // a timeout becomes UPSTREAM_TIMEOUT, retryable when idempotent
//		}
//		...
//	}))
//
// What the middleware does with each kind of failure:
//
//   - a returned *toolerr.Error is rendered as it is, its text sanitized;
//   - a returned Go error is classified (network, context) or becomes
//     INTERNAL_ERROR; its text goes to the log only;
//   - a raw error response (status 400 or more: an HTML 502 page, a vendor
//     JSON body, plain text) is buffered up to a cap, translated,
//     classified, sanitized and replaced;
//   - a panic becomes INTERNAL_ERROR, or aborts the connection when the
//     response had already started.
//
// A response below 400 passes through untouched and unbuffered: Flush,
// Hijack, io.Copy's ReadFrom and http.ResponseController keep working.
//
// Every error is recorded on the current span (error.type, one exception
// event, status Error for 5xx), counted in toolerr.errors and, when no
// mapping explained a downstream failure, in toolerr.upstream.unmapped, and
// logged once with its code, category, status, request id and trace id.
package middleware
