/**
 * URL → self-contained snapshot, one warm Chromium and a fresh BrowserContext per job.
 *
 * Why SingleFile (single-file-core, AGPL like us) does the serializing: it is the fidelity
 * reference for exactly this job and already handles the long tail a home-grown serializer would
 * take months to reach — CSSOM-inserted rules and adoptedStyleSheets, open (and, with our hook,
 * closed) shadow roots as declarative shadow DOM, frames of any origin via postMessage, canvases,
 * currentSrc of picture/srcset, @font-face incl. FontFace() objects, @import, form values, CSS
 * variables, invalid nesting. We keep what it is weak at for a review tool on our side: the network
 * (every byte through the SSRF-guarded Fetcher), lazy-content sweeping, sanitizing in a world of
 * our own (sanitize.ts), and content-addressed assets instead of one huge HTML with data: URIs (assets.ts).
 *
 * Stages (timings in ms): tab (a fresh context and page; opened ahead, between jobs), load (goto
 * until the load event, at most LOAD_BUDGET_MS: a page still loading is captured, marked partial), settle (network quiet, rendering quiet and no timer due soon, capped:
 * page-activity.ts), sweep (scroll for lazy content when the page could react), fonts
 * (document.fonts.ready), freeze (animations at their end state, adopted sheets' media kept:
 * page-steps.ts), serialize (SingleFile in the page), then side by side screenshot (full
 * page, live) and sanitize (an isolated world + content-addressed assets); total.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { assertPublicUrl, parseHttpUrl, type Resolver } from "./addresses.ts";
import { type AssetUrl, type CapturedAsset, defaultAssetUrl, extractAssets } from "./assets.ts";
import { CaptureError } from "./errors.ts";
import { Fetcher, loadUndici } from "./fetcher.ts";
import { activityHook, type BusyReason, reactsToScroll, type Settled, settle } from "./page-activity.ts";
import {
  fontsReady,
  freezeForSnapshot,
  pageFacts,
  screenshotFullPage,
  serializeWithSingleFile,
  sweep,
} from "./page-steps.ts";
import { RoutedNetwork, wireContext } from "./routing.ts";
import { sanitizeInIsolatedWorld } from "./sanitize.ts";
import { singleFileInitScript } from "./single-file-script.ts";

export interface CaptureOptions {
  url: string;
  /** Viewport width in CSS px; default 1280. */
  width?: number;
  /** Cap for the whole job in ms; default 45000. */
  timeoutMs?: number;
  /** False for anything a user typed: refuses private, loopback, link-local and metadata addresses. */
  allowPrivateUrls: boolean;
  /** Cap for html + assets in bytes; default 50 MB. */
  maxBytes?: number;
}

export interface CaptureResult {
  url: string;
  finalUrl: string;
  title: string;
  /** Width used, and the full document height. */
  viewport: { width: number; height: number };
  /** Self-contained snapshot; asset references are written through `assetUrl`. */
  html: string;
  /** Content-addressed by SHA-256, deduplicated. */
  assets: CapturedAsset[];
  /** Full-page PNG of the live page at that width. */
  screenshot: Buffer;
  /**
   * ms per stage: tab, load, settle, sweep, fonts, serialize, screenshot ∥ sanitize, total; and
   * tabOpen, what opening the tab took (ahead of the job, when `tab` is about 0).
   */
  timings: Record<string, number>;
  bytes: { html: number; assets: number };
  /** Requests refused by the SSRF guard (their content is missing from the snapshot). */
  blocked: string[];
  /**
   * Whether the page was quiet when it was captured. A page still busy when its budget ran out is
   * captured as it was then; `busy` says with what: "load" (its load event had not fired), "network"
   * (requests in flight), "timers" (timers kept firing), "rendering" (each frame started new loads).
   */
  settled: CaptureSettled;
}

export interface CaptureSettled {
  complete: boolean;
  busy: (BusyReason | "load")[];
}

export interface LaunchOptions {
  chromiumPath?: string;
  /**
   * Open the next job's tab after each job (default); a one-shot run (the CLI) has no next job, and
   * does not wait for its tab at launch (its job fetches the document meanwhile).
   */
  keepWarm?: boolean;
  /**
   * How the live screenshot's PNG is encoded: "compact" (default: what a server stores) or "fast" —
   * Chromium's encoder set for speed: the same pixels in about twice the bytes, encoded in about half
   * the time (0.15 s against 0.3 s for a 1,200 px page here). The CLI, which writes the file next to the
   * snapshot on the developer's disk, uses "fast".
   */
  screenshotEncoding?: "compact" | "fast";
  /** Test hooks for the SSRF guard: fake DNS and a different notion of "private". */
  network?: { resolve?: Resolver; isBlocked?: (ip: string) => boolean };
}

