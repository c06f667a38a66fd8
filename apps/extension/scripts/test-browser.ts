/**
 * The extension as the end-to-end tests and the bench run it (e2e/extension.e2e.test.ts,
 * bench/extension): built for a given Redline, with more hosts it may read without a click (their fixture
 * sites; the shipped build reads a page when the person asks — activeTab), loaded unpacked in Debian's
 * Chromium in a persistent context. `close()` closes the browser and removes the build and the profile.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Worker } from "playwright-core";

const extensionRoot = path.resolve(import.meta.dirname, "..");

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's service worker (its `chrome.*` APIs, for the test to ask). */
  worker: Worker;
  close(): Promise<void>;
}

export async function launchWithExtension(
  redlineUrl: string,
  extraHosts: string[],
): Promise<ExtensionBrowser> {
  const built = await mkdtemp(path.join(os.tmpdir(), "redline-extension-"));
  const profile = await mkdtemp(path.join(os.tmpdir(), "redline-profile-"));
  const removeDirs = () =>
    Promise.all([built, profile].map((dir) => rm(dir, { recursive: true, force: true }))).then(() => {});
  try {
    execFileSync("npm", ["run", "prepare-assets"], { cwd: extensionRoot, stdio: "ignore" });
    execFileSync("npx", ["wxt", "build"], {
      cwd: extensionRoot,
      stdio: "ignore",
      env: {
        ...process.env,
        WXT_REDLINE_URL: redlineUrl,
        WXT_OUT_DIR: built,
        WXT_EXTRA_HOST_PERMISSIONS: extraHosts.join(","),
      },
    });
    const unpacked = path.join(built, "chrome-mv3");
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        `--disable-extensions-except=${unpacked}`,
        `--load-extension=${unpacked}`,
        "--disable-features=DisableLoadExtensionCommandLineSwitch",
        // A test may click the toolbar button through the DevTools protocol (Extensions.triggerAction).
        "--enable-unsafe-extension-debugging",
      ],
    });
    const worker =
      context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 30_000 }));
    return {
      context,
      worker,
      async close() {
        await context.close().catch(() => {});
        await removeDirs();
      },
    };
  } catch (error) {
    await removeDirs();
    throw error;
  }
}
