/**
 * `npm run mcp`: the MCP server for a local agent that speaks stdio (a desktop assistant, an IDE). It bridges
 * the agent's stdio to a Redline instance's `/mcp` endpoint with an API token, so the tools, their rules and
 * their effects are the instance's own. REDLINE_URL (default http://localhost:3000) and REDLINE_TOKEN.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const base = process.env.REDLINE_URL ?? "http://localhost:3000";
const token = process.env.REDLINE_TOKEN;
if (!token) {
  console.error("Set REDLINE_TOKEN to an API token from Redline's Account Settings → API tokens.");
  process.exit(1);
}

const remote = new StreamableHTTPClientTransport(new URL("/mcp", base), {
  requestInit: { headers: { authorization: `Bearer ${token}` } },
});
const local = new StdioServerTransport();

local.onmessage = (message: JSONRPCMessage) => {
  remote.send(message).catch((error: unknown) => {
    // A request the instance could not answer still gets an answer, so the agent is not left waiting.
    if ("id" in message && "method" in message)
      void local.send({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32603, message: `Redline at ${base} could not be reached: ${String(error)}` },
      });
  });
};
remote.onmessage = (message: JSONRPCMessage) => void local.send(message);
remote.onerror = (error: Error) => console.error(`redline mcp: ${error.message}`);
local.onclose = () => void remote.close();

await remote.start();
await local.start();
