/**
 * The poster of a recording whose pictures end before its sound (a still tab sends few frames): the moment a
 * second in has no picture, so the poster is the first frame instead of nothing. A recording cut at its start
 * is encoded again into MP4 (H.264 is fast where VP8 is not), the cut falling where it was asked.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { posterFrame, probeVideo, streamingContainer, streamingCopy } from "./ffmpeg.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "redline-poster-test-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ffmpeg = (...args: string[]) => promisify(execFile)("ffmpeg", ["-v", "error", "-y", ...args]);

describe("streamingCopy", () => {
  it("keeps a WebM recording as WebM, but cut at its start it becomes MP4 of the kept length", async () => {
    const input = path.join(dir, "recording.webm");
    await ffmpeg(
      ...["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=4"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:v", "libvpx", "-c:a", "libopus", input],
    );
    const probed = (await probeVideo(input))!;
    expect(probed.container).toBe("webm");

    const whole = path.join(dir, "whole");
    expect(streamingContainer(probed, { end: 3 })).toBe("webm");
    await streamingCopy(input, whole, probed, { end: 3 });
    expect(await probeVideo(whole)).toMatchObject({ container: "webm", videoCodec: "vp8" });

    const cut = { start: 1.5, end: 3.5 };
    expect(streamingContainer(probed, cut)).toBe("mp4");
    const trimmed = path.join(dir, "trimmed");
    await streamingCopy(input, trimmed, probed, cut);
    const result = (await probeVideo(trimmed))!;
    expect(result).toMatchObject({ container: "mp4", videoCodec: "h264", audioCodec: "aac" });
    expect(result.duration).toBeGreaterThan(1.8);
    expect(result.duration).toBeLessThan(2.2);
  });
});

describe("posterFrame", () => {
  it("takes the first frame when the moment near the start has no picture", async () => {
    const input = path.join(dir, "few-frames.webm");
    // Two pictures (0.2 s), then three seconds of sound.
    await ffmpeg(
      ...["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-frames:v", "2"],
      ...["-c:v", "libvpx", "-c:a", "libopus", input],
    );
    const output = path.join(dir, "poster.jpg");
    await posterFrame(input, output, 3);
    expect((await stat(output)).size).toBeGreaterThan(100);
  });
});
