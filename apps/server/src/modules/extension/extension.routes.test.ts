/**
 * The browser extension's routes (issue #31, ADR 0037), as the extension and the app call them: approval
 * from a signed-in session, the credential taken once from the extension's origin, listed and revoked in
 * Account Settings, ended by signing out; only editable web/web-app projects offered; the tab's page
 * uploaded, sanitized by the capture worker and served as a snapshot; the open threads on an address.
 */
import { createHash, randomBytes } from "node:crypto";
import { EXTENSION_ID, EXTENSION_MAX_PAGE_BYTES, EXTENSION_MESSAGES } from "@redline/shared";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, pages, projectMembers, versions } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { testComment } from "../../testing/anchors.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`;

describe("the browser extension's routes", () => {
  let t: TestApp;
  let owner: ApiClient;
  let viewer: ApiClient;
  let viewerId: string;

  /** A call as the extension makes it: from its origin, with its credential when it has one. */
  const fromExtension = async (
    method: string,
    path: string,
    options: { secret?: string; body?: unknown; origin?: string } = {},
  ) => {
    const response = await fetch(t.url + path, {
      method,
      headers: {
        origin: options.origin ?? EXTENSION_ORIGIN,
        ...(options.secret && { authorization: `Bearer ${options.secret}` }),
        ...(options.body !== undefined && { "content-type": "application/json" }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };

  /** The extension's sign-in: the app approves the challenge, the extension takes its credential. */
  const signIn = async (client: ApiClient) => {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const pending = await fromExtension("POST", "/api/extension/session", { body: { verifier } });
    expect(pending.status).toBe(404);
    expect(pending.body.message).toBe(EXTENSION_MESSAGES.pending);
    const granted = await client.post("/api/extension/grants", { challenge });
    expect(granted.status).toBe(201);
    const taken = await fromExtension("POST", "/api/extension/session", { body: { verifier } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    // Once only.
    expect((await fromExtension("POST", "/api/extension/session", { body: { verifier } })).status).toBe(404);
    return taken.body.data.secret as string;
  };

  const newProject = async (client: ApiClient, type: string, title = `${type} project`) =>
    (await client.post("/api/projects", { title, type })).body.data.id as string;

  beforeAll(async () => {
    t = await startTestApp({ config: { captureWorker: true } });
    const stamp = Date.now().toString(36);
    owner = await signUpVerified(t.url, t.inbox!, `ext-owner-${stamp}@example.com`);
    viewer = await signUpVerified(t.url, t.inbox!, `ext-viewer-${stamp}@example.com`);
    viewerId = (await viewer.get("/api/me")).body.data.uid;
  });
  afterAll(() => t.close());

  it("signs the extension in from the app; the credential is listed, and revoking it refuses it at once", async () => {
    const secret = await signIn(owner);
    expect((await fromExtension("GET", "/api/extension/projects", { secret })).status).toBe(200);
    const listed = (await owner.get("/api/me/tokens")).body.data as { id: string; kind: string }[];
    const credential = listed.find((token) => token.kind === "extension");
    expect(credential).toBeDefined();
    expect((await owner.delete(`/api/me/tokens/${credential!.id}`)).status).toBe(200);
    const refused = await fromExtension("GET", "/api/extension/projects", { secret });
    expect(refused.status).toBe(401);
  });

  it("ends the extension's credential when its person signs out of the app", async () => {
    const client = await signUpVerified(t.url, t.inbox!, `ext-signout-${Date.now()}@example.com`);
    const secret = await signIn(client);
    expect((await fromExtension("GET", "/api/extension/projects", { secret })).status).toBe(200);
    await client.post("/api/auth/sign-out");
    expect((await fromExtension("GET", "/api/extension/projects", { secret })).status).toBe(401);
  });

  it("answers the extension's origin only: other origins, and the credential from elsewhere, are refused", async () => {
    const secret = await signIn(owner);
    const verifier = randomBytes(32).toString("base64url");
    for (const origin of ["https://evil.example", "chrome-extension://abcdefghijklmnopabcdefghijklmnop"]) {
      const taken = await fromExtension("POST", "/api/extension/session", { body: { verifier }, origin });
      expect(taken.status).toBe(403);
      expect(taken.headers.get("access-control-allow-origin")).toBeNull();
      const read = await fromExtension("GET", "/api/extension/projects", { secret, origin });
      expect(read.status).toBe(403);
    }
    // The app's own session cannot call the extension's routes, nor the extension's credential the app's.
    expect((await owner.get("/api/extension/projects")).status).toBe(403);
    expect((await fromExtension("GET", "/api/projects", { secret })).status).toBe(403);
    // Its preflight is answered for its origin.
    const preflight = await fetch(`${t.url}/api/extension/pages`, {
      method: "OPTIONS",
      headers: { origin: EXTENSION_ORIGIN, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(EXTENSION_ORIGIN);
  });

  it("offers only live web and web-app projects the person may edit", async () => {
    const webapp = await newProject(owner, "webapp", "Signed-in app");
    const images = await newProject(owner, "image", "Mockups");
    const disabled = await newProject(owner, "webapp", "No extension here");
    await owner.patch(`/api/projects/${disabled}`, { isPluginDisabled: true });
    await t.ctx.database.db
      .insert(projectMembers)
      .values({ id: newId(), projectId: webapp, userId: viewerId, access: "view" });
    const ownerSecret = await signIn(owner);
    const offered = (await fromExtension("GET", "/api/extension/projects", { secret: ownerSecret })).body
      .data;
    const ids = offered.map((project: { id: string }) => project.id);
    expect(ids).toContain(webapp);
    expect(ids).not.toContain(images);
    expect(ids).not.toContain(disabled);
    const viewerSecret = await signIn(viewer);
    const viewerOffered = await fromExtension("GET", "/api/extension/projects", { secret: viewerSecret });
    expect(viewerOffered.body.data.map((project: { id: string }) => project.id)).not.toContain(webapp);
    // Nor can the viewer add to it.
    const added = await fromExtension("POST", "/api/extension/pages", {
      secret: viewerSecret,
      body: { projectId: webapp, url: "https://app.test/", html: "<p>x</p>", width: 1280 },
    });
    expect(added.status).toBe(403);
  });

  it("offers the team projects the person edits through a team membership, not those they only comment on", async () => {
    const stamp = Date.now().toString(36);
    const lead = await signUpVerified(t.url, t.inbox!, `ext-lead-${stamp}@example.com`);
    const member = await signUpVerified(t.url, t.inbox!, `ext-member-${stamp}@example.com`);
    const collaborator = await signUpVerified(t.url, t.inbox!, `ext-collab-${stamp}@example.com`);
    const collaboratorId = (await collaborator.get("/api/me")).body.data.uid as string;
    const team = await lead.post("/api/teams", { product: "web", name: "Extension studio" });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.data.id as string;
    for (const [email, access] of [
      [`ext-member-${stamp}@example.com`, "member"],
      [`ext-collab-${stamp}@example.com`, "collaborator"],
    ])
      expect((await lead.post(`/api/teams/${teamId}/members`, { email, access })).status).toBe(201);
    const created = await lead.post("/api/projects", { title: "Team app", type: "webapp", teamId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const projectId = created.body.data.id as string;
    expect(
      (await lead.put(`/api/projects/${projectId}/collaborators/${collaboratorId}`, { enabled: true }))
        .status,
    ).toBe(200);

    // The member edits it only through the team: it is offered, and a page can be added to it.
    const memberSecret = await signIn(member);
    const offered = await fromExtension("GET", "/api/extension/projects", { secret: memberSecret });
    expect(offered.body.data.map((project: { id: string }) => project.id)).toContain(projectId);
    const added = await fromExtension("POST", "/api/extension/pages", {
      secret: memberSecret,
      body: { projectId, url: "https://app.test/team", html: "<p>Team</p>", width: 1280 },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    // The collaborator sees the project (toggled in) but may only comment: not offered, and refused.
    const collaboratorSecret = await signIn(collaborator);
    const notOffered = await fromExtension("GET", "/api/extension/projects", { secret: collaboratorSecret });
    expect(notOffered.status).toBe(200);
    expect(notOffered.body.data.map((project: { id: string }) => project.id)).not.toContain(projectId);
    const refused = await fromExtension("POST", "/api/extension/pages", {
      secret: collaboratorSecret,
      body: { projectId, url: "https://app.test/team", html: "<p>Team</p>", width: 1280 },
    });
    expect(refused.status).toBe(403);
  });

  it("adds the tab's page: sanitized, served as a snapshot with the tab's pixels, and its threads counted", async () => {
    const projectId = await newProject(owner, "webapp", "Dashboard app");
    const secret = await signIn(owner);
    const screenshot = await sharp({
      create: { width: 1280, height: 700, channels: 3, background: { r: 240, g: 240, b: 250 } },
    })
      .png()
      .toBuffer();
    const html = `<!doctype html><html><head><title>My dashboard</title></head><body><h1>Welcome back, Ada</h1><script>alert(1)</script><img src="x" onerror="alert(2)"></body></html>`;
    const added = await fromExtension("POST", "/api/extension/pages", {
      secret,
      body: {
        projectId,
        url: "https://app.test/dashboard",
        title: "Dashboard",
        html,
        screenshot: screenshot.toString("base64"),
        width: 1280,
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const { pageId, versionId, path } = added.body.data;
    expect(path).toBe(`/project/${projectId}/${pageId}/${versionId}/comment`);
    let version: { status: string; screenshot: string | null } | undefined;
    for (let i = 0; i < 240 && version?.status !== "ready" && version?.status !== "failed"; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      version = (await owner.get(`/api/versions/${versionId}`)).body.data;
    }
    expect(version?.status).toBe("ready");
    const [row] = await t.ctx.database.db.select().from(versions).where(eq(versions.id, versionId));
    expect(row?.fileKey).toBeNull();
    expect(row?.screenshotKey).toBe(`screenshots/${versionId}.png`);
    const [page] = await t.ctx.database.db.select().from(pages).where(eq(pages.id, pageId));
    expect(page?.source).toBe("extension");
    const snapshot = await readSnapshot(versionId);
    expect(snapshot).toContain("Welcome back, Ada");
    expect(snapshot).not.toContain("alert(");

    // A thread pinned there counts on the live page's address (with or without its fragment).
    const comment = await owner.post(
      `/api/versions/${versionId}/comments`,
      testComment("The greeting overlaps the menu"),
    );
    expect(comment.status, JSON.stringify(comment.body)).toBeLessThan(300);
    const threads = await fromExtension(
      "GET",
      `/api/extension/threads?url=${encodeURIComponent("https://app.test/dashboard#top")}`,
      { secret },
    );
    expect(threads.status).toBe(200);
    expect(threads.body.data).toHaveLength(1);
    expect(threads.body.data[0].text).toBe("The greeting overlaps the menu");
  });

  it("refuses a page over the upload limit with a clear message, storing nothing", async () => {
    const projectId = await newProject(owner, "webapp", "Big app");
    const secret = await signIn(owner);
    const before = await t.ctx.database.db
      .select({ n: count() })
      .from(pages)
      .where(eq(pages.projectId, projectId));
    const tooBig = await fromExtension("POST", "/api/extension/pages", {
      secret,
      body: {
        projectId,
        url: "https://app.test/huge",
        html: "x".repeat(EXTENSION_MAX_PAGE_BYTES + 1),
        width: 1280,
      },
    });
    expect([400, 413]).toContain(tooBig.status);
    expect(tooBig.body.message).toContain("larger than 20 MB");
    const after = await t.ctx.database.db
      .select({ n: count() })
      .from(pages)
      .where(eq(pages.projectId, projectId));
    expect(after).toEqual(before);
  });

  it("adds a region screenshot as an image page through the image-page route, as the extension", async () => {
    const projectId = await newProject(owner, "webapp", "Region app");
    const disabled = await newProject(owner, "webapp", "No regions here");
    await owner.patch(`/api/projects/${disabled}`, { isPluginDisabled: true });
    const secret = await signIn(owner);
    const region = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .png()
      .toBuffer();
    const file = { name: "Dashboard — region.png", type: "image/png", bytes: region };
    const extension = new ApiClient(t.url);
    const headers = { authorization: `Bearer ${secret}`, origin: EXTENSION_ORIGIN };
    // Its preflight is answered for the extension's origin, and the answer is readable there.
    const preflight = await fetch(`${t.url}/api/projects/${projectId}/uploads`, {
      method: "OPTIONS",
      headers: { origin: EXTENSION_ORIGIN, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(EXTENSION_ORIGIN);
    const added = await extension.upload(`/api/projects/${projectId}/uploads`, file, headers);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.headers.get("access-control-allow-origin")).toBe(EXTENSION_ORIGIN);
    const [page] = await t.ctx.database.db.select().from(pages).where(eq(pages.id, added.body.data.pageId));
    expect(page).toMatchObject({ projectId, url: "image", title: "Dashboard — region" });
    const [version] = await t.ctx.database.db
      .select()
      .from(versions)
      .where(eq(versions.id, added.body.data.versionId));
    expect(version).toMatchObject({ kind: "image", status: "ready" });

    const pagesIn = async (id: string) =>
      (await t.ctx.database.db.select({ n: count() }).from(pages).where(eq(pages.projectId, id)))[0]!.n;
    // A project that turned the extension off refuses it, storing nothing.
    const refused = await extension.upload(`/api/projects/${disabled}/uploads`, file, headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(EXTENSION_MESSAGES.projectUnavailable);
    expect(await pagesIn(disabled)).toBe(0);
    // The extension's origin without its credential is refused: a session cookie is no way in from there.
    const cookieOnly = await owner.upload(`/api/projects/${projectId}/uploads`, file, {
      origin: EXTENSION_ORIGIN,
    });
    expect(cookieOnly.status).toBe(403);
    // Nor may another origin read the answer.
    const elsewhere = await fetch(`${t.url}/api/projects/${projectId}/uploads`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
    expect(await pagesIn(projectId)).toBe(1);
  });

  it("signs the extension out from the extension", async () => {
    const secret = await signIn(owner);
    expect((await fromExtension("DELETE", "/api/extension/session", { secret })).status).toBe(200);
    expect((await fromExtension("GET", "/api/extension/projects", { secret })).status).toBe(401);
    const [row] = await t.ctx.database.db
      .select({ n: count() })
      .from(apiTokens)
      .where(eq(apiTokens.prefix, secret.slice(0, 7)));
    expect(row?.n).toBe(0);
  });

  async function readSnapshot(versionId: string): Promise<string> {
    const stored = await t.ctx.storage.get(`snapshots/${versionId}.html`);
    if (!stored) return "";
    const chunks: Buffer[] = [];
    for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
});
