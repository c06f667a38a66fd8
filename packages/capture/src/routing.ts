/**
 * Wires a capture's BrowserContext to the Fetcher: every request is fulfilled from Node (the SSRF
 * guard), WebSockets are refused (they bypass routing), and every response body is kept so that
 * SingleFile's downloads during serialization are answered from memory with the very bytes the page
 * rendered. The in-flight count drives "network quiet" (page-activity.ts).
 *
 * Redirects never reach Chromium: a request fulfilled with a 3xx is followed by Chromium *without*
 * interception (verified with playwright-core 1.65), which would bypass the guard. So Node follows
 * them (re-checking each hop) and answers with the final response. Where the final URL matters:
 * the main document is resolved before navigation (`resolveEntry`), a frame gets a tiny page that
 * navigates it to the final URL (a new, routed request), and a stylesheet has its relative url()s
 * made absolute against the final URL.
 *
 * A page's content security policy is kept, except Trusted Types enforcement (`withoutTrustedTypes`):
 * SingleFile and the sanitizer, which run in the page, parse strings into documents, which a page that
 * requires Trusted Types forbids to every script of its own — so such a page (many of Google's) could not
 * be captured at all. A page that complies with its own policy never notices it is lifted.
 */
import type { BrowserContext, Page, Route } from "playwright-core";
import { CaptureError } from "./errors.ts";
import type { FetchedResource, Fetcher } from "./fetcher.ts";
import { FETCH_BINDING } from "./single-file-script.ts";

/** A request in flight this long is taken as held open: quiet and load no longer wait for it. */
export const STUCK_MS = 4_000;
const EMPTY_DOCUMENT = "<!doctype html><html><head></head><body></body></html>";

/**
 * Wires a fresh context once, before its first page exists — then each hook is only an init script the
 * page starts with, not a round trip to a running renderer: WebSockets refused, every request answered by
 * the network of the job that takes the tab (`use`), SingleFile's fetch binding likewise. Until a job
 * takes the tab, it routes nothing.
 */
export async function wireContext(context: BrowserContext): Promise<(network: RoutedNetwork) => void> {
  let network: RoutedNetwork | null = null;
  await Promise.all([
    context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: "Not available in a capture" })),
    context.route("**/*", (route) => (network ? network.handle(route) : route.abort("blockedbyclient"))),
    context.exposeBinding(FETCH_BINDING, (_source, url: unknown) =>
      network ? network.answerSingleFile(String(url)) : null,
    ),
  ]);
  return (next) => {
    network = next;
  };
}

export class RoutedNetwork {
  private readonly refused = new Set<string>();
  private readonly responses = new Map<string, FetchedResource>();
  private readonly primed = new Map<string, FetchedResource>();
  /** When each routed request in flight started. */
  private readonly started = new Map<number, number>();
  private nextRequest = 0;
  /** Requests the page still waits for, by URL (a resource the page never got is not shown live). */
  private readonly pending = new Map<string, number>();
  private lastActivity = performance.now();
  private page: Page | undefined;

  constructor(
    private readonly fetcher: Fetcher,
    private readonly maxBytes: number,
  ) {}

  /** Every URL the SSRF guard refused during this job. */
  get blocked(): string[] {
    return [...this.refused];
  }

  watch(page: Page): void {
    this.page = page;
  }

  /**
   * Fetches the page's own URL, following redirects, and keeps the response for the browser's
   * first request to the final URL. Returns the final URL, which the browser then navigates to, so
   * relative URLs in the document resolve as they do live.
   */
  async resolveEntry(url: string, headers: Record<string, string>): Promise<string> {
    const response = await this.fetcher.fetchFollowingRedirects(url, { headers, maxBytes: this.maxBytes });
    this.primed.set(withoutHash(response.url), response);
    return response.url + (new URL(url).hash ?? "");
  }

  /**
   * True when no routed request is in flight — leaving out those in flight for over STUCK_MS, which
   * a page holds open (long polling, a server that never answers) — and none started or ended within
   * `idleMs`.
   */
  isQuiet(idleMs: number): boolean {
    return this.liveRequests() === 0 && performance.now() - this.lastActivity >= idleMs;
  }

  /** Requests in flight for over STUCK_MS (what a capture gave up waiting for). */
  stuckRequests(now = performance.now()): number {
    let stuck = 0;
    for (const since of this.started.values()) if (now - since > STUCK_MS) stuck++;
    return stuck;
  }

  /** Something is in flight, and all of it for over STUCK_MS: waiting longer is waiting for nothing. */
  onlyStuck(): boolean {
    return this.started.size > 0 && this.liveRequests() === 0;
  }

  private liveRequests(): number {
    return this.started.size - this.stuckRequests();
  }

