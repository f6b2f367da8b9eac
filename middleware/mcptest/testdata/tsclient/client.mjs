// A third-party MCP client for the conformance suite of toolerr's MCP
// adapters (package middleware/mcptest) and mcptool's tests: the official
// TypeScript SDK connects to a Go server over streamable HTTP, lists the
// tools, makes each call given on the command line in order, in one
// session, and prints one JSON line per call.
//
//   node client.mjs <url> '<json array of calls>' ['<json object of headers>']
//
// A call is {"name", "arguments", "_meta"?, "cancelAfterMs"?}; _meta goes
// in the call's params as it is (an idempotency key, say); with
// cancelAfterMs the client aborts the call after that many milliseconds,
// which makes the SDK send notifications/cancelled. The headers, when
// given, go with every request (an Authorization header, say). Output, one
// JSON object a line:
//
//   {"tools": [<every listed tool as the SDK returned it, plus hasOutputSchema>]}
//   {"index": i, "tool": name, "result": <the CallToolResult as the SDK returned it>}
//   {"index": i, "tool": name, "threw": <the message of what the SDK threw>}
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, callsJSON, headersJSON] = process.argv.slice(2);
const headers = headersJSON ? JSON.parse(headersJSON) : {};
const client = new Client({ name: "ts-agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
const { tools } = await client.listTools();
console.log(JSON.stringify({ tools: tools.map((t) => ({ ...t, hasOutputSchema: !!t.outputSchema })) }));
const calls = JSON.parse(callsJSON);
for (const [index, call] of calls.entries()) {
  const options = call.cancelAfterMs ? { signal: AbortSignal.timeout(call.cancelAfterMs) } : undefined;
  const params = { name: call.name, arguments: call.arguments };
  if (call._meta) {
    params._meta = call._meta;
  }
  try {
    const result = await client.callTool(params, undefined, options);
    console.log(JSON.stringify({ index, tool: call.name, result }));
  } catch (err) {
    console.log(JSON.stringify({ index, tool: call.name, threw: String(err && err.message ? err.message : err) }));
  }
}
await client.close();
