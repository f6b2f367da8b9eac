// A third-party MCP client for mcptool's tests: the official TypeScript
// SDK connects to the Go server over streamable HTTP, lists the tools,
// calls each call given on the command line and prints one JSON line per
// call: {"tool", "result"} or {"tool", "threw"} when the SDK throws.
//
//   node client.mjs <url> '<json array of {"name","arguments"}>'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, callsJSON] = process.argv.slice(2);
const client = new Client({ name: "ts-agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools } = await client.listTools();
console.log(JSON.stringify({ tools: tools.map((t) => ({ name: t.name, hasOutputSchema: !!t.outputSchema })) }));
for (const call of JSON.parse(callsJSON)) {
  try {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    console.log(JSON.stringify({ tool: call.name, result }));
  } catch (err) {
    console.log(JSON.stringify({ tool: call.name, threw: String(err && err.message ? err.message : err) }));
  }
}
await client.close();
