/**
 * Video comments (issue #33, ADR 0039): a comment or reply names a finished resumable upload
 * (videos/uploads.ts); before anything is written the server measures it — not a video, longer than the
 * project owner's plan allows (the measured duration after the trim), or past the storage limit is
 * refused and the upload removed. The entry is written "processing" with a durable job (pg-boss) in the
 * same transaction; the job cuts the trim, keeps a streaming copy (faststart MP4 or WebM with cues) and a
 * poster in the file store, records them on the entry (the record of stored files meters the video) and
 * tells the project's rooms through `comment.edited`. A failure marks the entry and keeps the comment.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  productOf,
  trimmedDuration,
  UNLIMITED,
  VIDEO_MESSAGES,
  type VideoInput,
  videoFits,
  videoLimitSeconds,
} from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { commentEntries, comments, type ProjectRow, users } from "../../db/schema/index.ts";
import { BadRequestError, PlanLimitError } from "../../lib/errors.ts";
import { inTransaction, type Queue } from "../../lib/queue.ts";
import { entitlementsFor } from "../plans/plans.ts";
import { assertRoomToStore, meterStorage } from "../plans/storage.ts";
import { startUploadCollection } from "../videos/collect.ts";
import { posterFrame, probeVideo, streamingCopy } from "../videos/ffmpeg.ts";
import { uploadOwner } from "../videos/uploads.ts";
import { commentRef, recordCommentEvent } from "./comments.events.ts";
import { presentOne } from "./comments.service.ts";

export const VIDEO_QUEUE = "video-processing";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A measured upload, ready to be written on its entry. */
export interface AcceptedVideo {
  upload: string;
  duration: number;
  trimStart?: number;
  trimEnd?: number;
}

interface VideoJob {
  entryId: string;
  trimStart?: number;
  trimEnd?: number;
}

export async function createVideoQueue(queue: Queue): Promise<void> {
  await queue.createQueue(VIDEO_QUEUE);
}

async function withTemporaryDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "redline-video-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The longest video the project owner's plan allows, in seconds (-1 unlimited; always with plans off). */
export async function videoLimitOf(
  db: Database,
  project: Pick<ProjectRow, "ownerId" | "type">,
  plansEnabled: boolean,
): Promise<number> {
  if (!plansEnabled) return UNLIMITED;
  const [owner] = await db.select().from(users).where(eq(users.id, project.ownerId));
  return owner ? videoLimitSeconds(entitlementsFor(owner, productOf(project.type))) : 0;
}

/** Refuses (402, with the upgrade prompt's detail) a video the owner's plan does not allow. */
export function assertVideoFits(
  project: Pick<ProjectRow, "type">,
  limitSeconds: number,
  durationSeconds: number,
): void {
  if (videoFits(limitSeconds, durationSeconds)) return;
  const detail = {
    kind: "videoMinutes" as const,
    product: productOf(project.type),
    limit: limitSeconds / 60,
  };
  if (limitSeconds === 0) throw new PlanLimitError("video-not-included", VIDEO_MESSAGES.notIncluded, detail);
  throw new PlanLimitError("video-too-long", VIDEO_MESSAGES.tooLong(limitSeconds / 60), detail);
}

/**
 * Measures the upload a new entry names, on the server: it must be this uploader's, in this project,
 * finished, a video, and fit the owner's plan and storage. A refused upload is removed.
 */
export async function acceptVideo(
  ctx: AppContext,
  project: ProjectRow,
  userId: string,
  input: VideoInput,
): Promise<AcceptedVideo> {
  const owner = uploadOwner(input.upload);
  const size =
    owner?.projectId === project.id && owner.userId === userId
      ? await ctx.videoUploads.finishedSize(input.upload)
      : null;
  if (size === null) throw new BadRequestError(VIDEO_MESSAGES.uploadMissing, "video-upload-missing");
  try {
    const probed = await withTemporaryDir(async (dir) => {
      const file = path.join(dir, "upload");
      await ctx.videoUploads.copyTo(input.upload, file);
      return probeVideo(file);
    });
    if (!probed) throw new BadRequestError(VIDEO_MESSAGES.notVideo, "not-a-video");
    const duration = trimmedDuration(probed.duration, input);
    if (duration <= 0) throw new BadRequestError(VIDEO_MESSAGES.notVideo, "not-a-video");
    const { db } = ctx.database;
    assertVideoFits(project, await videoLimitOf(db, project, ctx.config.plansEnabled), duration);
    await assertRoomToStore(
      db,
      project,
      { key: `videos/${project.id}/${input.upload}`, bytes: size },
      ctx.config.plansEnabled,
    );
    return { upload: input.upload, duration, trimStart: input.trimStart, trimEnd: input.trimEnd };
  } catch (error) {
    await ctx.videoUploads.remove(input.upload);
    throw error;
  }
}

