/**
 * Developer CLI running the same pipeline as the server's capture job:
 *
 *   node packages/capture/dist/cli.js <url> --out <dir> [--width 1280] [--allow-private | --no-private]
 *
 * Writes <dir>/index.html (opens offline; assets in <dir>/assets/), <dir>/live.png and
 * <dir>/capture.json. Private URLs are allowed outside production (it is a local tool) unless
 * --no-private; with NODE_ENV=production they are refused unless --allow-private (cli-options.ts).
 */
import { assertPublicUrl } from "./addresses.ts";
import { parseCaptureCliArgs, USAGE } from "./cli-options.ts";
import { CaptureError } from "./errors.ts";
import { Capturer, writeSnapshotDir } from "./index.ts";

async function main(): Promise<number> {
  const options = parseCaptureCliArgs(process.argv.slice(2), process.env);
  if ("exitCode" in options) {
    console.error(USAGE);
    return options.exitCode;
  }
  const { url, width, out } = options;
  try {
    // Refused before a browser starts; the capture checks again at connect time (DNS rebinding).
    if (!options.allowPrivateUrls) await assertPublicUrl(url);
  } catch (error) {
    console.error(
      error instanceof CaptureError ? `capture failed (${error.reason}): ${error.message}` : error,
    );
    return 1;
  }
  // live.png goes to the local disk: encoded for speed rather than size (the same pixels).
  const capturer = await Capturer.launch({ keepWarm: false, screenshotEncoding: "fast" });
  try {
    const result = await capturer.capture({
      url,
      width,
      timeoutMs: options.timeoutMs,
      allowPrivateUrls: options.allowPrivateUrls,
    });
    // The browser is done with: it shuts down while the snapshot is written.
    await Promise.all([writeSnapshotDir(result, out), capturer.close()]);
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
    console.log(`  → ${out}/index.html`);
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
