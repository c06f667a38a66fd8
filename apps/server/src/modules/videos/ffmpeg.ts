/**
 * Debian's ffmpeg and ffprobe (installed by the project's setup, README), run as child processes: what a
 * file is, how long it really is, and the streaming copy and poster a video comment keeps (ADR 0039).
 * Durations are measured by reading every packet (`-c copy -f null`), never taken from the container's
 * header, which a client could have written.
 */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/** How long one ffmpeg run may take before it is stopped (a 10-minute video remuxes in seconds). */
const TIMEOUT_MS = 10 * 60_000;

export interface Probed {
  /** "webm" or "mp4": the container a browser recorded (and the one kept). */
  container: "webm" | "mp4";
  /** Seconds, measured from the packets. */
  duration: number;
  videoCodec: string;
  audioCodec: string | null;
}

interface FfprobeJson {
  format?: { format_name?: string };
  streams?: { codec_type?: string; codec_name?: string }[];
}

/** What `file` is, or null when it is not a video ffmpeg can read. */
export async function probeVideo(file: string): Promise<Probed | null> {
  let info: FfprobeJson;
  try {
    const { stdout } = await run(
      "ffprobe",
      [
        "-v",
        "error",
        "-show_entries",
        "format=format_name:stream=codec_type,codec_name",
        "-of",
        "json",
        file,
      ],
      { timeout: TIMEOUT_MS },
    );
    info = JSON.parse(stdout) as FfprobeJson;
  } catch {
    return null;
  }
  const formats = info.format?.format_name?.split(",") ?? [];
  const container = formats.includes("webm") ? "webm" : formats.includes("mp4") ? "mp4" : null;
  const video = info.streams?.find((stream) => stream.codec_type === "video");
  const audio = info.streams?.find((stream) => stream.codec_type === "audio");
  // A still image (mjpeg, png) is "video" to ffprobe; a recorded video is none of these.
  if (!container || !video?.codec_name || /^(mjpeg|png|gif|bmp|webp)$/.test(video.codec_name)) return null;
  const duration = await measureDuration(file);
  if (duration === null) return null;
  return { container, duration, videoCodec: video.codec_name, audioCodec: audio?.codec_name ?? null };
}

/** The last timestamp of a full read of the packets (no decoding), in seconds. */
async function measureDuration(file: string): Promise<number | null> {
  try {
    const { stderr } = await run(
      "ffmpeg",
      ["-nostdin", "-v", "info", "-i", file, "-map", "0", "-c", "copy", "-f", "null", "-"],
      {
        timeout: TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const times = [...stderr.matchAll(/time=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)];
    const last = times.at(-1);
    if (!last) return null;
    return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
  } catch {
    return null;
  }
}

export interface Cut {
  /** Seconds kept from the start and to the end; undefined keeps the whole video. */
  start?: number;
  end?: number;
}

/** Whether a cut starts past the recording's first moment (its kept part is then encoded again). */
const cutsStart = (cut: Cut) => (cut.start ?? 0) > 0.05;

/**
 * The container of the copy a thread streams: the recorded one, or MP4 when the start is cut — the kept part
 * is encoded again, and H.264 (x264, all cores) encodes a 1080p recording several times faster than VP8 does
 * (libvpx on one thread: 9× a WebM recording's duration on this 2-core machine; bench:video).
 */
export function streamingContainer(probed: Probed, cut: Cut): Probed["container"] {
  return cutsStart(cut) ? "mp4" : probed.container;
}

/**
 * The copy a thread streams: MP4 with its index first (faststart) or WebM with cues, the packets copied as
 * recorded; a video trimmed at its start is encoded again (fast settings) so the cut falls exactly there,
 * into MP4 (`streamingContainer`).
 */
export async function streamingCopy(input: string, output: string, probed: Probed, cut: Cut): Promise<void> {
  const range = [
    ...(cut.start ? ["-ss", String(cut.start)] : []),
    ...(cut.end !== undefined ? ["-to", String(cut.end)] : []),
  ];
  // Cutting the end keeps the packets as they are; cutting the start needs a picture that stands alone
  // there, so the kept part is encoded again.
  const codecs = cutsStart(cut)
    ? [
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-crf",
        "28",
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        "-b:a",
        "96k",
      ]
    : ["-c", "copy"];
  const container =
    streamingContainer(probed, cut) === "mp4" ? ["-movflags", "+faststart", "-f", "mp4"] : ["-f", "webm"];
  await run(
    "ffmpeg",
    [
      "-nostdin",
      "-v",
      "error",
      "-y",
      "-i",
      input,
      ...range,
      "-map",
      "0:v:0",
      "-map",
      "0:a:0?",
      ...codecs,
      ...container,
      output,
    ],
    { timeout: TIMEOUT_MS },
  );
}

/**
 * A JPEG poster (640 px wide) from a moment near the start — or the first frame, when the moment falls past
 * the last picture (a recording of a still tab may hold only a few frames: ffmpeg then writes nothing).
 */
export async function posterFrame(input: string, output: string, duration: number): Promise<void> {
  for (const at of [Math.min(1, duration / 2), 0]) {
    await run(
      "ffmpeg",
      [
        "-nostdin",
        "-v",
        "error",
        "-y",
        "-ss",
        String(at),
        "-i",
        input,
        "-frames:v",
        "1",
        "-vf",
        "scale=640:-2",
        "-q:v",
        "4",
        "-f",
        "image2",
        output,
      ],
      { timeout: TIMEOUT_MS },
    );
    if ((await stat(output).catch(() => null))?.size) return;
  }
  throw new Error("no picture for the poster");
}