  /** Answers one of the page's requests through the Fetcher (see the header). */
  async handle(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    const key = withoutHash(url);
    const isFrame = request.isNavigationRequest() && request.frame() !== this.page?.mainFrame();
    const requestId = this.nextRequest++;
    this.started.set(requestId, performance.now());
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.lastActivity = performance.now();
    try {
      let response = this.primed.get(key);
      this.primed.delete(key);
      response ??= await this.fetcher.fetchFollowingRedirects(url, {
        method: request.method(),
        // headers(), not allHeaders(): the latter waits for Chromium's extra-info event on every
        // request. Cookies are therefore not forwarded to subresources, which rendering rarely needs.
        headers: request.headers(),
        body: request.postDataBuffer(),
        maxBytes: this.maxBytes,
      });
      let body = response.body;
      if (request.isNavigationRequest()) body = withoutTrustedTypesInMeta(body);
      if (response.url !== key) {
        if (request.isNavigationRequest()) {
          this.primed.set(response.url, response);
          const target = response.url.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
          const redirect = `<!doctype html><meta http-equiv="refresh" content="0;url=${target}">`;
          await route.fulfill({ status: 200, contentType: "text/html", body: redirect });
          return;
        }
        if (request.resourceType() === "stylesheet")
          body = Buffer.from(absolutizeCssUrls(body.toString("utf8"), response.url));
      }
      if (request.method() === "GET" && response.status < 400) this.responses.set(key, { ...response, body });
      await route.fulfill({
        status: response.status,
        headers: withoutTrustedTypesInHeaders(response.headers),
        body,
      });
    } catch (error) {
      const isBlocked = error instanceof CaptureError && error.reason === "blocked-url";
      if (isBlocked) this.refused.add(error.url ?? url);
      // A frame that cannot load stays empty rather than showing Chromium's error page.
      if (isFrame) await route.fulfill({ status: 200, contentType: "text/html", body: EMPTY_DOCUMENT });
      else await route.abort(isBlocked ? "blockedbyclient" : "failed");
    } finally {
      this.started.delete(requestId);
      const left = (this.pending.get(key) ?? 1) - 1;
      if (left > 0) this.pending.set(key, left);
      else this.pending.delete(key);
      this.lastActivity = performance.now();
    }
  }

  /** SingleFile's fetch: the cached response if the page loaded it, else a guarded download. */
  async answerSingleFile(url: string) {
    const key = withoutHash(url);
    let response = this.responses.get(key);
    // Still loading in the page (a request held open forever): the page does not show it, so neither
    // does the snapshot — rather than waiting SingleFile's network timeout for it.
    if (!response && this.pending.has(key)) return null;
    if (!response) {
      try {
        response = await this.fetcher.fetchFollowingRedirects(url, { maxBytes: this.maxBytes });
      } catch (error) {
        if (error instanceof CaptureError && error.reason === "blocked-url")
          this.refused.add(error.url ?? url);
        return null;
      }
      if (response.status < 400) this.responses.set(key, response);
    }
    return {
      url: response.url,
      status: response.status,
      headers: response.headers,
      body: response.body.toString("base64"),
    };
  }
}

function withoutHash(url: string): string {
  const index = url.indexOf("#");
  return index === -1 ? url : url.slice(0, index);
}

/** Rewrites relative url(...) and @import targets of a stylesheet to absolute URLs. */
export function absolutizeCssUrls(css: string, base: string): string {
  const absolute = (reference: string) => {
    if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(reference)) return reference;
    try {
      return new URL(reference, base).href;
    } catch {
      return reference;
    }
  };
  return css
    .replace(/url\(\s*(["']?)([^"')]+)\1\s*\)/gi, (_m, quote: string, ref: string) => {
      return `url(${quote}${absolute(ref.trim())}${quote})`;
    })
    .replace(/@import\s+(["'])([^"']+)\1/gi, (_m, quote: string, ref: string) => {
      return `@import ${quote}${absolute(ref)}${quote}`;
    });
}

/** The CSP directives that make a page require Trusted Types (see the header). */
const TRUSTED_TYPES_DIRECTIVES = new Set(["require-trusted-types-for", "trusted-types"]);

/** A CSP (one or more policies, comma-separated) without its Trusted Types directives. */
export function withoutTrustedTypes(policy: string): string {
  return policy
    .split(",")
    .map((one) =>
      one
        .split(";")
        .filter((directive) => !TRUSTED_TYPES_DIRECTIVES.has(directive.trim().split(/\s+/)[0]!.toLowerCase()))
        .join(";"),
    )
    .filter((one) => one.trim() !== "")
    .join(",");
}

function withoutTrustedTypesInHeaders(headers: Record<string, string>): Record<string, string> {
  const policy = headers["content-security-policy"];
  if (policy === undefined || !/trusted-types/i.test(policy)) return headers;
  const { "content-security-policy": _, ...rest } = headers;
  const kept = withoutTrustedTypes(policy);
  return kept.trim() === "" ? rest : { ...rest, "content-security-policy": kept };
}

const META_POLICY = /<meta\b[^>]*?http-equiv\s*=\s*(["']?)content-security-policy\1[^>]*>/gi;
const CONTENT_ATTRIBUTE = /(\scontent\s*=\s*)(["'])(.*?)\2/is;

/**
 * A document whose `<meta http-equiv="Content-Security-Policy">` requires Trusted Types, without that
 * requirement. Read as latin1, so that the bytes of any encoding come back unchanged.
 */
export function withoutTrustedTypesInMeta(document: Buffer): Buffer {
  const text = document.toString("latin1");
  if (!/trusted-types/i.test(text)) return document;
  const rewritten = text.replace(META_POLICY, (tag) =>
    tag.replace(
      CONTENT_ATTRIBUTE,
      (_all, start: string, quote: string, policy: string) =>
        `${start}${quote}${withoutTrustedTypes(policy)}${quote}`,
    ),
  );
  return rewritten === text ? document : Buffer.from(rewritten, "latin1");
}