/** The flags every Chromium of ours runs with (no outside network, no background traffic). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Defence in depth for the capture browser: every legitimate byte is fetched by Node, so Chromium's
 * own resolver answers "not found" for every host, IP literals included (checked). Anything that
 * escapes interception — a redirect Chromium follows by itself, a preconnect, WebRTC — goes nowhere.
 */
const CAPTURE_ARGS = [
  ...CHROMIUM_ARGS,
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

const DOCUMENT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

export function chromiumPath(explicit?: string): string {
  return explicit ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

const DEFAULT_WIDTH = 1280;
const VIEWPORT_HEIGHT = 800;
/**
 * After load: network quiet for 40 ms, two more rendered frames that start nothing, and no timer due
 * within a second (page-activity.ts).
 */
const SETTLE = { idleMs: 40, timersCapMs: 1_500, capMs: 5_000 };
/**
 * The sweep's cap: a 17,000-px article (the long one of the capture tests at 375 px) takes about 1 s
 * on an idle machine, 3–4 s on a loaded one; a page longer than the cap allows is captured partial.
 */
const SWEEP_CAP_MS = 8_000;
/** How long a page's load event is waited for; a page still loading then is captured as it is. */
const LOAD_BUDGET_MS = 10_000;
const MB = 1024 * 1024;
const DEFAULT_MAX_BYTES = 50 * MB;

/** The browser's default user agent (what a context without an override sends). */
async function browserUserAgent(browser: Browser): Promise<string> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { userAgent } = await session.send("Browser.getVersion");
    return userAgent;
  } finally {
    session.detach().catch(() => {});
  }
}

/** Runs `task`, recording its duration in ms under `name`. */
async function timed<T>(timings: Record<string, number>, name: string, task: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await task();
  } finally {
    timings[name] = Math.round(performance.now() - start);
  }
}

/** A fresh context with one blank page, used by exactly one job and then closed. */
interface Tab {
  context: BrowserContext;
  page: Page;
  /** How long opening it took (ahead of the job, or within it when none was ready). */
  openMs: number;
  /** Routes the tab's requests and SingleFile's downloads to the job's network. */
  use(network: RoutedNetwork): void;
}

export class Capturer {
  /** The next job's tab, opened while the capturer is idle (see `capture`). */
  private spare: Promise<Tab> | null = null;
  private closed = false;

  private constructor(
    /** The warm browser, for callers that render snapshots (thumbnails, fidelity checks). */
    readonly browser: Browser,
    private readonly userAgent: string,
    private readonly options: LaunchOptions,
  ) {}

  static async launch(options: LaunchOptions = {}): Promise<Capturer> {
    const [browser] = await Promise.all([
      chromium.launch({ executablePath: chromiumPath(options.chromiumPath), args: CAPTURE_ARGS }),
      singleFileInitScript(),
    ]);
    // The first job's tab opens meanwhile (each is a renderer process starting). The user agent the
    // capture contexts will send comes from the browser process, without waiting for a renderer.
    const firstTab = Capturer.openTabIn(browser, DEFAULT_WIDTH);
    firstTab.catch(() => {});
    // Node's HTTP client loads while Chromium opens that tab (its requests are on their way by then).
    setImmediate(() => void loadUndici().catch(() => {}));
    const capturer = new Capturer(browser, await browserUserAgent(browser), options);
    capturer.spare = firstTab;
    // A one-shot run (the CLI) does not wait for its tab here: its job fetches the document meanwhile.
    if (options.keepWarm !== false) await capturer.idle();
    return capturer;
  }

  /** Resolves once the next job's tab is ready (a benchmark waits for it before timing anything else). */
  async idle(): Promise<void> {
    await this.spare?.catch(() => {});
  }

  private openTab(width: number): Promise<Tab> {
    return Capturer.openTabIn(this.browser, width);
  }

