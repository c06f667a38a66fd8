/**
 * Videos on tickets over HTTP (issue #33): whoever may attach to a ticket records on it (a resumable upload
 * under the ticket), a reply names the upload, the server measures it and the durable job keeps a streaming
 * copy and a poster the board's readers play; not-a-video, a forged duration, a stranger's or a viewer's
 * upload refused with nothing kept; a free browse owner's 61-second video refused with the upgrade prompt;
 * the upload collector keeps what a ticket entry waits on and the file collector keeps a ticket's video.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TicketDetail, TicketEntry } from "@redline/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { createUpload, makeVideo, patch, TUS, upload } from "../../testing/video-uploads.ts";
import { collectFiles } from "../files/collector.ts";
import { collectVideoUploads } from "../videos/collect.ts";
import { createVideoUploads } from "../videos/uploads.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "redline-ticket-video-test-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A board with one ticket, its owner, a commenter, a viewer and a stranger. */
async function boardOf(t: TestApp) {
  const addresses = { commenter: email("commenter"), viewer: email("viewer") };
  const [owner, commenter, viewer, stranger] = await Promise.all([
    signUpVerified(t.url, t.inbox!, email("owner")),
    signUpVerified(t.url, t.inbox!, addresses.commenter),
    signUpVerified(t.url, t.inbox!, addresses.viewer),
    signUpVerified(t.url, t.inbox!, email("stranger")),
  ]);
  const projectId = (await owner!.post("/api/projects", { title: "Bugs", type: "browse" })).body.data.id;
  await owner!.post(`/api/projects/${projectId}/members`, { email: addresses.commenter, access: "comment" });
  await owner!.post(`/api/projects/${projectId}/members`, { email: addresses.viewer, access: "view" });
  const listId = (await owner!.post(`/api/projects/${projectId}/lists`, { title: "To do" })).body.data.id;
  const ticketId = (await owner!.post(`/api/projects/${projectId}/tickets`, { listId, title: "Broken" })).body
    .data.id as string;
  return { owner: owner!, commenter: commenter!, viewer: viewer!, stranger: stranger!, projectId, ticketId };
}

