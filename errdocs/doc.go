// Package errdocs documents the codes of a [toolerr.Registry] for the
// people and the programs that read a service's API description: one
// Markdown page per registry ([Markdown]), an OpenAPI 3.1 document of the
// error responses to merge into the service's own ([OpenAPI]), and the
// error lists of a tool's description for a model ([ToolErrors],
// [MCPErrorsBlock], [MCPToolErrorsBlock]).
//
// Every export depends only on the registry's definitions and declared
// fallbacks, so it can be generated and committed (see examples/errdocs)
// and checked for drift in CI. A nil registry is [toolerr.Default].
//
// problem.schema.json, beside this file, is the published JSON Schema of
// the problem+json rendering; [OpenAPI] embeds it as its Problem schema.
package errdocs
