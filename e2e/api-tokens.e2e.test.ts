/**
 * API tokens in a real browser (issue #28): made in Account Settings, shown once, used by a script with
 * nothing but the token, listed with its last use, revoked — and refused at once after. And an AI agent
 * on the MCP server, whose reply reaches an open review tab live.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { API_TOKEN_MESSAGES } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { shot, signedIn } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

/** A script's call: the token alone, no cookie, no browser. */
const script = (secret: string, method: string, path: string, body?: unknown) =>
  fetch(e2e.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe("API tokens", () => {
  it("creates a token shown once, lets a script use it, and revokes it at once", async () => {
    const { page } = await signedIn(e2e, "tokens");
    await page.goto("/profile");
    const section = page.getByRole("region", { name: "API tokens" });
    await section.getByText("No API tokens yet.").waitFor();

    await section.getByLabel("Token name").fill("Release script");
    await section.getByRole("radio", { name: "Read and write" }).check();
    await section.getByLabel("Expires after").selectOption({ label: "30 days" });
    await section.getByRole("button", { name: "Create token" }).click();

    const secretBox = section.getByLabel("Your new API token");
    await secretBox.waitFor();
    await section.getByText(API_TOKEN_MESSAGES.created).waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^rl_/);
    // The name field is ready for the next token; the new one is listed with its access and no use yet.
    expect(await section.getByLabel("Token name").inputValue()).toBe("");
    const list = section.getByRole("list", { name: "Your API tokens" });
    await list.getByText("Release script").waitFor();
    await list.getByText("Read and write").waitFor();
    await list.getByText(/Never used/).waitFor();
    await shot(page, "api-tokens-created");

    // A script with only the token reads and writes as this person.
    expect((await script(secret, "GET", "/api/projects")).status).toBe(200);
    const made = await script(secret, "POST", "/api/projects", { type: "web", title: "Made by a script" });
    expect(made.status).toBe(201);

    // The secret is never shown again; the list now says it was used.
    await page.reload();
    await list.getByText(/Last used just now/).waitFor();
    expect(await section.getByLabel("Your new API token").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await list.getByRole("button", { name: "Revoke token Release script" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this token?" });
    await dialog.getByText(/Release script.*stop working at once/).waitFor();
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await page.getByText(API_TOKEN_MESSAGES.revoked).waitFor();
    await section.getByText("No API tokens yet.").waitFor();
    const refused = await script(secret, "GET", "/api/projects");
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe(API_TOKEN_MESSAGES.invalid);

    // What the script made is the person's own.
    await page.goto("/projects");
    await page.getByText("Made by a script").first().waitFor();
  });
});

describe("an AI agent through the MCP server", () => {
  it("reads a comment and replies with a token; the reply appears live in an open review tab", async () => {
    const { page, api } = await signedIn(e2e, "agent");
    const projectId = (await api.post("/api/projects", { type: "image", title: "Agent review" })).body.data
      .id;
    const image = await sharp({ create: { width: 800, height: 500, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const uploaded = (
      await api.upload(`/api/projects/${projectId}/uploads`, {
        name: "hero.png",
        type: "image/png",
        bytes: image,
      })
    ).body.data;
    await api.post(`/api/versions/${uploaded.versionId}/comments`, {
      dotPosition: { x: 0.3, y: 0.4 },
      deviceWidth: 1280,
      comment: "The hero is too dark",
    });
    await page.goto(`/project/${projectId}/${uploaded.pageId}/${uploaded.versionId}/comment`);
    await page.getByRole("list", { name: "Comments" }).getByText("The hero is too dark").click();

    const secret = (await api.post("/api/me/tokens", { name: "Agent", scope: "read-write" })).body.data
      .secret;
    const agent = new Client({ name: "e2e-agent", version: "1.0.0" });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", e2e.baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    const projects = (await agent.callTool({ name: "list_projects", arguments: {} })) as {
      content: { text: string }[];
    };
    expect(projects.content[0]!.text).toContain("Agent review");
    const listed = (await agent.callTool({
      name: "list_comments",
      arguments: { versionId: uploaded.versionId },
    })) as {
      content: { text: string }[];
    };
    const [comment] = JSON.parse(listed.content[0]!.text) as { id: string; thread: { comment: string }[] }[];
    expect(comment!.thread[0]!.comment).toBe("The hero is too dark");
    const replied = await agent.callTool({
      name: "reply_to_comment",
      arguments: { commentId: comment!.id, comment: "Brightened it in the next version" },
    });
    expect(replied.isError).toBeFalsy();
    await page.getByText("Brightened it in the next version", { exact: true }).waitFor({ timeout: 5_000 });
    await shot(page, "mcp-reply-live");
    await agent.close();
  });
});