describe.each(routeDrivers())("videos on tickets (%s)", (driver) => {
  let t: TestApp;
  let board: Awaited<ReturnType<typeof boardOf>>;
  let clip: Buffer;
  let videosPath: string;
  const thread = async (as: ApiClient = board.owner): Promise<TicketEntry[]> =>
    ((await as.get(`/api/tickets/${board.ticketId}`)).body.data as TicketDetail).thread;

  beforeAll(async () => {
    [clip, t] = await Promise.all([makeVideo(dir, "clip.webm", 3), startTestApp({ driver })]);
    board = await boardOf(t);
    videosPath = `/api/tickets/${board.ticketId}/videos`;
  }, 60_000);
  afterAll(() => t?.close());

  it("a commenter records on a ticket; the job keeps a streaming copy and a poster its readers play", async () => {
    const created = await createUpload(board.commenter, videosPath, clip.length);
    expect(created.status).toBe(201);
    // The upload continues under the ticket.
    expect(created.location).toMatch(new RegExp(`^${videosPath}/${board.projectId}\\.`));
    expect((await patch(board.commenter, created.location!, 0, clip)).status).toBe(204);
    const replied = await board.commenter.post(`/api/tickets/${board.ticketId}/entries`, {
      comment: "Here is what happens",
      video: { upload: created.upload, trimEnd: 2 },
    });
    expect(replied.status).toBe(201);
    const reply = (replied.body.data as TicketDetail).thread.at(-1)!;
    expect(reply).toMatchObject({
      hasVideo: true,
      videoStatus: "processing",
      videoDuration: 2,
      videoURL: null,
    });

    // The durable job processes it; a viewer of the board sees it ready and plays it.
    let entry: TicketEntry | undefined;
    await expect
      .poll(
        async () => {
          entry = (await thread(board.viewer)).find((e) => e.id === reply.id);
          return entry?.videoStatus;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe("ready");
    expect(Math.abs(entry!.videoDuration! - 2)).toBeLessThan(0.3);
    expect(entry!.videoURL).toBe(`/api/tickets/${board.ticketId}/entries/${reply.id}/video`);
    const video = await board.viewer.request("GET", entry!.videoURL!);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/webm");
    const size = Number(video.headers.get("content-length"));
    const ranged = await board.viewer.request("GET", entry!.videoURL!, undefined, { range: "bytes=10-19" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 10-19/${size}`);
    const poster = await board.viewer.request("GET", entry!.videoPosterURL!);
    expect(poster.headers.get("content-type")).toBe("image/jpeg");
    // Someone without access to the board plays nothing.
    expect((await board.stranger.request("GET", entry!.videoURL!)).status).toBe(404);
    expect((await new ApiClient(t.url).request("GET", entry!.videoURL!)).status).toBe(401);

    // Metered against the owner's storage at its stored size; the upload is gone.
    const { rows } = (await t.ctx.database.db.execute(
      sql`select bytes from stored_files where holder_kind = 'ticket_video' and holder_id = ${reply.id}`,
    )) as unknown as { rows: { bytes: number | string }[] };
    expect(Number(rows[0]?.bytes)).toBe(size);
    expect(await t.ctx.videoUploads.finishedSize(created.upload)).toBeNull();

    // The file collector keeps a ticket's video and poster, however old.
    const collected = await collectFiles(t.ctx, 0, Date.now() + 3_600_000);
    expect(collected.removed.filter((key) => key.startsWith(`videos/${board.projectId}/`))).toEqual([]);
    expect((await board.viewer.request("GET", entry!.videoURL!)).status).toBe(200);

    // Deleting the entry lets its video and poster go.
    expect((await board.commenter.delete(`/api/tickets/${board.ticketId}/entries/${reply.id}`)).status).toBe(
      200,
    );
    expect(await t.ctx.storage.get(`videos/${board.projectId}/${reply.id}.webm`)).toBeNull();
  }, 120_000);

  it("refuses a file that is not a video, and keeps nothing", async () => {
    const id = await upload(board.commenter, videosPath, Buffer.from("not a video at all, just text"));
    const before = (await thread()).length;
    const replied = await board.commenter.post(`/api/tickets/${board.ticketId}/entries`, {
      comment: "Broken",
      video: { upload: id },
    });
    expect(replied.status).toBe(400);
    expect(replied.body).toMatchObject({
      code: "not-a-video",
      message: expect.stringContaining("not a video"),
    });
    expect((await thread()).length).toBe(before);
    expect(await t.ctx.videoUploads.finishedSize(id)).toBeNull();
  });

  it("ignores a duration the client claims: the body refuses it, the upload's metadata is not read", async () => {
    const id = await upload(board.commenter, videosPath, clip, { duration: "1" });
    const before = (await thread()).length;
    const forged = await board.commenter.post(`/api/tickets/${board.ticketId}/entries`, {
      comment: "Short, trust me",
      video: { upload: id, duration: 1 },
    });
    expect(forged.status).toBe(400);
    expect((await thread()).length).toBe(before);
    // Named without the claim, the duration is the file's own.
    const replied = await board.commenter.post(`/api/tickets/${board.ticketId}/entries`, {
      comment: "As recorded",
      video: { upload: id },
    });
    expect(replied.status).toBe(201);
    expect(Math.abs((replied.body.data as TicketDetail).thread.at(-1)!.videoDuration! - 3)).toBeLessThan(0.3);
  });

  it("refuses whoever may not post on the ticket, and another person's upload", async () => {
    // A viewer reads the board but records nothing on it; a stranger does not see it.
    const viewer = await createUpload(board.viewer, videosPath, clip.length);
    expect(viewer.status).toBe(403);
    expect(viewer.location).toBeNull();
    expect((await board.viewer.get(`${videosPath}/limit`)).status).toBe(403);
    const stranger = await createUpload(board.stranger, videosPath, clip.length);
    expect(stranger.status).toBe(404);
    expect((await createUpload(new ApiClient(t.url), videosPath, clip.length)).status).toBe(401);

    // The commenter's upload is theirs: the owner can neither continue nor post it.
    const created = await createUpload(board.commenter, videosPath, clip.length);
    expect((await patch(board.owner, created.location!, 0, clip)).status).toBe(404);
    expect((await patch(board.commenter, created.location!, 0, clip)).status).toBe(204);
    const stolen = await board.owner.post(`/api/tickets/${board.ticketId}/entries`, {
      comment: "Mine now",
      video: { upload: created.upload },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe("video-upload-missing");
    // Nor does it continue under another board's ticket.
    const other = await boardOf(t);
    const elsewhere = `/api/tickets/${other.ticketId}/videos/${created.upload}`;
    expect((await board.commenter.request("HEAD", elsewhere, undefined, TUS)).status).toBe(404);
  }, 60_000);

  it("the upload collector keeps an upload a ticket entry waits on", async () => {
    const held = await upload(board.commenter, videosPath, clip);
    const unposted = await upload(board.commenter, videosPath, Buffer.alloc(200, 1));
    const [first] = await thread();
    await t.ctx.database.db.execute(
      sql`update ticket_entries set video_status = 'processing', video_upload = ${held} where id = ${first!.id}`,
    );
    const aged = createVideoUploads(t.ctx.config, { expiresMs: 1 });
    await collectVideoUploads(t.ctx.database.db, aged);
    expect(await t.ctx.videoUploads.finishedSize(unposted)).toBeNull();
    expect(await t.ctx.videoUploads.finishedSize(held)).toBe(clip.length);
  });
});

describe.each(routeDrivers())("videos on tickets with plans (%s)", (driver) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("a free browse owner's 61-second video is refused with the upgrade prompt whatever it claims, and nothing is kept", async () => {
    const long = await makeVideo(dir, "long.webm", 61, "160x120");
    t = await startTestApp({ driver, config: { plansEnabled: true } });
    const board = await boardOf(t);
    const videosPath = `/api/tickets/${board.ticketId}/videos`;
    expect((await board.owner.get(`${videosPath}/limit`)).body.data).toEqual({ limitSeconds: 60 });
    // The upload's metadata claims 30 seconds: the server reads the file.
    const id = await upload(board.owner, videosPath, long, { duration: "30" });
    const replied = await board.owner.post(`/api/tickets/${board.ticketId}/entries`, {
      comment: "Too long",
      video: { upload: id },
    });
    expect(replied.status).toBe(402);
    expect(replied.body).toMatchObject({
      code: "video-too-long",
      message:
        "The project owner's plan allows videos of up to 1 minute. Trim the video or upgrade for longer ones.",
      limit: { kind: "videoMinutes", product: "browse", limit: 1 },
    });
    expect(await t.ctx.videoUploads.finishedSize(id)).toBeNull();
    const detail = (await board.owner.get(`/api/tickets/${board.ticketId}`)).body.data as TicketDetail;
    expect(detail.thread.map((entry) => entry.comment)).toEqual(["Broken"]);
  }, 120_000);
});
