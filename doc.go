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
// The package holds the contract and nothing that depends on transport details
// beyond net/http: the [Error] type and its With… methods, the code
// [Registry] with the built-in codes ([Default]), rendering to RFC 9457
// problem+json or an {"ok":false,"error":…} envelope ([Write], [Error.AppendJSON]),
// decoding either rendering back ([Parse]) and checking a rendering against the
// contract ([Validate]).
//
// Classification of downstream failures lives in package classify, vendor
// formats in package translate, and the HTTP middleware that applies all of
// it in package middleware.
package toolerr
