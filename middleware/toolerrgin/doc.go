// Package toolerrgin mounts toolerr in gin, in one line:
//
//	r := gin.New()
//	r.Use(toolerrgin.Middleware())
//
// Every failure of a gin route then reaches the agent as one structured,
// sanitized, traced toolerr error (problem+json by default), rendered once
// by the core middleware of package middleware: the adapter only hands it
// gin's way of failing, through middleware.ReportError.
//
// # What each gin idiom becomes
//
//   - c.Error(err), with nothing written: the error is reported; gin alone
//     answered 200 with an empty body. err's text never reaches the
//     client (see Error mapping).
//   - c.AbortWithError(409, conflict), conflict a *toolerr.Error: that
//     error as is, with its detail, field, details and its code's status.
//   - c.AbortWithError(403, plainErr): the local code of the status
//     (PERMISSION_DENIED, 403), no vendor blamed, plainErr's text in the
//     log only.
//   - c.Bind, c.ShouldBindJSON and friends: VALIDATION_FAILED, one
//     violation per failing field at its JSON pointer, with allowed values
//     and deterministic repairs. [Middleware] decorates gin's validator
//     ([Validator]) so that binding tells the adapter the argument type:
//     pointers use the json tags and an example_request can be proven
//     valid.
//   - c.JSON(500, gin.H{"error": "pq: … db.prod.internal …"}),
//     c.String(502, "<html>…nginx…</html>"), c.Status(503): captured and
//     replaced, as any raw error response (a gateway's page is evidence of
//     a downstream; the service's own 5xx is INTERNAL_ERROR).
//   - c.AbortWithStatus(400), then toolerr.Write(c.Writer, c.Request, e):
//     e, with its own status and no false upstream.
//   - a panic, with gin.Recovery before or after the adapter or without
//     it: INTERNAL_ERROR, no stack, nothing of the panic value; the
//     handlers after the one that panicked do not run.
//   - no route (gin's NoRoute, r.Use middleware included): TOOL_NOT_FOUND,
//     also when a NoRoute handler answers 404 itself, with the engine's
//     routes nearest the call in allowed_values and, when one alone is
//     meant, suggested_value (see [Routes]); a NoRoute handler that serves
//     a page passes. A path with routes for other methods
//     (HandleMethodNotAllowed): METHOD_NOT_ALLOWED with gin's Allow.
//   - a success (c.JSON(200, …), c.Stream, c.SSEvent, Flush, Hijack):
//     passes through untouched and unbuffered.
//   - a Connect, gRPC or gRPC-Web request: passes through untouched.
//
// The tool of each error is the name a [Tool] adapter gives, else the
// middleware.WithToolName option's, else the route (c.FullPath(),
// "/orders/:id", which the adapter sets as the request's Pattern for the
// middleware to read, as Go's ServeMux does); a request no route matched
// names none.
//
// # Error mapping
//
// gin's c.Errors may hold several errors. The one reported is the error a
// [Tool] handler returned, else the most specific of c.Errors, the
// latest of equals: a *toolerr.Error anywhere in the chain, then an
// argument error (binding's, the validator's, the JSON decoder's), then
// any. It becomes, in one table (errors.go):
//
//   - a *toolerr.Error: as is;
//   - validator.ValidationErrors (also inside binding.SliceValidationError):
//     VALIDATION_FAILED with violations;
//   - *json.UnmarshalTypeError, *json.SyntaxError, io.EOF,
//     io.ErrUnexpectedEOF, an unknown property refused
//     (binding.EnableDecoderDisallowUnknownFields): VALIDATION_FAILED, at
//     the field when known;
//   - another binding error (gin.ErrorTypeBind, or returned by
//     [ShouldBindWith]: a query value that does not parse): the code of
//     the status binding chose (400 VALIDATION_FAILED, 413
//     PAYLOAD_TOO_LARGE), VALIDATION_FAILED without one;
//   - another error with a status of 400 to 499 written
//     (c.AbortWithError): the local code of that status, the status kept;
//     its text is the detail only if the handler marked the error public
//     (c.Error(err).SetType(gin.ErrorTypePublic)), sanitized;
//     gin.ErrorTypePrivate, c.Error's default, keeps it in the log;
//   - anything else (no status, or 500 and above): classified by the core
//     middleware (a timeout, a cancelled context, an SDK error its mappers
//     know), else INTERNAL_ERROR. The text of a 5xx is never shown, public
//     or not.
//
// An error reported after a response below 400 went out cannot change it:
// it is logged and counted. c.Errors keeps its errors for gin's logger
// and otelgin, which record their text (otelgin in the span's status and
// exception events): once the error is reported, each text that holds a
// secret or payment data is replaced with its redacted text (the error
// unwraps to the original, for errors.Is and errors.As). Mount otelgin
// before the adapter, so that it reads c.Errors after that.
//
// # Argument validation
//
// A failing field is a JSON pointer in the client's names. A
// validator.FieldError names its field only by a namespace of Go names
// rooted at the struct's type ("bindArgs.Items[0].Sku"), so the json
// names come from the argument type, which the adapter learns in one of
// two ways:
//
//   - for the whole service, from gin's validator, which [Middleware]
//     decorates once, at setup (gin's documented extension point), after
//     which every c.Bind, c.ShouldBindJSON… reports what it validated; the
//     errors keep their types and messages. A validator installed after
//     Middleware is decorated the same way:
//
//     binding.Validator = toolerrgin.Validator(binding.Validator)
//
//   - per call, binding with [ShouldBindJSON] or [ShouldBindWith].
//
// Either way "/line_items/0/sku" results, and a slice's failing element
// is found. Without either (a validator installed after Middleware and not
// decorated), the namespace's own names are used: json names if a
// tag-name function is registered on the validator, Go's otherwise; a
// slice's failing element is not guessed.
//
// Reasons are plain words ("must be at most 100"); allowed_values come
// from oneof (the members), min, max, gte, lte, gt, lt (a range in JSON
// Schema's words, with the field's other bounds when the type is known)
// and len; a cross-field rule (eqfield, gtfield…) names the other field
// by its json name. A suggested_value is given only where a careful person would
// make the change without asking: the one oneof member a string matches
// but for case, surrounding space or a swapped separator; a string put in
// the case lowercase or uppercase asks for; a number above the maximum of
// a field tagged `toolerr:"cap"` (its handler caps it anyway) set to the
// maximum. Any other number out of range is what the user asked for and
// is never clamped. Every violation without a repair says to ask the user,
// with the choices when there are at most eight. A field tagged
// `toolerr:"norepair"` gets no repair at all. example_request
// is given only when every violation has a repair, more than one value
// changes, and the repaired arguments pass gin's validator. It is the
// client's own JSON body with the repairs applied, never the bound type
// re-encoded: a member the client did not send is not in it. The adapter
// keeps a copy of what the handlers read of a JSON body (up to 256 KiB,
// no second read); a longer body gets its violations and repairs but no
// example.
//
// # Composition
//
// Mount otelgin before the adapter, so that errors carry its span's
// trace id. A request-id middleware may stand before or after it: the
// adapter takes a valid incoming X-Request-Id and sets the request's
// X-Request-Id header to the id it uses, so a request-id middleware
// behind it (gin-contrib/requestid) adopts that id, and the client sees
// one. After the adapter returns, c.Writer reports the response as it
// went out (an outer logger logs the error's status), and a write to it
// after an error was sent is refused, so the error's body stays valid;
// when nothing was sent, a later write passes as it would without
// toolerr.
package toolerrgin
