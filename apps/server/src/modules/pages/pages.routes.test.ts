import { readdir } from "node:fs/promises";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { routeIt } from "../../testing/route-it.ts";
import { setLimits, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const png = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF",
);

describe.each(drivers())("pages and versions (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  const newProject = async (client = owner, type = "web") =>
    (await client.post("/api/projects", { title: "P", type })).body.data.id as string;
  const pageCount = async (projectId: string) =>
    (await t.ctx.database.db.select({ n: count() }).from(pages).where(eq(pages.projectId, projectId)))[0]!.n;

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
    owner = await signUpVerified(t.url, t.inbox!, email("pages"));
    // The free plan's 5 pages per project, with room for the many projects these tests create.
    await setLimits(t, owner, { web: { projects: -1, pages: 5 }, browse: { projects: -1, pages: 5 } });
  });
  afterAll(() => t.close());

  routeIt(driver)("adds a page by URL as a queued capture job", async () => {
    const projectId = await newProject();
    const added = await owner.post(`/api/projects/${projectId}/pages`, {
      url: "https://example.com/pricing",
    });
    expect(added.status).toBe(202);
    expect(added.body.message).toBe("Fetching page...");
    const { pageId, versionId } = added.body.data;
    const version = (await owner.get(`/api/versions/${versionId}`)).body.data;
    expect(version).toMatchObject({
      pageId: pageId,
      number: 1,
      title: "Version 1",
      kind: "snapshot",
      status: "queued",
    });
    expect(await t.ctx.queue.getQueueSize("capture")).toBeGreaterThanOrEqual(1);
    const project = (await owner.get(`/api/projects/${projectId}`)).body.data;
    expect(project.pages[0]).toMatchObject({
      id: pageId,
      url: "https://example.com/pricing",
      numberOfVersions: 1,
    });
  });

  routeIt(driver)("refuses non-web addresses", async () => {
    const projectId = await newProject();
    for (const url of ["javascript:alert(1)", "ftp://example.com/x", "file:///etc/passwd", "not a url", ""]) {
      expect((await owner.post(`/api/projects/${projectId}/pages`, { url })).status, url).toBe(400);
    }
    expect(await pageCount(projectId)).toBe(0);
  });

  it("enforces the owner's page limit on the server, even for concurrent adds", async () => {
    const projectId = await newProject();
    for (let i = 0; i < 3; i++)
      await owner.post(`/api/projects/${projectId}/pages`, { url: `https://example.com/p${i}` });
    const racers = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        owner.post(`/api/projects/${projectId}/pages`, { url: `https://example.com/race${i}` }),
      ),
    );
    expect(racers.filter((r) => r.status === 202)).toHaveLength(2);
    const refused = racers.filter((r) => r.status === 402);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.body.code).toBe("page-limit");
    expect(await pageCount(projectId)).toBe(5);
    const project = (await owner.get(`/api/projects/${projectId}`)).body.data;
    expect([project.pageCount, project.pageLimit, project.pagesLeft]).toEqual([5, 5, 0]);
    const upload = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "a.png",
      type: "image/png",
      bytes: await png(),
    });
    expect(upload.status).toBe(402);
  });

  routeIt(driver)("uploads an image page, served from the content origin with a thumbnail", async () => {
    const projectId = await newProject();
    const uploaded = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "Homepage mock.png",
      type: "image/png",
      bytes: await png(),
    });
    expect(uploaded.status).toBe(201);
    const view = (await owner.get(`/api/versions/${uploaded.body.data.versionId}/view`)).body.data;
    expect(view.version).toMatchObject({ kind: "image", status: "ready" });
    expect(view.page).toMatchObject({ url: "image", title: "Homepage mock", isPDF: false });
    expect(view.contentUrl.startsWith(`${t.contentUrl}/f/`)).toBe(true);
    const file = await fetch(view.contentUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    const unsigned = await fetch(view.contentUrl.split("?")[0]);
    expect(unsigned.status).toBe(403);
    const listed = (await owner.get("/api/projects")).body.data.find(
      (p: { id: string }) => p.id === projectId,
    );
    expect(listed.thumbnail).toBe(view.page.thumbnail);
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.thumbnail).toBe(view.page.thumbnail);
    const thumbnail = await fetch(t.url + view.page.thumbnail);
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([500, 350]);
  });

  routeIt(driver)("uploads a PDF page", async () => {
    const projectId = await newProject();
    const uploaded = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "brochure.pdf",
      type: "application/pdf",
      bytes: PDF,
    });
    expect(uploaded.status).toBe(201);
    const view = (await owner.get(`/api/versions/${uploaded.body.data.versionId}/view`)).body.data;
    expect(view.page).toMatchObject({ isPDF: true, title: "brochure" });
    const file = await fetch(view.contentUrl);
    expect(file.headers.get("content-type")).toBe("application/pdf");
  });

  routeIt(driver)("checks uploads by content and size, and stores nothing it refuses", async () => {
    const projectId = await newProject();
    const storedFiles = () =>
      readdir(path.join(t.ctx.config.filesDir, "uploads")).catch(() => [] as string[]);
    const before = await storedFiles();
    const fake = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "totally-an-image.png",
      type: "image/png",
      bytes: Buffer.from("<html><script>alert(1)</script></html>"),
    });
    expect(fake.status).toBe(400);
    expect(fake.body.code).toBe("unsupported-file");

    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "big.png",
      type: "image/png",
      bytes: big,
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe("Max file size is 5 MB.");

    expect(await pageCount(projectId)).toBe(0);
    expect(await storedFiles()).toEqual(before);
  });

  routeIt(driver)("adds versions: an image to an image page, a re-capture to a URL page", async () => {
    const projectId = await newProject();
    const image = (
      await owner.upload(`/api/projects/${projectId}/uploads`, {
        name: "v1.png",
        type: "image/png",
        bytes: await png(),
      })
    ).body.data;
    const second = await owner.upload(`/api/pages/${image.pageId}/versions`, {
      name: "v2.png",
      type: "image/png",
      bytes: await png(320, 200),
    });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ number: 2, title: "Version 2", kind: "image", status: "ready" });
    expect((await owner.post(`/api/pages/${image.pageId}/versions`, {})).status).toBe(400);

    const url = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/" })).body
      .data;
    const recapture = await owner.post(`/api/pages/${url.pageId}/versions`, {});
    expect(recapture.status).toBe(202);
    expect(recapture.body.data).toMatchObject({ number: 2, status: "queued", kind: "snapshot" });
  });

  routeIt(driver)("renames and deletes versions, but never a page's last one", async () => {
    const projectId = await newProject();
    const { pageId, versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/a" })
    ).body.data;
    const v2 = (await owner.post(`/api/pages/${pageId}/versions`, {})).body.data;
    expect((await owner.patch(`/api/versions/${v2.id}`, { title: "After redesign" })).body.data.title).toBe(
      "After redesign",
    );
    expect((await owner.patch(`/api/versions/${v2.id}`, { title: "" })).status).toBe(400);

    const deleted = await owner.delete(`/api/versions/${v2.id}`);
    expect(deleted.body.data).toEqual({ projectId: projectId, pageId });
    const last = await owner.delete(`/api/versions/${versionId}`);
    expect(last.status).toBe(409);
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.pages[0].numberOfVersions).toBe(1);
  });

  routeIt(driver)("deletes pages with 'Page deleted.' and files with 'File deleted.'", async () => {
    const projectId = await newProject();
    const url = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/b" })).body
      .data;
    const file = (
      await owner.upload(`/api/projects/${projectId}/uploads`, {
        name: "f.png",
        type: "image/png",
        bytes: await png(),
      })
    ).body.data;
    expect((await owner.delete(`/api/pages/${url.pageId}`)).body.message).toBe("Page deleted.");
    expect((await owner.delete(`/api/pages/${file.pageId}`)).body.message).toBe("File deleted.");
    expect(await pageCount(projectId)).toBe(0);
    expect((await owner.get(`/api/versions/${url.versionId}`)).status).toBe(404);
  });

  routeIt(driver)(
    "archives and unarchives a page; comment and view members get 403 and change nothing",
    async () => {
      const projectId = await newProject();
      const { pageId } = (
        await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/archive-me" })
      ).body.data;
      const member = async (access: string) => {
        const address = email(access);
        const client = await signUpVerified(t.url, t.inbox!, address);
        const shared = await owner.post(`/api/projects/${projectId}/members`, { email: address, access });
        expect(shared.status).toBe(201);
        return client;
      };
      const editor = await member("edit");
      const commenter = await member("comment");
      const viewer = await member("view");
      const pageRow = async () =>
        (await t.ctx.database.db.select().from(pages).where(eq(pages.id, pageId)))[0]!;

      const archived = await editor.patch(`/api/pages/${pageId}`, { isArchived: true });
      expect(archived.status).toBe(200);
      expect(archived.body.message).toBe("Page archived.");
      expect(archived.body.data).toMatchObject({ id: pageId, isArchived: true });
      const project = (await owner.get(`/api/projects/${projectId}`)).body.data;
      expect(project.pages[0]).toMatchObject({ id: pageId, isArchived: true });
      // Still counted toward the page limit, and left alone by update-all.
      expect(project.pageCount).toBe(1);
      expect((await owner.post(`/api/projects/${projectId}/update-all`, {})).body.data).toEqual({
        updated: 0,
      });

      const before = await pageRow();
      for (const client of [commenter, viewer]) {
        expect((await client.patch(`/api/pages/${pageId}`, { isArchived: false })).status).toBe(403);
      }
      expect(await pageRow()).toEqual(before);
      expect((await owner.patch(`/api/pages/${pageId}`, { isArchived: "no" })).status).toBe(400);

      const restored = await owner.patch(`/api/pages/${pageId}`, { isArchived: false });
      expect(restored.body.message).toBe("Page unarchived.");
      expect(restored.body.data.isArchived).toBe(false);
      expect((await commenter.get(`/api/projects/${projectId}`)).body.data.pages[0].isArchived).toBe(false);
    },
  );

  routeIt(driver)("hides pages and versions from strangers", async () => {
    const projectId = await newProject();
    const { pageId, versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/c" })
    ).body.data;
    const stranger = await signUpVerified(t.url, t.inbox!, email("stranger"));
    expect((await stranger.get(`/api/versions/${versionId}/view`)).status).toBe(404);
    expect((await stranger.patch(`/api/versions/${versionId}`, { title: "x" })).status).toBe(404);
    expect((await stranger.delete(`/api/versions/${versionId}`)).status).toBe(404);
    expect((await stranger.post(`/api/pages/${pageId}/versions`, {})).status).toBe(404);
    expect((await stranger.patch(`/api/pages/${pageId}`, { title: "x" })).status).toBe(404);
    expect((await stranger.delete(`/api/pages/${pageId}`)).status).toBe(404);
    expect(await pageCount(projectId)).toBe(1);
  });
});
