import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CaptureResult } from "./capturer.ts";

/**
 * Writes a capture as a directory that opens offline: index.html, assets/<sha256>.<ext> (the
 * default `assetUrl`), live.png and capture.json. Used by the CLI and the benchmark.
 */
export async function writeSnapshotDir(result: CaptureResult, dir: string): Promise<void> {
  await mkdir(path.join(dir, "assets"), { recursive: true });
  await Promise.all([
    writeFile(path.join(dir, "index.html"), result.html),
    writeFile(path.join(dir, "live.png"), result.screenshot),
    ...result.assets.map((asset) =>
      writeFile(path.join(dir, "assets", `${asset.sha256}.${asset.ext}`), asset.bytes),
    ),
    writeFile(
      path.join(dir, "capture.json"),
      `${JSON.stringify(
        {
          url: result.url,
          finalUrl: result.finalUrl,
          title: result.title,
          width: result.viewport.width,
          height: result.viewport.height,
          timings: result.timings,
          bytes: result.bytes,
          assets: result.assets.length,
          blocked: result.blocked,
          settled: result.settled,
        },
        null,
        2,
      )}\n`,
    ),
  ]);
}
