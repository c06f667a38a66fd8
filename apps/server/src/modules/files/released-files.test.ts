import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages, projects, versions } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

let t: TestApp;
let owner: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  owner = await signUpVerified(t.url, t.inbox!, `owned-${Date.now().toString(36)}@example.com`);
});
afterAll(() => t?.close());

const png = (colour: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: colour } })
    .png()
    .toBuffer();
const stored = async (key: string | null) => (key ? (await t.ctx.storage.get(key)) !== null : false);

/** An image page with a second version that also has a snapshot and a live screenshot on disk. */
async function pageWithTwoVersions(projectId: string, colour: string) {
  const first = await owner.upload(`/api/projects/${projectId}/uploads`, {
    name: "a.png",
    type: "image/png",
    bytes: await png(colour),
  });
  const { pageId } = first.body.data as { pageId: string };
  const second = await owner.upload(`/api/pages/${pageId}/versions`, {
    name: "b.png",
    type: "image/png",
    bytes: await png("#123456"),
  });
  const versionId = second.body.data.id as string;
  const snapshotKey = `snapshots/${versionId}.html`;
  const screenshotKey = `screenshots/${versionId}.png`;
  await t.ctx.storage.put(snapshotKey, Buffer.from("<p>snapshot</p>"));
  await t.ctx.storage.put(screenshotKey, await png("#abcdef"));
  await t.ctx.database.db
    .update(versions)
    .set({ snapshotKey, screenshotKey })
    .where(eq(versions.id, versionId));
  const [page] = await t.ctx.database.db.select().from(pages).where(eq(pages.id, pageId));
  const [version] = await t.ctx.database.db.select().from(versions).where(eq(versions.id, versionId));
  return {
    pageId: pageId,
    versionId,
    snapshotKey,
    screenshotKey,
    thumbnail: page!.thumbnailKey,
    upload: version!.fileKey,
  };
}

describe("deleting frees the files that belonged only to what was deleted", () => {
  it("a version, then a page, then the project; shared uploads stay", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Files" })).body.data.id as string;
    await owner.post(`/api/projects/${projectId}/thumbnail`, {
      dataUrl: `data:image/png;base64,${(await png("#00aaff")).toString("base64")}`,
    });
    const [project] = await t.ctx.database.db.select().from(projects).where(eq(projects.id, projectId));
    const one = await pageWithTwoVersions(projectId, "#e5383b");
    const two = await pageWithTwoVersions(projectId, "#38b000");
    for (const key of [project!.thumbnailKey, one.snapshotKey, one.screenshotKey, one.thumbnail, one.upload])
      expect(await stored(key)).toBe(true);

    expect((await owner.delete(`/api/versions/${one.versionId}`)).status).toBe(200);
    expect(await stored(one.snapshotKey)).toBe(false);
    expect(await stored(one.screenshotKey)).toBe(false);
    expect(await stored(one.thumbnail)).toBe(true); // the page is still there
    expect(await stored(one.upload)).toBe(true); // content-addressed: another row may use it

    expect((await owner.delete(`/api/pages/${two.pageId}`)).status).toBe(200);
    for (const key of [two.snapshotKey, two.screenshotKey, two.thumbnail])
      expect(await stored(key)).toBe(false);
    expect(await stored(one.thumbnail)).toBe(true); // another page's

    expect((await owner.delete(`/api/projects/${projectId}`)).status).toBe(200);
    expect(await stored(project!.thumbnailKey)).toBe(false);
    expect(await stored(one.thumbnail)).toBe(false);
    expect(await stored(one.upload)).toBe(true);
  });

  it("keeps every file when the deletion is refused", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Last version" })).body.data.id as string;
    const upload = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "only.png",
      type: "image/png",
      bytes: await png("#ffbb00"),
    });
    const { pageId, versionId } = upload.body.data as { pageId: string; versionId: string };
    const screenshotKey = `screenshots/${versionId}.png`;
    await t.ctx.storage.put(screenshotKey, await png("#000000"));
    await t.ctx.database.db.update(versions).set({ screenshotKey }).where(eq(versions.id, versionId));
    expect((await owner.delete(`/api/versions/${versionId}`)).status).toBe(409); // a page keeps one version
    expect(await stored(screenshotKey)).toBe(true);
    const [page] = await t.ctx.database.db.select().from(pages).where(eq(pages.id, pageId));
    expect(await stored(page!.thumbnailKey)).toBe(true);
  });

  it("replacing a page's or a project's thumbnail removes the one it replaced", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Thumbs" })).body.data.id as string;
    const thumbnailOf = async () =>
      (await t.ctx.database.db.select().from(projects).where(eq(projects.id, projectId)))[0]!.thumbnailKey;
    const setProjectThumbnail = async (colour: string) =>
      owner.post(`/api/projects/${projectId}/thumbnail`, {
        dataUrl: `data:image/png;base64,${(await png(colour)).toString("base64")}`,
      });
    await setProjectThumbnail("#111111");
    const first = await thumbnailOf();
    await setProjectThumbnail("#eeeeee");
    const second = await thumbnailOf();
    expect(second).not.toBe(first);
    expect([await stored(first), await stored(second)]).toEqual([false, true]);

    const page = await pageWithTwoVersions(projectId, "#0000ff"); // the second version re-drew the thumbnail
    const pageThumbnails = await t.ctx.database.db.select().from(pages).where(eq(pages.id, page.pageId));
    expect(await stored(pageThumbnails[0]!.thumbnailKey)).toBe(true);
    const third = await owner.upload(`/api/pages/${page.pageId}/versions`, {
      name: "c.png",
      type: "image/png",
      bytes: await png("#ff00ff"),
    });
    expect(third.status).toBeLessThan(300);
    const [after] = await t.ctx.database.db.select().from(pages).where(eq(pages.id, page.pageId));
    expect(after!.thumbnailKey).not.toBe(pageThumbnails[0]!.thumbnailKey);
    expect([await stored(pageThumbnails[0]!.thumbnailKey), await stored(after!.thumbnailKey)]).toEqual([
      false,
      true,
    ]);
  });
});
