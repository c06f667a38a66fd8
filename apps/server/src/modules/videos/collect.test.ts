/**
 * Collecting abandoned video uploads: an upload left unfinished, or finished and never posted, is removed
 * once it is older than the expiry (a day in the app); a fresh one, and one a comment's entry waits on, stay.
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { testComment } from "../../testing/anchors.ts";
import { signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { createUpload, patch, TUS, upload } from "../../testing/video-uploads.ts";
import { collectVideoUploads } from "./collect.ts";
import { createVideoUploads } from "./uploads.ts";

describe.each(routeDrivers())("collecting abandoned video uploads (%s)", (driver) => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it("removes unfinished and never-posted uploads once they are past the expiry, and keeps fresh and held ones", {
    timeout: 60_000,
  }, async () => {
    const app = await startTestApp({ driver });
    t = app;
    const owner = await signUpVerified(
      app.url,
      app.inbox!,
      `collector-${Date.now().toString(36)}@example.com`,
    );
    const projectId = (await owner.post("/api/projects", { title: "Uploads" })).body.data.id;
    const page = await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/c" });
    const { versionId } = page.body.data;
    // Unfinished: 100 of 1,000 bytes arrived.
    const unfinished = await createUpload(owner, projectId, 1000);
    expect((await patch(owner, unfinished.location!, 0, Buffer.alloc(100, 1))).status).toBe(204);
    // Finished, never named by a comment.
    const unposted = await upload(owner, projectId, Buffer.alloc(500, 2));
    // Finished and named by an entry whose video job has not run yet.
    const held = await upload(owner, projectId, Buffer.alloc(300, 3));
    const { id: commentId } = (await owner.post(`/api/versions/${versionId}/comments`, testComment("Held")))
      .body.data;
    await app.ctx.database.db.execute(
      sql`update comment_entries set video_status = 'processing', video_upload = ${held} where comment_id = ${commentId}`,
    );
    const arrived = async () =>
      Number(
        (await owner.request("HEAD", unfinished.location!, undefined, TUS)).headers.get("upload-offset") ??
          -1,
      );

    // A day has not passed: the app's collector keeps everything.
    expect(await collectVideoUploads(app.ctx.database.db, app.ctx.videoUploads)).toBe(0);
    expect(await arrived()).toBe(100);
    expect(await app.ctx.videoUploads.finishedSize(unposted)).toBe(500);

    // The same uploads seen by a collector whose expiry has passed for them all.
    const aged = createVideoUploads(app.ctx.config, { expiresMs: 1 });
    expect(await collectVideoUploads(app.ctx.database.db, aged)).toBe(2);
    const head = await owner.request("HEAD", unfinished.location!, undefined, TUS);
    expect([404, 410]).toContain(head.status);
    expect(await app.ctx.videoUploads.finishedSize(unposted)).toBeNull();
    expect(await app.ctx.videoUploads.finishedSize(held)).toBe(300);
    // Nothing is left to collect, and the held upload stays.
    expect(await collectVideoUploads(app.ctx.database.db, aged)).toBe(0);
    expect(await app.ctx.videoUploads.finishedSize(held)).toBe(300);
  });
});
