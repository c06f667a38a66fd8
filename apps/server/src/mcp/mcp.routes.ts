/**
 * The MCP server (Model Context Protocol, the official TypeScript SDK) at `/mcp`, over Streamable HTTP,
 * stateless: each POST is one JSON-RPC exchange with a server made for that caller. The caller is an API
 * token (`Authorization: Bearer`, resolved by modules/auth/api-tokens.ts like any API call); its tools
 * (tools.ts) call the API's own routes with that token, so an agent can do exactly what its owner can,
 * within the token's scope. `npm run mcp` bridges a local agent's stdio to this endpoint (stdio.ts).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyInstance, FastifyReply } from "fastify";
import { UnauthorizedError } from "../lib/errors.ts";
import { type RegisteredRoute, route } from "../lib/routes.ts";
import { buildTools, callTool, type McpTool, toolsFor } from "./tools.ts";

/** Where the MCP server answers. */
export const MCP_PATH = "/mcp";

function serverFor(
  app: FastifyInstance,
  version: string,
  tools: readonly McpTool[],
  authorization: string,
): McpServer {
  const server = new McpServer({ name: "redline", version });
  for (const tool of tools)
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (input: Record<string, unknown>) => {
        const { status, body } = await callTool(app, tool, input, authorization);
        const failed = status >= 400;
        const message = (body as { message?: string } | null)?.message;
        const data = (body as { data?: unknown } | null)?.data ?? body;
        return {
          isError: failed,
          content: [
            {
              type: "text" as const,
              text: failed
                ? `${message ?? "The request failed."} (HTTP ${status})`
                : JSON.stringify(data, null, 2),
            },
          ],
        };
      },
    );
  return server;
}

const notAllowed = (reply: FastifyReply) =>
  reply
    .status(405)
    .header("allow", "POST")
    .send({
      jsonrpc: "2.0",
      error: { code: -32000, message: "This MCP server is stateless: send each request as a POST." },
      id: null,
    });

export async function mcpRoutes(
  app: FastifyInstance,
  {
    root,
    registry,
    version,
  }: { root: FastifyInstance; registry: readonly RegisteredRoute[]; version: string },
) {
  let tools: McpTool[] | undefined;
  const doc = {
    summary: "The MCP server (Streamable HTTP, JSON-RPC)",
    action: "self",
    accepts: ["token"],
    writes: false,
    // JSON-RPC answered by the MCP SDK's transport on the raw response (the protocol's own answer, as tus
    // is for uploads); GET and DELETE only ever answer 405.
    response: "not-json",
  } as const;

  app.post(MCP_PATH, route(doc), async (request, reply) => {
    const principal = request.principal;
    if (principal?.kind !== "token") {
      reply.header("www-authenticate", 'Bearer realm="redline"');
      throw new UnauthorizedError(
        "Send an API token from Account Settings as 'Authorization: Bearer <token>'.",
        "token/required",
      );
    }
    tools ??= buildTools(registry);
    const server = serverFor(root, version, toolsFor(tools, principal.scope), request.headers.authorization!);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  app.get(
    MCP_PATH,
    route({ ...doc, summary: "Not offered: the MCP server is stateless (405)" }),
    (_request, reply) => notAllowed(reply),
  );
  app.delete(
    MCP_PATH,
    route({ ...doc, summary: "Not offered: the MCP server is stateless (405)" }),
    (_request, reply) => notAllowed(reply),
  );
}
