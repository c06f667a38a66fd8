/**
 * @redline/capture — URL → self-contained snapshot of a web page.
 *
 *   const capturer = await Capturer.launch();            // one warm Chromium per process
 *   const result = await capturer.capture({
 *     url, width: 1280, timeoutMs: 45_000, allowPrivateUrls: false,
 *     assetUrl: ({ sha256, ext }) => `/a/${sha256}.${ext}`, // default: assets/<sha256>.<ext>
 *   });
 *   // result.html: the snapshot, no scripts, every resource through assetUrl
 *   // result.assets: [{ sha256, contentType, ext, bytes }], stored once each
 *   // result.screenshot: full-page PNG of the live page; result.timings / bytes / viewport
 *   await capturer.close();
 *
 * Errors are CaptureError with `reason`: blocked-url | timeout | load-failed | too-large |
 * serialize-failed. Each job gets a fresh BrowserContext, closed afterwards even on failure.
 *
 * Serving a snapshot: put it on its own origin with `Content-Security-Policy: script-src 'none'`
 * (defence in depth: the snapshot has no scripts), serve assets with their `contentType` and
 * `Access-Control-Allow-Origin: *` (fonts are CORS requests), cache them immutable by hash.
 */
export { assertPublicUrl, isPrivateAddress, type Resolver } from "./addresses.ts";
export { type AssetUrl, type CapturedAsset, defaultAssetUrl } from "./assets.ts";
export {
  type CaptureOptions,
  type CaptureResult,
  Capturer,
  type CaptureSettled,
  CHROMIUM_ARGS,
  chromiumPath,
  type LaunchOptions,
} from "./capturer.ts";
export { CaptureError, type CaptureErrorReason } from "./errors.ts";
export { type FetchedResource, Fetcher } from "./fetcher.ts";
export { writeSnapshotDir } from "./snapshot-dir.ts";
