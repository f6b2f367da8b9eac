// Package toolerrmcpgo makes the failures of MCP servers built with github.com/mark3labs/mcp-go reach the agent as toolerr errors.
package toolerrmcpgo
