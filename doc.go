// Package toolerr is the error contract for HTTP endpoints that LLM agents
// call as tools.
//
// An agent cannot read a stack trace, open a dashboard or ask what "400 Bad
// Request" meant: the response is all it sees. toolerr gives every failure one
// shape, [Error], that an agent can branch on: a stable code from a [Registry],
// a [Category] from a closed taxonomy, whether the same call can succeed if
// retried and after how long, the offending field with its allowed or suggested
// values, an imperative hint for the model and a sentence safe to show a person,
// plus the request and trace ids that tie the failure to the service's logs.
//
// Where each part of the contract lives: the [Error] type is in error.go and
// its With… methods in error_with.go; the code [Registry] in registry.go, a
// code's [Def] in def.go, the built-in codes ([Default]) in builtin.go and the
// taxonomy in category.go. render.go writes an error as RFC 9457 problem+json
// ([Error.AppendJSON]) and as the {"ok":false,"error":…} envelope
// ([Error.AppendEnvelope]), within the limits of limits.go; observation.go
// writes the text observation a model reads ([Error.Observation]); write.go
// sends one of them as the response ([Write]), by the request's Accept
// (accept.go), and write_ok.go the success envelope ([WriteOK]). parse.go
// decodes either JSON rendering back ([Parse]) and validate.go checks a body
// against the contract ([Validate]). A handler reads its request's ids and
// records what the error path needs in scope.go ([RequestID], [TraceID],
// [RecordIntent], [RecordVendor]); the request scope behind them is plumbing
// that package middleware starts for every request. The documentation export
// of a registry (Markdown, OpenAPI, tool descriptions) is package errdocs.
//
// Classification of downstream failures lives in package classify, vendor
// formats in package translate, and the HTTP middleware that applies all of
// it in package middleware.
package toolerr
