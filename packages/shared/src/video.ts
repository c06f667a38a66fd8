/**
 * Video comments (SPEC §1, §6, §9): a comment or reply may carry one recorded video. The browser records it
 * (MediaRecorder), uploads it resumably (tus) and names the upload when it posts; the server measures the
 * file itself — its duration decides the plan check, never the client's word — and processes it in a
 * durable job. A plan's `videoMinutes` is the longest video one comment may carry.
 */
import { z } from "zod";
import { UNLIMITED } from "./limits.ts";
import type { Entitlements } from "./plans.ts";

/** A video a little longer than the limit still passes: containers round their durations. */
export const VIDEO_DURATION_TOLERANCE_SECONDS = 0.5;

/** The largest upload a video may be (about an hour of 1080p screen recording). */
export const MAX_VIDEO_UPLOAD_BYTES = 1024 * 1024 * 1024;

/** A resumable upload's id as the server names it: project, uploader, a random part. */
export const VIDEO_UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,64}\.[0-9a-f]{32}$/;

/** The video a new comment or reply carries: its finished upload and where to cut it (seconds). */
export const videoInputSchema = z
  .object({
    upload: z.string().regex(VIDEO_UPLOAD_ID),
    trimStart: z.number().min(0).max(36_000).optional(),
    trimEnd: z.number().min(0).max(36_000).optional(),
  })
  .strict()
  .refine(
    (video) =>
      video.trimStart === undefined || video.trimEnd === undefined || video.trimEnd > video.trimStart,
    {
      message: "The end of the video must come after its start.",
      path: ["trimEnd"],
    },
  );
export type VideoInput = z.infer<typeof videoInputSchema>;

export const VIDEO_STATUSES = ["processing", "ready", "failed"] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/** SPEC §3: a thread entry's recorded video (comment or ticket); its URL and poster once "ready". */
export const entryVideoSchema = z.strictObject({
  hasVideo: z.boolean(),
  videoURL: z.string().nullable(),
  videoPosterURL: z.string().nullable(),
  /** Seconds, as measured on the server. */
  videoDuration: z.number().min(0).nullable(),
  videoStatus: z.enum(VIDEO_STATUSES).nullable(),
});
export type EntryVideo = z.infer<typeof entryVideoSchema>;

/** The longest video a plan allows, in seconds: -1 unlimited, 0 none. */
export function videoLimitSeconds(entitlements: Pick<Entitlements, "videoMinutes">): number {
  return entitlements.videoMinutes === UNLIMITED ? UNLIMITED : entitlements.videoMinutes * 60;
}

/** Whether a video of `durationSeconds` (measured on the server) fits the limit. */
export function videoFits(limitSeconds: number, durationSeconds: number): boolean {
  if (limitSeconds === UNLIMITED) return true;
  return limitSeconds > 0 && durationSeconds <= limitSeconds + VIDEO_DURATION_TOLERANCE_SECONDS;
}

/** The part of a video a trim keeps, in seconds, given its measured duration. */
export function trimmedDuration(
  durationSeconds: number,
  trim: { trimStart?: number; trimEnd?: number },
): number {
  const start = Math.min(trim.trimStart ?? 0, durationSeconds);
  const end = Math.min(trim.trimEnd ?? durationSeconds, durationSeconds);
  return Math.max(0, end - start);
}

/** The recorder's timer and the player's duration: mm:ss (SPEC §9). */
export function formatVideoTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(whole / 60)).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
}

export const VIDEO_MESSAGES = {
  notVideo: "This file is not a video we can play. Record it again and try once more.",
  notIncluded: "Video comments are not included in the project owner's plan. Upgrade to record them.",
  tooLong: (minutes: number) =>
    `The project owner's plan allows videos of up to ${minutes} ${minutes === 1 ? "minute" : "minutes"}. Trim the video or upgrade for longer ones.`,
  uploadMissing: "The video's upload was not found or is not finished. Record it again.",
  processingFailed: "This video could not be processed.",
} as const;
