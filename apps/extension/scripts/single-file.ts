/**
 * Writes public/single-file.js before each build: SingleFile as the server's capture core bundles it
 * (packages/capture `buildSingleFileBundle`), with the same serialization options, for the extension to
 * inject into the user's tab. One definition: what the extension serializes is what a capture would.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildSingleFileBundle, SINGLE_FILE_OPTIONS } from "@redline/capture/single-file";

const out = path.join(import.meta.dirname, "../public/single-file.js");
await mkdir(path.dirname(out), { recursive: true });
const bundle = await buildSingleFileBundle();
// SingleFile takes the content script's `browser` as it loads, when there is one (Firefox; Chromium's
// content scripts have `chrome` only), for the messages of the SingleFile extension: its frame tree then
// sends the top frame's answer through that extension's background, which this one does not have, and
// the capture waits forever. Without it, SingleFile works as in Chromium and in the server's captures
// (frames answer through the page's own messages); the content script's `browser` is put back after.
await writeFile(
  out,
  `(() => {
const contentScriptBrowser = globalThis.browser;
globalThis.browser = undefined;
try {
${bundle}
} finally {
  globalThis.browser = contentScriptBrowser;
}
})();
globalThis.__redlineSingleFileOptions = ${JSON.stringify(SINGLE_FILE_OPTIONS)};
`,
);
