/**
 * The poster of a recording whose pictures end before its sound (a still tab sends few frames): the moment a
 * second in has no picture, so the poster is the first frame instead of nothing.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { posterFrame } from "./ffmpeg.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "redline-poster-test-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("posterFrame", () => {
  it("takes the first frame when the moment near the start has no picture", async () => {
    const input = path.join(dir, "few-frames.webm");
    // Two pictures (0.2 s), then three seconds of sound.
    await promisify(execFile)("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-frames:v", "2"],
      ...["-c:v", "libvpx", "-c:a", "libopus", input],
    ]);
    const output = path.join(dir, "poster.jpg");
    await posterFrame(input, output, 3);
    expect((await stat(output)).size).toBeGreaterThan(100);
  });
});
