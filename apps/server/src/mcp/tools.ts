/**
 * The MCP server's tools, generated from the route registry: each tool names one registered API route; its
 * description is the route's summary, its input the route's path parameters, query and body schemas (as
 * declared in `route({...})`), and calling it calls that route in process as the token's owner — through
 * the same validation, policy and writes (and so the same realtime events and notifications) as the app.
 * Nothing here decides who may do what.
 */
import type { ApiTokenScope } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { RegisteredRoute } from "../lib/routes.ts";

/** The tools an agent gets: name → the route it calls (and, where the summary needs it, a word more). */
export const MCP_TOOL_ROUTES = [
  { name: "list_projects", route: "GET /api/projects" },
  { name: "get_project", route: "GET /api/projects/:projectId" },
  { name: "get_version", route: "GET /api/versions/:versionId" },
  {
    name: "get_version_content",
    route: "GET /api/versions/:versionId/view",
    more: "Signed addresses of the captured page, its screenshot or the uploaded file.",
  },
  {
    name: "list_comments",
    route: "GET /api/versions/:versionId/comments",
    more: "Each comment carries its anchor (the element or point it is pinned to), its status and its replies.",
  },
  { name: "add_comment", route: "POST /api/versions/:versionId/comments" },
  { name: "reply_to_comment", route: "POST /api/comments/:commentId/replies" },
  {
    name: "update_comment",
    route: "PATCH /api/comments/:commentId",
    more: "Set isResolved to true to resolve it, false to reopen it.",
  },
  { name: "approve_page", route: "PUT /api/pages/:pageId/approval" },
  { name: "get_board", route: "GET /api/projects/:projectId/board" },
  { name: "get_ticket", route: "GET /api/tickets/:ticketId" },
  { name: "create_ticket", route: "POST /api/projects/:projectId/tickets" },
  { name: "update_ticket", route: "PATCH /api/tickets/:ticketId" },
  { name: "move_ticket", route: "POST /api/tickets/:ticketId/move" },
  { name: "reply_to_ticket", route: "POST /api/tickets/:ticketId/entries" },
] as const;

export interface McpTool {
  name: string;
  description: string;
  method: string;
  url: string;
  readOnly: boolean;
  params: string[];
  /** Top-level fields that go into the query string, and whether the body is spread at the top level. */
  queryKeys: string[];
  bodyKeys: string[] | "nested" | null;
  inputSchema: z.ZodObject;
}

const SAFE = new Set(["GET", "HEAD"]);

/** The catalogue resolved against the routes this server registered; throws if a tool's route is missing. */
export function buildTools(registry: readonly RegisteredRoute[]): McpTool[] {
  return MCP_TOOL_ROUTES.map((entry) => {
    const [method, url] = entry.route.split(" ") as [string, string];
    const registered = registry.find((route) => route.method === method && route.url === url);
    if (!registered?.doc) throw new Error(`MCP tool ${entry.name}: no declared route ${entry.route}`);
    const { doc } = registered;
    const params = [...url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
    const shape: Record<string, z.ZodType> = {};
    for (const param of params)
      shape[param] = z
        .string()
        .min(1)
        .max(200)
        .describe(`The ${param.replace(/Id$/, "")}'s id`);
    let queryKeys: string[] = [];
    if (doc.query instanceof z.ZodObject) {
      queryKeys = Object.keys(doc.query.shape);
      for (const key of queryKeys) shape[key] = (doc.query.shape as Record<string, z.ZodType>)[key]!;
    }
    let bodyKeys: McpTool["bodyKeys"] = null;
    if (doc.body instanceof z.ZodObject) {
      bodyKeys = Object.keys(doc.body.shape).filter((key) => !(key in shape));
      for (const key of bodyKeys) shape[key] = (doc.body.shape as Record<string, z.ZodType>)[key]!;
    } else if (doc.body) {
      bodyKeys = "nested";
      shape.body = doc.body;
    }
    const more = "more" in entry ? ` ${entry.more}` : "";
    return {
      name: entry.name,
      description: `${doc.summary}.${more}`,
      method,
      url,
      readOnly: SAFE.has(method),
      params,
      queryKeys,
      bodyKeys,
      // Strict: a misspelt field is an error the agent sees, never silently dropped.
      inputSchema: z.object(shape).strict(),
    };
  });
}

/** The tools a token of `scope` may call: a read token gets the reading ones only. */
export const toolsFor = (tools: readonly McpTool[], scope: ApiTokenScope) =>
  scope === "read" ? tools.filter((tool) => tool.readOnly) : [...tools];

/** Calls the tool's route in process with the caller's own token; the route's answer is the tool's. */
export async function callTool(
  app: FastifyInstance,
  tool: McpTool,
  input: Record<string, unknown>,
  authorization: string,
): Promise<{ status: number; body: unknown }> {
  const path = tool.url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(String(input[name])),
  );
  const query = new URLSearchParams();
  for (const key of tool.queryKeys) if (input[key] !== undefined) query.set(key, String(input[key]));
  const body =
    tool.bodyKeys === "nested"
      ? input.body
      : tool.bodyKeys
        ? Object.fromEntries(
            tool.bodyKeys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]),
          )
        : undefined;
  const response = await app.inject({
    method: tool.method as "GET",
    url: query.size > 0 ? `${path}?${query}` : path,
    headers: { authorization, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
  let parsed: unknown = response.body;
  try {
    parsed = JSON.parse(response.body);
  } catch {}
  return { status: response.statusCode, body: parsed };
}
