/**
 * The MCP server (issue #28) driven by the official SDK's client, as an agent would: over Streamable HTTP
 * with an API token, and through the stdio bridge (`npm run mcp`). Tools are the API's routes, so their
 * answers and refusals are the API's.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../testing/http-client.ts";
import { signUpVerified } from "../testing/http-client.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { routeDrivers } from "../testing/test-db.ts";
import { MCP_TOOL_ROUTES } from "./tools.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../../..");

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
const textOf = (result: unknown) => (result as ToolResult).content.map((part) => part.text).join("\n");

describe.each(routeDrivers())("MCP server (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let stranger: ApiClient;
  let projectId: string;
  let versionId: string;
  let commentId: string;
  const tokenOf = async (client: ApiClient, scope: "read" | "read-write") =>
    (await client.post("/api/me/tokens", { name: `Agent ${scope}`, scope })).body.data.secret as string;
  const connect = async (token: string) => {
    const client = new Client({ name: "redline-test-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", t.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp({ driver });
    const stamp = Date.now().toString(36);
    owner = await signUpVerified(t.url, t.inbox!, `mcp-${stamp}@example.com`);
    stranger = await signUpVerified(t.url, t.inbox!, `mcp-stranger-${stamp}@example.com`);
    projectId = (await owner.post("/api/projects", { type: "image", title: "Agent review" })).body.data.id;
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const uploaded = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "hero.png",
      type: "image/png",
      bytes: image,
    });
    versionId = uploaded.body.data.versionId;
    const made = await owner.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.25, y: 0.5 },
      deviceWidth: 1280,
      comment: "The hero is too dark",
    });
    commentId = made.body.data.id;
  });
  afterAll(() => t.close());

  it("refuses a caller without a token", async () => {
    const answer = await fetch(`${t.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain("Bearer");
    expect(
      (await fetch(`${t.url}/mcp`, { headers: { authorization: `Bearer rl_${"x".repeat(43)}` } })).status,
    ).toBe(401);
  });

  it("lists projects, reads comments with their pins and replies as the token's owner", async () => {
    const agent = await connect(await tokenOf(owner, "read-write"));
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_ROUTES.map((tool) => tool.name).sort());
    const reply = tools.find((tool) => tool.name === "reply_to_comment")!;
    expect(reply.description).toBe("Reply to a comment.");
    expect(reply.inputSchema.required).toEqual(expect.arrayContaining(["commentId", "comment"]));
    expect(tools.find((tool) => tool.name === "list_projects")?.annotations?.readOnlyHint).toBe(true);

    const projects = await agent.callTool({ name: "list_projects", arguments: {} });
    expect(textOf(projects)).toContain("Agent review");
    const comments = await agent.callTool({ name: "list_comments", arguments: { versionId } });
    const listed = JSON.parse(textOf(comments)) as {
      id: string;
      dotPosition: { x: number };
      thread: unknown[];
    }[];
    expect(listed[0]).toMatchObject({ id: commentId, dotPosition: { x: 0.25 } });

    const answered = await agent.callTool({
      name: "reply_to_comment",
      arguments: { commentId, comment: "Brightened in the next version" },
    });
    expect(answered.isError).toBeFalsy();
    const thread = (await owner.get(`/api/versions/${versionId}/comments`)).body.data[0].thread as {
      comment: string;
      author: { uid: string };
    }[];
    const me = (await owner.get("/api/me")).body.data.uid;
    expect(thread.at(-1)).toMatchObject({ comment: "Brightened in the next version", author: { uid: me } });

    const resolved = await agent.callTool({
      name: "update_comment",
      arguments: { commentId, isResolved: true },
    });
    expect(resolved.isError, textOf(resolved)).toBeFalsy();
    expect((await owner.get(`/api/versions/${versionId}/comments`)).body.data[0].isResolved).toBe(true);
    await agent.close();
  });

  it("gives a read token the reading tools only", async () => {
    const agent = await connect(await tokenOf(owner, "read"));
    const names = (await agent.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("list_comments");
    expect(names).not.toContain("reply_to_comment");
    const refused = await agent.callTool({
      name: "reply_to_comment",
      arguments: { commentId, comment: "x" },
    });
    expect(refused.isError).toBe(true);
    await agent.close();
  });

  it("answers what the owner may not see or bad input as the API does, and changes nothing", async () => {
    const agent = await connect(await tokenOf(stranger, "read-write"));
    const before = (await owner.get(`/api/versions/${versionId}/comments`)).body.data[0].thread.length;
    const hidden = await agent.callTool({
      name: "reply_to_comment",
      arguments: { commentId, comment: "Sneaky" },
    });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toMatch(/HTTP 404/);
    const bad = await agent.callTool({ name: "reply_to_comment", arguments: { commentId, comment: 42 } });
    expect(bad.isError).toBe(true);
    // A misspelt field is an error, not a call that silently does nothing.
    const misspelt = await agent.callTool({
      name: "update_comment",
      arguments: { commentId, status: "resolved" },
    });
    expect(misspelt.isError).toBe(true);
    expect((await owner.get(`/api/versions/${versionId}/comments`)).body.data[0].thread.length).toBe(before);
    await agent.close();
  });

  it("serves a local agent over stdio through `npm run mcp`", async () => {
    const token = await tokenOf(owner, "read");
    const agent = new Client({ name: "redline-stdio-agent", version: "1.0.0" });
    await agent.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--no-warnings", "--import", "tsx", path.join(repoRoot, "apps/server/src/mcp/stdio.ts")],
        cwd: repoRoot,
        env: { ...process.env, REDLINE_URL: t.url, REDLINE_TOKEN: token } as Record<string, string>,
        stderr: "pipe",
      }),
    );
    const projects = await agent.callTool({ name: "list_projects", arguments: {} });
    expect(textOf(projects)).toContain("Agent review");
    await agent.close();
  });
});
