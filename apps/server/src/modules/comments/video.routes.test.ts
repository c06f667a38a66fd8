/**
 * Video comments over HTTP (issue #33): a resumable (tus) upload, measured on the server when a comment
 * names it, processed by the durable job into a streaming copy and a poster, played with byte ranges;
 * not-a-video, too long for the plan and a viewer's upload refused with nothing kept; an upload cut off
 * mid-way resumes from where it stopped.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testComment } from "../../testing/anchors.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { createUpload, makeVideo as makeVideoIn, patch, TUS, upload } from "../../testing/video-uploads.ts";
import { ticketVideos } from "../tickets/ticket-video.ts";
import { processVideo } from "../videos/processing.ts";
import { commentVideos } from "./video.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

let dir: string;
const makeVideo = (name: string, seconds: number, size?: string) => makeVideoIn(dir, name, seconds, size);

describe.each(routeDrivers())("video comments (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let commenter: ApiClient;
  let viewer: ApiClient;
  let projectId: string;
  let versionId: string;
  let clip: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "redline-video-test-"));
    clip = await makeVideo("clip.webm", 3);
    t = await startTestApp({ driver });
    const addresses = { commenter: email("commenter"), viewer: email("viewer") };
    [owner, commenter, viewer] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner")),
      signUpVerified(t.url, t.inbox!, addresses.commenter),
      signUpVerified(t.url, t.inbox!, addresses.viewer),
    ]);
    projectId = (await owner.post("/api/projects", { title: "Videos" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: addresses.commenter, access: "comment" });
    await owner.post(`/api/projects/${projectId}/members`, { email: addresses.viewer, access: "view" });
    ({ versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/v" })
    ).body.data);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("posts a trimmed recording on a comment; the job keeps a streaming copy and a poster the readers play", async () => {
    const id = await upload(commenter, projectId, clip);
    const posted = await commenter.post(`/api/versions/${versionId}/comments`, {
      ...testComment("Watch this"),
      video: { upload: id, trimStart: 0.5, trimEnd: 2.5 },
    });
    expect(posted.status).toBe(201);
    expect(posted.body.data).toMatchObject({ hasVideo: true, videoDuration: 2 });
    expect(posted.body.data.thread[0]).toMatchObject({
      hasVideo: true,
      videoStatus: "processing",
      videoURL: null,
    });
    const commentId = posted.body.data.id;

    // The durable job processes it; the reader's list shows it ready.
    let entry: Record<string, unknown> | undefined;
    await expect
      .poll(
        async () => {
          const list = (await viewer.get(`/api/versions/${versionId}/comments`)).body.data;
          entry = list.find((c: { id: string }) => c.id === commentId)?.thread[0];
          return entry?.videoStatus;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe("ready");
    expect(Math.abs((entry!.videoDuration as number) - 2)).toBeLessThan(0.3);

    const video = await viewer.request("GET", entry!.videoURL as string);
    expect(video.status).toBe(200);
    // Cut at its start, the WebM recording was encoded again as MP4 (ffmpeg.ts streamingContainer).
    expect(video.headers.get("content-type")).toBe("video/mp4");
    const size = Number(video.headers.get("content-length"));
    expect(size).toBeGreaterThan(1000);
    const ranged = await viewer.request("GET", entry!.videoURL as string, undefined, {
      range: "bytes=100-199",
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-199/${size}`);
    const poster = await viewer.request("GET", entry!.videoPosterURL as string);
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toBe("image/jpeg");

    // The video counts against the owner's storage at its stored size; the upload is gone.
    const { rows } = (await t.ctx.database.db.execute(
      sql`select bytes from stored_files where holder_kind = 'comment_video' and holder_id = ${entry!.id as string}`,
    )) as unknown as { rows: { bytes: number | string }[] };
    expect(Number(rows[0]?.bytes)).toBe(size);
    expect(await t.ctx.videoUploads.finishedSize(id)).toBeNull();
  }, 120_000);

  it("a guest of the public link plays the video while the link shows its page, and not otherwise", async () => {
    // A second page: the link shows only the first one unless it shows all pages.
    const second = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/w" }))
      .body.data;
    const id = await upload(commenter, projectId, clip);
    const posted = await commenter.post(`/api/versions/${second.versionId}/comments`, {
      ...testComment("For the guests"),
      video: { upload: id },
    });
    expect(posted.status).toBe(201);
    let entry: { videoURL: string; videoPosterURL: string } | undefined;
    await expect
      .poll(
        async () => {
          const list = (await viewer.get(`/api/versions/${second.versionId}/comments`)).body.data;
          entry = list.find((c: { id: string }) => c.id === posted.body.data.id)?.thread[0];
          return entry?.videoURL ?? null;
        },
        { timeout: 60_000, interval: 250 },
      )
      .not.toBeNull();
    const guest = new ApiClient(t.url);
    const stranger = await signUpVerified(t.url, t.inbox!, email("stranger"));
    const statuses = async () =>
      Promise.all(
        [guest, stranger].flatMap((reader) => [
          reader.request("GET", entry!.videoURL).then((r) => r.status),
          reader.request("GET", entry!.videoPosterURL).then((r) => r.status),
        ]),
      );

    // The link is off: neither a guest nor a signed-in stranger plays it.
    expect((await statuses()).every((status) => [401, 403, 404].includes(status))).toBe(true);
    // On, but showing the first page only: still not.
    expect(
      (await owner.patch(`/api/projects/${projectId}/sharing`, { public: true, showAllPages: false })).status,
    ).toBe(200);
    expect((await statuses()).every((status) => [401, 403, 404].includes(status))).toBe(true);
    // Showing every page: both play it, seeking with byte ranges like members.
    expect((await owner.patch(`/api/projects/${projectId}/sharing`, { showAllPages: true })).status).toBe(
      200,
    );
    expect(await statuses()).toEqual([200, 200, 200, 200]);
    const ranged = await guest.request("GET", entry!.videoURL, undefined, { range: "bytes=0-99" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-type")).toBe("video/webm");
    // The guest's list of comments names the same URLs.
    const shared = (await guest.get(`/api/share/${projectId}/versions/${second.versionId}/comments`)).body
      .data;
    expect(shared.find((c: { id: string }) => c.id === posted.body.data.id).thread[0]).toMatchObject({
      videoURL: entry!.videoURL,
      videoPosterURL: entry!.videoPosterURL,
    });
    // The link turned off again: the video is no longer theirs to play.
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: false });
    expect((await statuses()).every((status) => [401, 403, 404].includes(status))).toBe(true);
  }, 120_000);

  it("a guest of a link that allows comments records a video on a comment; without comments, or as someone else, not", async () => {
    const GAIL = { "x-redline-guest": "guest__1__Gail__gail@example.com" };
    const guest = new ApiClient(t.url);
    const guestUpload = (headers: Record<string, string>) =>
      guest.request("POST", `/api/share/${projectId}/videos`, undefined, {
        ...TUS,
        ...headers,
        "upload-length": String(clip.length),
      });
    await owner.patch(`/api/projects/${projectId}/sharing`, {
      public: true,
      canComment: false,
      showAllPages: true,
    });
    // A link that does not allow comments takes no video, and keeps no upload.
    const closed = await guestUpload(GAIL);
    expect(closed.status).toBe(403);
    expect(closed.headers.get("location")).toBeNull();

    await owner.patch(`/api/projects/${projectId}/sharing`, { canComment: true });
    expect(
      (await guest.request("GET", `/api/share/${projectId}/videos/limit`, undefined, GAIL)).body.data,
    ).toEqual({
      limitSeconds: -1,
    });
    // A guest names themselves first.
    expect((await guestUpload({})).status).toBe(400);
    const created = await guestUpload(GAIL);
    expect(created.status).toBe(201);
    const location = created.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/api/share/${projectId}/videos/`));
    // Another guest can neither continue it nor post it.
    const BEN = { "x-redline-guest": "guest__2__Ben__" };
    expect((await patch(guest, location, 0, clip, BEN)).status).toBe(404);
    expect((await patch(guest, location, 0, clip, GAIL)).status).toBe(204);
    const id = location.split("/").at(-1)!;
    const stolen = await guest.request(
      "POST",
      `/api/share/${projectId}/versions/${versionId}/comments`,
      { ...testComment("Not mine"), video: { upload: id } },
      BEN,
    );
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe("video-upload-missing");
    // Nor can a member post a guest's upload as their own.
    const member = await commenter.post(`/api/versions/${versionId}/comments`, {
      ...testComment("Nor mine"),
      video: { upload: id },
    });
    expect(member.body.code).toBe("video-upload-missing");

    const posted = await guest.request(
      "POST",
      `/api/share/${projectId}/versions/${versionId}/comments`,
      { ...testComment("Gail's recording"), video: { upload: id, trimEnd: 2 } },
      GAIL,
    );
    expect(posted.status).toBe(201);
    expect(posted.body.data).toMatchObject({ hasVideo: true, videoDuration: 2 });
    // Processed like a member's: the project's people and the guest play it.
    let entry: { videoURL: string | null; author: { isGuest: boolean } } | undefined;
    await expect
      .poll(
        async () => {
          const list = (await owner.get(`/api/versions/${versionId}/comments`)).body.data;
          entry = list.find((c: { id: string }) => c.id === posted.body.data.id)?.thread[0];
          return entry?.videoURL ?? null;
        },
        { timeout: 60_000, interval: 250 },
      )
      .not.toBeNull();
    expect(entry!.author.isGuest).toBe(true);
    expect((await guest.request("GET", entry!.videoURL!)).status).toBe(200);
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: false });
  }, 120_000);

  it("a reply carries a video too", async () => {
    const { id: commentId } = (await owner.post(`/api/versions/${versionId}/comments`, testComment("Pinned")))
      .body.data;
    const id = await upload(commenter, projectId, clip);
    const replied = await commenter.post(`/api/comments/${commentId}/replies`, {
      comment: "Here is how",
      video: { upload: id },
    });
    expect(replied.status).toBe(201);
    expect(replied.body.data.thread[1]).toMatchObject({ hasVideo: true, videoStatus: "processing" });
    expect(Math.abs(replied.body.data.thread[1].videoDuration - 3)).toBeLessThan(0.3);
  });

  it("refuses a file that is not a video, and keeps nothing", async () => {
    const id = await upload(commenter, projectId, Buffer.from("not a video at all, just text"));
    const before = (await commenter.get(`/api/versions/${versionId}/comments`)).body.data.length;
    const posted = await commenter.post(`/api/versions/${versionId}/comments`, {
      ...testComment("Broken"),
      video: { upload: id },
    });
    expect(posted.status).toBe(400);
    expect(posted.body).toMatchObject({
      code: "not-a-video",
      message: expect.stringContaining("not a video"),
    });
    expect((await commenter.get(`/api/versions/${versionId}/comments`)).body.data.length).toBe(before);
    expect(await t.ctx.videoUploads.finishedSize(id)).toBeNull();
  });

  it("an upload is its uploader's: another person cannot post it, continue it or name a made-up one", async () => {
    const id = await upload(commenter, projectId, clip);
    const posted = await owner.post(`/api/versions/${versionId}/comments`, {
      ...testComment("Mine now"),
      video: { upload: id },
    });
    expect(posted.status).toBe(400);
    expect(posted.body.code).toBe("video-upload-missing");
    const head = await owner.request("HEAD", `/api/projects/${projectId}/videos/${id}`, undefined, TUS);
    expect(head.status).toBe(404);
    // A client's duration is no part of the request: the server measures.
    const forged = await commenter.post(`/api/versions/${versionId}/comments`, {
      ...testComment("Short, trust me"),
      video: { upload: id, duration: 1 },
    });
    expect(forged.status).toBe(400);
  });

  it("a processing failure marks the entry and keeps the comment", async () => {
    const { id: commentId } = (await owner.post(`/api/versions/${versionId}/comments`, testComment("Kept")))
      .body.data;
    const [entry] = (
      (await t.ctx.database.db.execute(
        sql`update comment_entries set video_status = 'processing', video_upload = ${`${projectId}.gone.${"0".repeat(32)}`}
          where comment_id = ${commentId} returning id`,
      )) as unknown as { rows: { id: string }[] }
    ).rows;
    await processVideo(t.ctx, { comment: commentVideos, ticket: ticketVideos }, { entryId: entry!.id });
    const first = async () => {
      const list = (await viewer.get(`/api/versions/${versionId}/comments`)).body.data;
      return list.find((c: { id: string }) => c.id === commentId)?.thread[0];
    };
    await expect.poll(async () => (await first())?.videoStatus, { timeout: 30_000 }).toBe("failed");
    expect(await first()).toMatchObject({ comment: "Kept", hasVideo: true, videoURL: null });
  });

  it("a viewer cannot upload a video", async () => {
    const refused = await createUpload(viewer, projectId, clip.length);
    expect(refused.status).toBe(403);
    expect(refused.location).toBeNull();
  });

  it("an upload cut off mid-way resumes from the offset the server kept", async () => {
    const big = Buffer.concat([clip, Buffer.alloc(256 * 1024)]);
    const created = await createUpload(commenter, projectId, big.length);
    // The connection drops after the first part: the body stream fails mid-request.
    const firstPart = 64 * 1024;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= firstPart) {
          controller.error(new Error("connection lost"));
          return;
        }
        controller.enqueue(new Uint8Array(big.subarray(sent, sent + 16 * 1024)));
        sent += 16 * 1024;
      },
    });
    await patch(commenter, created.location!, 0, body).catch(() => undefined);
    let offset = 0;
    await expect
      .poll(
        async () => {
          const head = await commenter.request("HEAD", created.location!, undefined, TUS);
          offset = Number(head.headers.get("upload-offset"));
          return offset;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    expect(offset).toBeLessThan(big.length);
    expect((await patch(commenter, created.location!, offset, big.subarray(offset))).status).toBe(204);
    expect(await t.ctx.videoUploads.finishedSize(created.upload)).toBe(big.length);
  });
});

describe.each(routeDrivers())("video comments with plans (%s)", (driver) => {
  let t: TestApp;
  let dir2: string;
  afterAll(async () => {
    await t?.close();
    if (dir2) await rm(dir2, { recursive: true, force: true });
  });

  it("a free browse owner's 61-second video is refused with the upgrade prompt, and nothing is kept", async () => {
    dir2 = await mkdtemp(path.join(os.tmpdir(), "redline-video-plan-"));
    dir = dir2;
    const long = await makeVideo("long.webm", 61, "160x120");
    t = await startTestApp({ driver, config: { plansEnabled: true } });
    const owner = await signUpVerified(t.url, t.inbox!, email("free"));
    // A website-feedback project on the free plan has no video comments at all.
    const web = (await owner.post("/api/projects", { title: "Site" })).body.data.id;
    expect((await owner.get(`/api/projects/${web}/videos/limit`)).body.data).toEqual({ limitSeconds: 0 });
    const none = await createUpload(owner, web, long.length);
    expect(none.status).toBe(402);
    expect(none.body).toMatchObject({
      code: "video-not-included",
      limit: { kind: "videoMinutes", limit: 0 },
    });

    const browse = (await owner.post("/api/projects", { type: "browse", title: "Bugs" })).body.data.id;
    const page = await owner.post(`/api/projects/${browse}/pages`, { url: "https://example.com/b" });
    expect(page.status).toBeLessThan(300);
    expect((await owner.get(`/api/projects/${browse}/videos/limit`)).body.data).toEqual({ limitSeconds: 60 });
    const id = await upload(owner, browse, long);
    const posted = await owner.post(`/api/versions/${page.body.data.versionId}/comments`, {
      ...testComment("Too long"),
      video: { upload: id },
    });
    expect(posted.status).toBe(402);
    expect(posted.body).toMatchObject({
      code: "video-too-long",
      message:
        "The project owner's plan allows videos of up to 1 minute. Trim the video or upgrade for longer ones.",
      limit: { kind: "videoMinutes", product: "browse", limit: 1 },
    });
    expect(await t.ctx.videoUploads.finishedSize(id)).toBeNull();
    expect((await owner.get(`/api/versions/${page.body.data.versionId}/comments`)).body.data).toEqual([]);
  }, 120_000);
});
