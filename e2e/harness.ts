/**
 * End-to-end harness: the real app (own database, real SMTP inbox) plus Debian's Chromium driven by
 * playwright-core. One app per test file; pages are fresh contexts so tests do not share cookies. The
 * browser is the test worker's: files that run one after another in a worker share it (their contexts
 * are their own and closed with the file), as launching Chromium for each file cost a CPU-second.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { startTestApp, type TestApp, type TestAppOptions } from "../apps/server/src/testing/test-app.ts";

export interface E2E {
  app: TestApp;
  baseUrl: string;
  browser: Browser;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless; `extraArgs` for a journey that needs more (e.g. fake media devices). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

let workerBrowser: Promise<Browser> | undefined;

/** The worker's browser, launched again if it went away; Playwright ends it when the worker exits. */
async function sharedBrowser(): Promise<Browser> {
  const current = await workerBrowser?.catch(() => undefined);
  if (current?.isConnected()) return current;
  workerBrowser = launchBrowser();
  return workerBrowser;
}

export async function startE2E(options: TestAppOptions = {}): Promise<E2E> {
  const [app, browser] = await Promise.all([startTestApp(options), sharedBrowser()]);
  const contexts: BrowserContext[] = [];
  return {
    app,
    baseUrl: app.url,
    browser,
    async newPage() {
      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      await Promise.all(contexts.map((context) => context.close().catch(() => {})));
      await app.close();
    },
  };
}

let counter = 0;
/** A unique e-mail address per call, so tests never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}
