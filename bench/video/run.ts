/**
 * Video comments (issue #33): a minute of 1080p screen recording as Chromium's MediaRecorder makes it
 * (fragmented MP4, H.264 + Opus, at the recorder's bitrate), and as WebM (VP8 + Opus); for each, the
 * server's processing — the measurement on post (ffprobe and a full packet read) and the job (streaming
 * copy and poster) — timed as a ratio of the video's duration (goal ≤ 0.5), with a trimmed copy (encoded
 * again) beside it, and the file's size (goal ≤ 2.5 MB a minute). Writes "## Video comments" in
 * docs/PERFORMANCE.md.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { posterFrame, probeVideo, streamingCopy } from "../../apps/server/src/modules/videos/ffmpeg.ts";
import {
  AUDIO_BITS_PER_SECOND,
  VIDEO_BITS_PER_SECOND,
} from "../../apps/web/src/components/video/recorder.ts";
import { writeSection } from "../lib/report.ts";

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);

/** A screen-like 1080p recording: a mostly still page with a moving part, and a voice-like tone. */
async function record(file: string, container: "mp4" | "webm") {
  const video =
    container === "mp4"
      ? ["-c:v", "libx264", "-preset", "veryfast", "-b:v", String(VIDEO_BITS_PER_SECOND), "-g", "300"]
      : ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", String(VIDEO_BITS_PER_SECOND)];
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=15`],
    ...["-f", "lavfi", "-i", "sine=frequency=300", "-t", String(SECONDS)],
    ...video,
    ...["-c:a", "libopus", "-b:a", String(AUDIO_BITS_PER_SECOND)],
    ...(container === "mp4" ? ["-movflags", "+frag_keyframe+empty_moov", "-f", "mp4"] : ["-f", "webm"]),
    file,
  ]);
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
}

const dir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-video-"));
const rows: string[] = [];
try {
  for (const container of ["mp4", "webm"] as const) {
    const input = path.join(dir, `recording.${container}`);
    await record(input, container);
    const size = (await stat(input)).size;
    const [probed, measure] = await timed(() => probeVideo(input));
    if (!probed) throw new Error("the recording is not readable");
    const output = path.join(dir, `out.${container}`);
    const [, copy] = await timed(async () => {
      await streamingCopy(input, output, probed, {});
      await posterFrame(output, path.join(dir, "poster.jpg"), probed.duration);
    });
    const [, endTrimmed] = await timed(() =>
      streamingCopy(input, path.join(dir, `end.${container}`), probed, { end: probed.duration - 1 }),
    );
    const [, trimmed] = await timed(() =>
      streamingCopy(input, path.join(dir, `trim.${container}`), probed, {
        start: 1,
        end: probed.duration - 1,
      }),
    );
    const ratio = (seconds: number) => (seconds / probed.duration).toFixed(3);
    rows.push(
      `| ${container === "mp4" ? "MP4 (H.264 + Opus)" : "WebM (VP8 + Opus)"} | ${(size / 1024 / 1024).toFixed(2)} MB | ${ratio(measure)} | ${ratio(measure + copy)} | ${ratio(measure + endTrimmed)} | ${ratio(measure + trimmed)} |`,
    );
    console.info(rows.at(-1));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

await writeSection(
  "Video comments (#33)",
  `${SECONDS} s of 1080p screen recording at the recorder's bitrate (${VIDEO_BITS_PER_SECOND / 1000} + ${AUDIO_BITS_PER_SECOND / 1000} kbit/s), processed as the server does (\`npm run bench:video\`, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}). Times are a ratio of the video's duration (goal ≤ 0.5); the size goal is ≤ 2.5 MB a minute.

| Recording | Size | Measure on post | Measure + job (copy, poster) | End trimmed (copy) | Start trimmed (encoded again) |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

An untrimmed video, or one cut at its end, is a packet copy, so its processing is I/O; a cut at the start
encodes the kept part again, into MP4 with x264's ultrafast preset whatever was recorded (WebM's VP8 encoder
runs on one thread: a WebM start cut took 9.4× its duration before it became MP4), which is where the 0.5 goal
is at risk on a loaded 2-core machine. Load average when the run ended: ${os.loadavg()[0]!.toFixed(1)}. The
browser's own encoder decides the real size: these files are encoded by ffmpeg at the same bitrates.`,
);
