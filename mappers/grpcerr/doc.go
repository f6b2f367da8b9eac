// Package grpcerr classifies the errors of gRPC calls: a *status.Status
// anywhere in a handler's error chain (status.FromError reads wrapped
// errors), with the google.rpc details the server attached, becomes a
// classify.Outcome, and so a toolerr error with the right code,
// retryability, delay and field.
//
// It is a Go module of its own, beside the core, because it needs
// google.golang.org/grpc and the google.rpc protos: a service that makes
// no gRPC calls never downloads them. Add it to the middleware, mcptool or
// a classifier:
//
//	middleware.New(middleware.WithErrorMappers(grpcerr.Mapper()))
//
// Every status code is mapped (see table.go, each row with its reason from
// the gRPC status code documentation); UNAVAILABLE and DEADLINE_EXCEEDED
// may have taken effect on the server, so they are retryable only for
// idempotent calls, except a dial the client could not make (connection
// refused), which sent nothing. Details read: RetryInfo (the delay),
// ErrorInfo (reason, domain and metadata as details), BadRequest (the first
// field violation as field, all of them as violations), QuotaFailure (quota
// exhaustion: not retryable), PreconditionFailure, ResourceInfo, Help
// (links) and LocalizedMessage (the message, preferred). Text from the
// server passes the classifier's message filter like any vendor text.
//
// An ErrorInfo's reason is finer than the status code when its domain is
// known, so a per-domain table decides the class then. The domain
// googleapis.com (Google APIs' standard reasons) is read by package
// translate's Google rules and table, the ones its JSON errors are read
// by: SERVICE_DISABLED is UPSTREAM_MISCONFIGURED, RATE_LIMIT_EXCEEDED
// rate limited unless the quota named is a daily one, and so on; upstream
// is then Google's, with the reason as its code and the status code in
// details.grpc_code. WithDomain adds a service's own domain and reasons.
// A reason no table knows leaves the status code to decide; the status
// code always decides whether the call may have run.
package grpcerr