  private static async openTabIn(browser: Browser, width: number): Promise<Tab> {
    const started = performance.now();
    const context = await browser.newContext({
      viewport: { width, height: VIEWPORT_HEIGHT },
      deviceScaleFactor: 1,
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    try {
      // Wired before its page exists (routing.ts), with the init scripts every job's page runs first.
      const [use] = await Promise.all([
        wireContext(context),
        context.addInitScript(activityHook),
        singleFileInitScript().then((script) => context.addInitScript(script)),
      ]);
      const page = await context.newPage();
      return { context, page, use, openMs: Math.round(performance.now() - started) };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Opening a context and its first page (a new renderer process) costs about as much as loading a
   * page, so the tab for the next job is opened after each job, while the capturer waits for work.
   * It is still one fresh context per job: nothing ever ran in it. Its routing, bindings and init scripts
   * are in place before its page exists, and route nothing until the job takes it (`Tab.use`).
   */
  private prepareSpare(): void {
    if (this.spare || this.closed || this.options.keepWarm === false) return;
    const spare = this.openTab(DEFAULT_WIDTH);
    this.spare = spare;
    spare.catch(() => {
      if (this.spare === spare) this.spare = null; // the next job opens its own
    });
  }

  private async takeTab(width: number): Promise<Tab> {
    const spare = this.spare;
    this.spare = null;
    const tab = await spare?.catch(() => null);
    if (!tab) return this.openTab(width);
    if (width !== DEFAULT_WIDTH) await tab.page.setViewportSize({ width, height: VIEWPORT_HEIGHT });
    return tab;
  }

  async capture(options: CaptureOptions & { assetUrl?: AssetUrl }): Promise<CaptureResult> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? 45_000;
    const network = this.options.network ?? {};
    const fetcher = new Fetcher({ allowPrivate: options.allowPrivateUrls, ...network });
    let context: BrowserContext | undefined;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new CaptureError("timeout", `Capture did not finish within ${timeoutMs} ms`));
        context?.close().catch(() => {});
        fetcher.close().catch(() => {});
      }, timeoutMs);
    });
    const job = (async () => {
      if (options.allowPrivateUrls) parseHttpUrl(options.url);
      else await assertPublicUrl(options.url, network);
      // The document is fetched while the tab is taken (or, for a one-shot run, still opening).
      const routed = new RoutedNetwork(fetcher, options.maxBytes ?? DEFAULT_MAX_BYTES);
      const entry = routed.resolveEntry(options.url, {
        accept: DOCUMENT_ACCEPT,
        "user-agent": this.userAgent,
      });
      entry.catch(() => {}); // reported by `run`, unless taking the tab failed first
      const tab = await this.takeTab(options.width ?? DEFAULT_WIDTH);
      context = tab.context;
      if (timedOut) {
        await tab.context.close(); // the deadline passed while the tab was being opened
        throw new CaptureError("timeout", "Capture timed out");
      }
      return this.run(tab, routed, entry, options, started);
    })();
    job.catch(() => {}); // after a timeout the job fails too; only the deadline's error is reported
    try {
      return await Promise.race([job, deadline]);
    } catch (error) {
      if (error instanceof CaptureError) throw error;
      throw new CaptureError("load-failed", `Capture of ${options.url} failed`, { cause: error });
    } finally {
      clearTimeout(timer);
      const closing = (context as BrowserContext | undefined)?.close().catch(() => {});
      // A one-shot run closes the whole browser next, which closes the context too: not waited for.
      if (this.options.keepWarm !== false) await closing;
      await fetcher.close().catch(() => {});
      this.prepareSpare();
    }
  }

  private async run(
    tab: Tab,
    network: RoutedNetwork,
    entryFetched: Promise<string>,
    options: CaptureOptions & { assetUrl?: AssetUrl },
    started: number,
  ): Promise<CaptureResult> {
    const { context, page } = tab;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const width = options.width ?? DEFAULT_WIDTH;
    const timings: Record<string, number> = {};
    let mark = started;
    const stage = (name: string) => {
      const now = performance.now();
      timings[name] = Math.round(now - mark);
      mark = now;
    };

    stage("tab");
    timings.tabOpen = tab.openMs;
    tab.use(network);
    network.watch(page);
    context.on("page", (popup) => void popup.close().catch(() => {}));
    let entry: string;
    try {
      entry = await entryFetched;
    } catch (error) {
      if (error instanceof CaptureError) throw error;
      throw new CaptureError("load-failed", `Could not load ${options.url}`, { cause: error });
    }
    // The page itself must answer (its document is already fetched: resolveEntry); everything after
    // that runs on a budget and a busy page is captured as it is when the budget runs out.
    try {
      await page.goto(entry, { waitUntil: "commit", timeout: 30_000 });
    } catch (error) {
      throw new CaptureError("load-failed", `Could not load ${options.url}`, { cause: error });
    }
    const busy = new Set<BusyReason | "load">();
    // The load event, within the budget — or sooner, once all the page still waits for are requests
    // held open (a long poll, a server that never answers): they would hold it to the end.
    let loadWaitOver = false;
    const loaded = await Promise.race([
      page
        .waitForLoadState("load", { timeout: LOAD_BUDGET_MS })
        .then(() => true)
        .catch(() => false),
      (async () => {
        while (!loadWaitOver) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (network.onlyStuck()) return false;
        }
        return true;
      })(),
    ]);
    loadWaitOver = true;
    if (!loaded) busy.add("load");
    stage("load");
    const noteBusy = (settled: Settled) => {
      for (const reason of settled.busy) busy.add(reason);
    };
    noteBusy(await settle(page, network, SETTLE));
    stage("settle");
    const swept = await sweep(page, { scroll: await reactsToScroll(page), capMs: SWEEP_CAP_MS });
    if (!swept.reachedEnd) busy.add("rendering");
    if (swept.acted) noteBusy(await settle(page, network, { ...SETTLE, capMs: 3_000 })); // what the sweep made load
    stage("sweep");
    await fontsReady(page, 3_000);
    stage("fonts");
    await freezeForSnapshot(page, 2_000);
    stage("freeze");
    const facts = await pageFacts(page);
    let raw: string;
    try {
      raw = await serializeWithSingleFile(page, Math.ceil(maxBytes / MB));
    } catch (error) {
      throw new CaptureError("serialize-failed", `Could not serialize ${options.url}`, { cause: error });
    }
    stage("serialize");
    // SingleFile leaves the live page as it found it, so the screenshot and sanitizing (in a world of
    // its own: sanitize.ts) run side by side. (Screenshotting while SingleFile works, once it has read
    // the live page, was slower: both need the page's renderer.)
    const [screenshot, { html, assets }] = await Promise.all([
      timed(timings, "screenshot", () =>
        screenshotFullPage(context, page, { fast: this.options.screenshotEncoding === "fast" }),
      ),
      timed(timings, "sanitize", async () =>
        extractAssets(await sanitizeInIsolatedWorld(context, page, raw), options.assetUrl ?? defaultAssetUrl),
      ),
    ]);

    const bytes = {
      html: Buffer.byteLength(html),
      assets: assets.reduce((sum, asset) => sum + asset.bytes.length, 0),
    };
    if (bytes.html + bytes.assets > maxBytes)
      throw new CaptureError("too-large", `Snapshot is ${bytes.html + bytes.assets} bytes (cap ${maxBytes})`);
    timings.total = Math.round(performance.now() - started);
    return {
      url: options.url,
      finalUrl: page.url(),
      title: facts.title,
      viewport: { width, height: facts.height },
      html,
      assets,
      screenshot,
      timings,
      bytes,
      blocked: network.blocked,
      settled: (() => {
        if (network.stuckRequests() > 0) busy.add("network");
        return { complete: busy.size === 0, busy: [...busy] };
      })(),
    };
  }

  /**
   * Sanitizes a document serialized elsewhere (the browser extension serializes the page in the user's
   * own tab with the same SingleFile bundle): the same sanitizer, in an isolated world of a blank page of
   * a fresh context where nothing may load or run, then the same content-addressed assets as a capture.
   */
  async sanitizeUpload(
    raw: string,
    options: { assetUrl?: AssetUrl; maxBytes?: number } = {},
  ): Promise<{ html: string; assets: CapturedAsset[] }> {
    const context = await this.browser.newContext({ javaScriptEnabled: false, serviceWorkers: "block" });
    try {
      await context.route("**/*", (route) => route.abort());
      const page = await context.newPage();
      const result = extractAssets(
        await sanitizeInIsolatedWorld(context, page, raw),
        options.assetUrl ?? defaultAssetUrl,
      );
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
      const bytes =
        Buffer.byteLength(result.html) + result.assets.reduce((sum, asset) => sum + asset.bytes.length, 0);
      if (bytes > maxBytes)
        throw new CaptureError("too-large", `Snapshot is ${bytes} bytes (cap ${maxBytes})`);
      return result;
    } finally {
      await context.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.browser.close();
  }
}
