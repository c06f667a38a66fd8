import { SHIPPED_FEATURES } from "@redline/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects } from "../../db/schema/index.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(routeDrivers())("projects (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let stranger: ApiClient;
  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, stranger] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner")),
      signUpVerified(t.url, t.inbox!, email("stranger")),
    ]);
  });
  afterAll(() => t.close());

  it("creates a project named 'Untitled project' by default, owned by its creator", async () => {
    const created = await owner.post("/api/projects", { type: "web" });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("New project created.");
    expect(created.body.data).toMatchObject({
      title: "Untitled project",
      type: "web",
      access: "owner",
      pageCount: 0,
      // Plans are off in this app (a self-hosted instance): no page limit. plans/plan-limits.test.ts
      // covers the free plan's 5.
      pageLimit: -1,
      pagesLeft: null,
      expiresAt: null,
      abilities: { read: true, update: true, delete: true, addPages: true },
    });
  });

  it("sets no expiry when plans are off (every project limit is -1)", async () => {
    const webapp = (await owner.post("/api/projects", { type: "webapp", title: "App" })).body.data;
    expect(webapp.expiresAt).toBeNull();
  });

  it("refuses bad input with 400 and creates nothing", async () => {
    const before = (await owner.get("/api/projects?list=all")).body.data.length;
    for (const body of [{ type: "spreadsheet" }, { title: 42 }, { type: "web", ownerId: "someone" }]) {
      expect((await owner.post("/api/projects", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await owner.get("/api/projects?sort=popularity")).status).toBe(400);
    expect((await owner.get("/api/projects?list=all")).body.data.length).toBe(before);
  });

  it("makes illustration projects now that the slide editor exists (SHIPPED_FEATURES.slideEditor)", async () => {
    expect((await new ApiClient(t.url).get("/api/config")).body.features).toEqual(SHIPPED_FEATURES);
    const made = await owner.post("/api/projects", { type: "illustration", title: "Slides" });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ type: "illustration", title: "Slides" });
  });

  it("lists, filters and sorts the four lists", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("lists"));
    const make = async (title: string, type: string) =>
      (await client.post("/api/projects", { title, type })).body.data.id;
    const banana = await make("Banana", "web");
    // Illustration projects cannot be made yet (no slide editor): one from elsewhere is still listed as such.
    const apple = await make("Apple", "web");
    await t.ctx.database.db.update(projects).set({ type: "illustration" }).where(eq(projects.id, apple));
    const cherry = await make("Cherry", "image");
    await client.patch(`/api/projects/${cherry}`, { isArchived: true });

    const titles = async (query: string) =>
      (await client.get(`/api/projects?${query}`)).body.data.map((p: { title: string }) => p.title);
    expect(await titles("list=all&sort=title")).toEqual(["Apple", "Banana"]);
    expect(await titles("list=all&sort=createdAt")).toEqual(["Apple", "Banana"]);
    expect(await titles("list=web")).toEqual(["Banana"]);
    expect(await titles("list=illustration")).toEqual(["Apple"]);
    expect(await titles("list=archived")).toEqual(["Cherry"]);
    expect(await titles("list=all&q=nan")).toEqual(["Banana"]);

    await client.patch(`/api/projects/${banana}`, { title: "Banana split" });
    expect(await titles("list=all&sort=modifiedAt")).toEqual(["Banana split", "Apple"]);

    // Each product lists its own projects (SPEC §1 variants): bug tracking and mobile are the browse product's.
    await make("Durian", "browse");
    await make("Elder", "mobile");
    expect(await titles("list=all&sort=title&product=browse")).toEqual(["Durian", "Elder"]);
    expect(await titles("list=all&sort=title&product=web")).toEqual(["Apple", "Banana split"]);
    expect(await titles("list=all&sort=title")).toEqual(["Apple", "Banana split", "Durian", "Elder"]);
    expect((await client.get("/api/projects?product=video")).status).toBe(400);
  });

  it("renames, and falls back to 'Untitled project' for an empty title", async () => {
    const { id } = (await owner.post("/api/projects", { title: "Site" })).body.data;
    expect((await owner.patch(`/api/projects/${id}`, { title: "Marketing site" })).body.data.title).toBe(
      "Marketing site",
    );
    expect((await owner.patch(`/api/projects/${id}`, { title: "" })).body.data.title).toBe(
      "Untitled project",
    );
  });

  it("hides a project from strangers: 404 for every verb, and nothing changes", async () => {
    const { id } = (await owner.post("/api/projects", { title: "Secret" })).body.data;
    expect((await stranger.get(`/api/projects/${id}`)).status).toBe(404);
    expect((await stranger.patch(`/api/projects/${id}`, { title: "Mine" })).status).toBe(404);
    expect((await stranger.delete(`/api/projects/${id}`)).status).toBe(404);
    expect((await stranger.post(`/api/projects/${id}/pages`, { url: "https://example.com" })).status).toBe(
      404,
    );
    expect(
      (await stranger.get("/api/projects?list=all")).body.data.map((p: { id: string }) => p.id),
    ).not.toContain(id);
    expect((await owner.get(`/api/projects/${id}`)).body.data.title).toBe("Secret");
    expect((await new ApiClient(t.url).get(`/api/projects/${id}`)).status).toBe(401);
  });

  it("keeps unverified users out of projects", async () => {
    const client = new ApiClient(t.url);
    await client.post("/api/auth/sign-up/email", {
      email: email("unverified"),
      password: "long enough pw",
      name: "U",
    });
    const response = await client.get("/api/projects");
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("auth/email-not-verified");
  });

  it("deletes a project with 'Project deleted.'", async () => {
    const { id } = (await owner.post("/api/projects", { title: "Doomed" })).body.data;
    const deleted = await owner.delete(`/api/projects/${id}`);
    expect(deleted.body.message).toBe("Project deleted.");
    expect((await owner.get(`/api/projects/${id}`)).status).toBe(404);
  });

  it("stores a 500×350 thumbnail with 'Project thumbnail updated.'", async () => {
    const { id } = (await owner.post("/api/projects", { title: "Thumb" })).body.data;
    const png = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#0af" } })
      .png()
      .toBuffer();
    const response = await owner.post(`/api/projects/${id}/thumbnail`, {
      dataUrl: `data:image/png;base64,${png.toString("base64")}`,
    });
    expect(response.body.message).toBe("Project thumbnail updated.");
    const file = await fetch(t.url + response.body.data.thumbnail);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 500, 350]);
    expect((await owner.get(`/api/projects/${id}`)).body.data.thumbnail).toBe(response.body.data.thumbnail);
  });
});
