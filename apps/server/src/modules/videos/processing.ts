/**
 * Recorded videos on thread entries (issue #33, ADR 0039) — a comment's or a ticket's: an entry names a
 * finished resumable upload (uploads.ts); before anything is written the server measures it — not a video,
 * longer than the project owner's plan allows (the measured duration after the trim), or past the storage
 * limit is refused and the upload removed. The entry is written "processing" with a durable job (pg-boss) in
 * the same transaction; the job cuts the trim, keeps a streaming copy (faststart MP4 or WebM with cues) and
 * a poster in the file store, and records them on the entry through its holder (the comments or the tickets
 * module: the record of stored files meters the video, and the holder tells who follows the entry). A
 * failure marks the entry and keeps it.
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
  type VideoStatus,
  videoFits,
  videoLimitSeconds,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type ProjectRow, users } from "../../db/schema/index.ts";
import { BadRequestError, PlanLimitError } from "../../lib/errors.ts";
import { inTransaction, type Queue } from "../../lib/queue.ts";
import { entitlementsFor } from "../plans/plans.ts";
import { assertRoomToStore, meterStorage } from "../plans/storage.ts";
import { startUploadCollection } from "./collect.ts";
import { posterFrame, probeVideo, streamingContainer, streamingCopy } from "./ffmpeg.ts";
import { uploadOwner } from "./uploads.ts";

export const VIDEO_QUEUE = "video-processing";

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The tables whose entries carry videos; a job names its entry's. */
export type VideoHolderKind = "comment" | "ticket";

/** A measured upload, ready to be written on its entry. */
export interface AcceptedVideo {
  upload: string;
  duration: number;
  trimStart?: number;
  trimEnd?: number;
}

interface VideoJob {
  entryId: string;
  /** Absent on jobs queued before tickets carried videos: a comment's. */
  holder?: VideoHolderKind;
  trimStart?: number;
  trimEnd?: number;
}

/** What processing leaves on the entry. */
export interface VideoOutcome {
  videoStatus: VideoStatus;
  videoKey?: string;
  videoPosterKey?: string;
  videoBytes?: number;
  videoDuration?: number;
}

/** The module whose entries carry videos: how the job finds the entry and records what became of it. */
export interface VideoHolder {
  /** The entry while its video waits to be processed (its project and upload), else null. */
  pending(db: Database, entryId: string): Promise<{ projectId: string; upload: string } | null>;
  /**
   * Writes the outcome on the entry (only while it is "processing"), clearing its upload, and tells who
   * follows it — in the transaction that meters the stored video.
   */
  finish(tx: Tx, entryId: string, outcome: VideoOutcome): Promise<void>;
}

export type VideoHolders = Record<VideoHolderKind, VideoHolder>;

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
  holder: VideoHolderKind,
  entryId: string,
  video: AcceptedVideo,
): Promise<void> {
  await queue.send(
    VIDEO_QUEUE,
    { entryId, holder, trimStart: video.trimStart, trimEnd: video.trimEnd } satisfies VideoJob,
    { db: inTransaction(tx), retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60 },
  );
}

/** One video job: the streaming copy and poster stored, the entry marked ready (or failed). */
export async function processVideo(ctx: AppContext, holders: VideoHolders, job: VideoJob): Promise<void> {
  const holder = holders[job.holder ?? "comment"];
  const { db } = ctx.database;
  const pending = await holder.pending(db, job.entryId);
  if (!pending) return;
  const { projectId, upload } = pending;
  const finish = (outcome: VideoOutcome, meter: boolean) =>
    db.transaction(async (tx) => {
      const storage = meter ? await meterStorage(tx, projectId, ctx.config.plansEnabled) : null;
      await holder.finish(tx, job.entryId, outcome);
      await storage?.check();
    });
  try {
    const stored = await withTemporaryDir(async (dir) => {
      const input = path.join(dir, "upload");
      await ctx.videoUploads.copyTo(upload, input);
      const probed = await probeVideo(input);
      if (!probed) throw new Error("not a video");
      const cut = { start: job.trimStart, end: job.trimEnd };
      const container = streamingContainer(probed, cut);
      const output = path.join(dir, `video.${container}`);
      await streamingCopy(input, output, probed, cut);
      const result = await probeVideo(output);
      if (!result) throw new Error("the streaming copy is not readable");
      const poster = path.join(dir, "poster.jpg");
      await posterFrame(output, poster, result.duration);
      const videoKey = `videos/${projectId}/${job.entryId}.${container}`;
      const posterKey = `videos/${projectId}/${job.entryId}.jpg`;
      await ctx.storage.put(videoKey, await readFile(output));
      await ctx.storage.put(posterKey, await readFile(poster));
      return { videoKey, posterKey, bytes: (await stat(output)).size, duration: result.duration };
    });
    await finish(
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
    await finish({ videoStatus: "failed" }, false);
  }
  await ctx.videoUploads.remove(upload);
}

/** Works the video jobs in this process, and collects abandoned uploads (collect.ts). */
export async function startVideoProcessing(
  ctx: AppContext,
  holders: VideoHolders,
): Promise<{ stop(): void }> {
  await ctx.queue.work<VideoJob>(VIDEO_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    if (job) await processVideo(ctx, holders, job.data);
  });
  return startUploadCollection(ctx);
}
