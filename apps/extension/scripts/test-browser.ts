/**
 * The extension as the end-to-end tests and the bench run it (e2e/extension*.e2e.test.ts, bench/extension):
 * built for a given Redline, with more hosts it may read without a click (their fixture sites; the shipped
 * build reads a page when the person asks — activeTab), loaded unpacked in Debian's Chromium in a persistent
 * context (Playwright), or installed in Debian's Firefox ESR (Puppeteer over WebDriver BiDi). `close()` closes
 * the browser and removes the build and the profile.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Worker } from "playwright-core";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

const extensionRoot = path.resolve(import.meta.dirname, "..");

/** The Firefox build's id (wxt.config.ts `browser_specific_settings`). */
export const GECKO_ID = "extension@redline.app";

/** A build of the extension for `browser` in a temporary directory, and a profile directory beside it. */
async function build(browser: "chrome" | "firefox", redlineUrl: string, extraHosts: string[]) {
  const built = await mkdtemp(path.join(os.tmpdir(), "redline-extension-"));
  const profile = await mkdtemp(path.join(os.tmpdir(), "redline-profile-"));
  const removeDirs = () =>
    Promise.all([built, profile].map((dir) => rm(dir, { recursive: true, force: true }))).then(() => {});
  try {
    execFileSync("npm", ["run", "prepare-assets"], { cwd: extensionRoot, stdio: "ignore" });
    execFileSync("npx", ["wxt", "build", "-b", browser], {
      cwd: extensionRoot,
      stdio: "ignore",
      env: {
        ...process.env,
        WXT_REDLINE_URL: redlineUrl,
        WXT_OUT_DIR: built,
        WXT_EXTRA_HOST_PERMISSIONS: extraHosts.join(","),
      },
    });
  } catch (error) {
    await removeDirs();
    throw error;
  }
  return { unpacked: path.join(built, `${browser}-mv3`), profile, removeDirs };
}

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
  const { unpacked, profile, removeDirs } = await build("chrome", redlineUrl, extraHosts);
  try {
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

export interface FirefoxWithExtension {
  browser: Browser;
  /** The extension's origin in this Firefox, `moz-extension://<uuid>`: a new random id each launch. */
  origin: string;
  /**
   * The person presses the extension's shortcut (Alt+Shift+R) on the tab showing `url`: Firefox grants the
   * extension that tab (activeTab), as a click on its button does, and the popup opens for it in a window
   * of its own. Answers the popup.
   */
  pressShortcut(url: string): Promise<Page>;
  close(): Promise<void>;
}

/** WebDriver BiDi as Puppeteer speaks it, for what Puppeteer has no call for (Firefox's own windows). */
interface BidiConnection {
  send(method: string, params: object): Promise<{ result: Record<string, unknown> }>;
}

/**
 * Debian's Firefox ESR (`FIREFOX_PATH`) with the Firefox build installed as a temporary add-on, as
 * `about:debugging` → Load Temporary Add-on does. Firefox gives each installation a random origin; the
 * test picks it (`extensions.webextensions.uuids`) to tell the extension's pages. The browser's own
 * windows (its shortcuts) and the extension's pages are reached by WebDriver BiDi only with
 * `--remote-allow-system-access`.
 */
export async function launchFirefoxWithExtension(
  redlineUrl: string,
  extraHosts: string[],
): Promise<FirefoxWithExtension> {
  const { unpacked, profile, removeDirs } = await build("firefox", redlineUrl, extraHosts);
  const uuid = randomUUID();
  const origin = `moz-extension://${uuid}`;
  try {
    const browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr",
      headless: true,
      userDataDir: profile,
      defaultViewport: { width: 1280, height: 800 },
      args: ["--remote-allow-system-access"],
      extraPrefsFirefox: { "extensions.webextensions.uuids": JSON.stringify({ [GECKO_ID]: uuid }) },
    });
    try {
      const id = await browser.installExtension(unpacked);
      if (id !== GECKO_ID) throw new Error(`Firefox installed the extension as ${id}`);
    } catch (error) {
      await browser.close();
      throw error;
    }
    const connection = (browser as unknown as { connection: BidiConnection }).connection;
    return {
      browser,
      origin,
      async pressShortcut(url) {
        const before = new Set(await browser.pages());
        const { result } = await connection.send("browsingContext.getTree", { "moz:scope": "chrome" });
        let pressed = false;
        for (const { context } of result.contexts as { context: string }[]) {
          const { result: answer } = await connection.send("script.evaluate", {
            expression: pressShortcutIn(url),
            target: { context },
            awaitPromise: false,
          });
          if ((answer as { result?: { value?: unknown } }).result?.value === true) pressed = true;
          if (pressed) break;
        }
        if (!pressed) throw new Error(`No Firefox window shows ${url}`);
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline) {
          for (const page of await browser.pages()) {
            if (before.has(page)) continue;
            const at = await page.evaluate(() => location.href).catch(() => "");
            if (at.startsWith(`${origin}/popup.html`)) return page;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error("The extension's popup did not open");
      },
      async close() {
        await browser.close().catch(() => {});
        await removeDirs();
      },
    };
  } catch (error) {
    await removeDirs();
    throw error;
  }
}

/**
 * In a Firefox window (its chrome document): when its selected tab shows `url`, runs the command of the
 * extension's key for Alt+Shift+R — what Firefox runs on that key press — and answers true.
 */
function pressShortcutIn(url: string): string {
  const keyset = `ext-keyset-id-${GECKO_ID.toLowerCase().replace(/[^a-z0-9_-]/g, "_")}`;
  return `(() => {
    if (!gBrowser.selectedBrowser.currentURI.spec.startsWith(${JSON.stringify(url)})) return false;
    const key = [...document.querySelectorAll('keyset[id="${keyset}"] key[key="R"]')].find(
      (element) => element.getAttribute("modifiers").split(/[ ,]+/).sort().join() === "alt,shift");
    if (!key) throw new Error("The extension's shortcut is not set in this window");
    key.doCommand();
    return true;
  })()`;
}
