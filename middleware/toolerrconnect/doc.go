// Package toolerrconnect gives Connect, gRPC and gRPC-Web handlers built
// with connect-go (connectrpc.com/connect) the errors HTTP tools get from
// package middleware: classified, sanitized and traced, but inside the
// protocol, so every client keeps reading its codes and messages.
//
// Mount the interceptor on a handler, in one line:
//
//	mux.Handle(procedure, connect.NewUnaryHandler(procedure, getOrder,
//		connect.WithInterceptors(toolerrconnect.NewInterceptor())))
//
// Generated handlers take the same option:
// ordersv1connect.NewOrderServiceHandler(svc, connect.WithInterceptors(…)).
//
// It may run under middleware.New: the HTTP middleware leaves Connect,
// gRPC and gRPC-Web responses to the handler (their errors stay in the
// protocol) and sets the request id, which the interceptor then uses, so
// request_id equals the response's X-Request-Id. The middleware
// recognises a Connect unary call by its Connect-Protocol-Version header,
// which connect-go clients always send; a hand-written client that omits
// it (curl) is answered as an HTTP tool, problem+json.
// connect.WithRequireConnectProtocolHeader makes the handler refuse such
// calls instead.
//
// # What each Connect idiom becomes
//
//   - return nil, toolerr error (a *toolerr.Error anywhere in the chain):
//     kept as it is, its code decides the Connect code ([CodeFor]).
//   - return nil, connect.NewError(code, err) (the handler's own): the
//     Connect code is kept; the toolerr code follows it without blaming a
//     downstream (Unavailable is TOOL_UNAVAILABLE, DeadlineExceeded
//     TOOL_TIMEOUT, Internal, Unknown and DataLoss INTERNAL_ERROR); the
//     message is sanitized, and for INTERNAL_ERROR replaced by the code's
//     title, since it is usually a Go error's raw text; its RetryInfo and
//     BadRequest are read into the error.
//   - return nil, err where err is a downstream's *connect.Error (a
//     Connect client call's, connect.IsWireError): classified as a
//     downstream failure by [Mapper], RetryInfo's delay included; the
//     Connect code is then [CodeFor]'s (a downstream's Internal is sent as
//     Unknown, UPSTREAM_UNCLASSIFIED). A client call that got no answer
//     (a refused dial, a context's end) is read by its Go error.
//   - return nil, any other Go error: classified (a deadline is
//     TOOL_TIMEOUT, a cancellation CANCELLED, a network error of an
//     outbound call transient), else INTERNAL_ERROR; its text goes to the
//     log only.
//   - panic: INTERNAL_ERROR, nothing of the panic value in the message,
//     the value and stack redacted in the log; http.ErrAbortHandler is
//     panicked again. A connect.WithRecover mounted inside the
//     interceptor (given after it) sees the panic first; its error is then
//     converted like any other.
//   - connect.NewNotModifiedError: passed through (a 304 is a success).
//   - streaming handlers: the returned error ends the stream the same way,
//     after the messages already sent.
//   - client side: nothing; calls pass through. Read a client's errors
//     with [Mapper] (middleware.WithErrorMappers(toolerrconnect.Mapper())).
//
// The tool name is the procedure (spec.Procedure) unless [WithToolName]
// says otherwise; the request id is the toolerr middleware's, or a new
// one sent in X-Request-Id; the trace id is the middleware's or the
// span's.
//
// Every text of an error (detail, field, violations, hints, metadata,
// kept details) passes through the sanitizer ([WithSanitizer]; the HTTP
// middleware's default), then through a mask of Luhn-valid card numbers
// ("[card ending 4242]"), which the core sanitizer does not apply yet.
//
// # Code table
//
// toolerr → Connect ([CodeFor]): validation InvalidArgument; not_found
// NotFound; auth Unauthenticated; permission and policy PermissionDenied;
// precondition FailedPrecondition; conflict Aborted (DUPLICATE_ACTION
// AlreadyExists); rate_limit ResourceExhausted; transient Unavailable
// (UPSTREAM_TIMEOUT and TOOL_TIMEOUT DeadlineExceeded); cancelled
// Canceled; internal Internal; upstream Unknown (NOT_IMPLEMENTED
// Unimplemented).
//
// Connect → toolerr, for a downstream's error ([Mapper]), after the gRPC
// status code documentation: Canceled CANCELLED; Unknown, Internal and
// DataLoss UPSTREAM_UNCLASSIFIED; InvalidArgument and OutOfRange
// VALIDATION_FAILED; DeadlineExceeded UPSTREAM_TIMEOUT; NotFound
// NOT_FOUND; AlreadyExists and Aborted CONFLICT; PermissionDenied
// PERMISSION_DENIED; ResourceExhausted RATE_LIMITED (QUOTA_EXHAUSTED with
// a QuotaFailure); FailedPrecondition PRECONDITION_FAILED; Unimplemented
// NOT_IMPLEMENTED; Unavailable UPSTREAM_UNAVAILABLE; Unauthenticated
// UNAUTHENTICATED. Unavailable and DeadlineExceeded may have taken effect:
// retryable only for idempotent procedures (connect.IdempotencyLevel).
// The rows are those of package mappers/grpcerr (the same google.rpc
// codes), kept here rather than imported: grpcerr reads grpc-go's
// *status.Status, and importing it would link grpc-go into every Connect
// service, which connect-go exists to avoid.
//
// # Details carried
//
// Every error the interceptor sends carries, as AIP-193 and grpc-gateway
// do, google.rpc details (google.golang.org/genproto/googleapis/rpc/errdetails):
//
//   - ErrorInfo{Reason: the toolerr code, Domain: [Domain] ("toolerr"),
//     Metadata: category, severity, retryable, request_id, tool, and when
//     set trace_id, field, hint, retry_after_ms, upstream_vendor,
//     upstream_code, upstream_status, upstream_request_id, and the JSON of
//     allowed_values, suggested_value, example_request and details (each at
//     most 1 KiB), and of actions when a fallback declared with
//     [WithFallbacks] is offered};
//   - RetryInfo{RetryDelay} when retry_after_ms is set;
//   - BadRequest{FieldViolations} from the violations (field as an AIP-161
//     path, description from the reason), or from the field alone;
//   - LocalizedMessage{Locale: "en-US", Message: human_hint};
//   - Help{Links: the code's docs URL} when it is https.
//
// Of the details a handler's own *connect.Error carried, the types whose
// text can be sanitized are kept, every string in them sanitized:
// ErrorInfo of other domains, QuotaFailure, PreconditionFailure,
// ResourceInfo, LocalizedMessage (then sent in place of the human hint)
// and Help (https links only). RetryInfo and BadRequest are read into the
// error and sent from it. Everything else is dropped, failing closed:
// DebugInfo (a stack trace by definition), RequestInfo, and any type not
// linked into the binary or not one of these, whose bytes cannot be
// sanitized. Binary metadata (-bin keys) is dropped too; the count of
// dropped details is logged.
package toolerrconnect