/** The entry's video columns while it is processed. */
export function pendingVideoColumns(video: AcceptedVideo | undefined) {
  return video
    ? { videoStatus: "processing" as const, videoUpload: video.upload, videoDuration: video.duration }
    : {};
}

/** Asks for the video's processing in the transaction that writes its entry. */
export async function enqueueVideo(
  queue: Queue,
  tx: Tx,
  entryId: string,
  video: AcceptedVideo,
): Promise<void> {
  await queue.send(
    VIDEO_QUEUE,
    { entryId, trimStart: video.trimStart, trimEnd: video.trimEnd } satisfies VideoJob,
    { db: inTransaction(tx), retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60 },
  );
}

async function loadPending(db: Database, entryId: string) {
  const [row] = await db
    .select({ entry: commentEntries, comment: comments })
    .from(commentEntries)
    .innerJoin(comments, eq(comments.id, commentEntries.commentId))
    .where(eq(commentEntries.id, entryId));
  return row && row.entry.videoStatus === "processing" && row.entry.videoUpload ? row : null;
}

/** Records the outcome on the entry and tells the project's rooms. */
async function finish(
  ctx: AppContext,
  entryId: string,
  commentId: string,
  set: Partial<typeof commentEntries.$inferInsert>,
  meter: boolean,
): Promise<void> {
  const { db } = ctx.database;
  await db.transaction(async (tx) => {
    const [comment] = await tx.select().from(comments).where(eq(comments.id, commentId));
    if (!comment) return;
    const storage = meter ? await meterStorage(tx, comment.projectId, ctx.config.plansEnabled) : null;
    await tx
      .update(commentEntries)
      .set({ ...set, videoUpload: null })
      .where(and(eq(commentEntries.id, entryId), eq(commentEntries.videoStatus, "processing")));
    await storage?.check();
    await recordCommentEvent(tx, {
      type: "comment.edited",
      ref: commentRef(comment),
      comment: (await presentOne(tx, comment.id)) ?? undefined,
    });
  });
}

/** One video job: the streaming copy and poster stored, the entry marked ready (or failed). */
export async function processVideo(ctx: AppContext, job: VideoJob): Promise<void> {
  const pending = await loadPending(ctx.database.db, job.entryId);
  if (!pending) return;
  const { entry, comment } = pending;
  const upload = entry.videoUpload!;
  try {
    const stored = await withTemporaryDir(async (dir) => {
      const input = path.join(dir, "upload");
      await ctx.videoUploads.copyTo(upload, input);
      const probed = await probeVideo(input);
      if (!probed) throw new Error("not a video");
      const output = path.join(dir, `video.${probed.container}`);
      await streamingCopy(input, output, probed, { start: job.trimStart, end: job.trimEnd });
      const result = await probeVideo(output);
      if (!result) throw new Error("the streaming copy is not readable");
      const poster = path.join(dir, "poster.jpg");
      await posterFrame(output, poster, result.duration);
      const videoKey = `videos/${comment.projectId}/${entry.id}.${probed.container}`;
      const posterKey = `videos/${comment.projectId}/${entry.id}.jpg`;
      await ctx.storage.put(videoKey, await readFile(output));
      await ctx.storage.put(posterKey, await readFile(poster));
      return { videoKey, posterKey, bytes: (await stat(output)).size, duration: result.duration };
    });
    await finish(
      ctx,
      entry.id,
      comment.id,
      {
        videoStatus: "ready",
        videoKey: stored.videoKey,
        videoPosterKey: stored.posterKey,
        videoBytes: stored.bytes,
        videoDuration: stored.duration,
      },
      true,
    );
  } catch (error) {
    console.error("video processing failed", error);
    await finish(ctx, entry.id, comment.id, { videoStatus: "failed" }, false);
  }
  await ctx.videoUploads.remove(upload);
}

/** Works the video jobs in this process, and collects abandoned uploads (videos/collect.ts). */
export async function startVideoProcessing(ctx: AppContext): Promise<{ stop(): void }> {
  await ctx.queue.work<VideoJob>(VIDEO_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    if (job) await processVideo(ctx, job.data);
  });
  return startUploadCollection(ctx);
}
