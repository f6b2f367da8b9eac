// Package mcpcore is what every MCP adapter of toolerr shares, whatever
// MCP server library it serves (package middleware/mcptool for the
// official Go SDK, module middleware/toolerrmcpgo for mark3labs/mcp-go):
// the configuration, the one request scope per call, the failure of a
// call (problem object and observation text), its telemetry, the check of
// arguments against a tool's input schema, the answer to an unknown tool,
// and at-most-once execution of mutating tools.
//
// An adapter translates its library's types to and from these; the
// behaviour itself is written once, here, and checked for every adapter
// by package middleware/mcptest.
package mcpcore
