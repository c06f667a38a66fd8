/**
 * Developer CLI running the same pipeline as the server's capture job:
 *
 *   node --import tsx packages/capture/src/cli.ts <url> --out <dir> [--width 1280] [--no-private]
 *
 * Writes <dir>/index.html (opens offline; assets in <dir>/assets/), <dir>/live.png and
 * <dir>/capture.json. Private URLs are allowed (it is a local tool) unless --no-private.
 */
import { parseArgs } from "node:util";
import { CaptureError } from "./errors.ts";
import { Capturer, writeSnapshotDir } from "./index.ts";

const USAGE = "Usage: capture <url> --out <dir> [--width 1280] [--timeout 45000] [--no-private]";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: "string", short: "o" },
      width: { type: "string", short: "w", default: "1280" },
      timeout: { type: "string", default: "45000" },
      "no-private": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const url = positionals[0];
  const width = Number(values.width);
  if (values.help || !url || !values.out || !Number.isInteger(width) || width < 200 || width > 4000) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const capturer = await Capturer.launch();
  try {
    const result = await capturer.capture({
      url,
      width,
      timeoutMs: Number(values.timeout),
      allowPrivateUrls: !values["no-private"],
    });
    await writeSnapshotDir(result, values.out);
    const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
    console.log(`${result.title || "(untitled)"} — ${result.finalUrl}`);
    console.log(
      `  ${width}×${result.viewport.height}, html ${kb(result.bytes.html)}, assets ${kb(result.bytes.assets)} (${result.assets.length})`,
    );
    console.log(
      `  ${Object.entries(result.timings)
        .map(([k, v]) => `${k} ${v} ms`)
        .join(", ")}`,
    );
    if (result.blocked.length > 0) console.log(`  blocked: ${result.blocked.join(", ")}`);
    console.log(`  → ${values.out}/index.html`);
    return 0;
  } catch (error) {
    console.error(
      error instanceof CaptureError ? `capture failed (${error.reason}): ${error.message}` : error,
    );
    return 1;
  } finally {
    await capturer.close();
  }
}

process.exitCode = await main();
