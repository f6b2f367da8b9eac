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
// field violation as field, all of them as details), QuotaFailure (quota
// exhaustion: not retryable), PreconditionFailure, ResourceInfo, Help
// (links) and LocalizedMessage (the message, preferred). Text from the
// server passes the classifier's message filter like any vendor text.
package grpcerr
