/**
 * Browser harness for the overlay: an "app" server and a "content" server on two loopback ports (two
 * origins), Debian's Chromium through playwright-core, and a parent page that embeds a snapshot in
 * `<iframe sandbox="allow-scripts">` exactly as the app does, with the content server's CSP. The
 * parent page records every message the frame posts and can send messages itself or through a
 * sibling frame of the app origin (a wrong source).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Frame, type Page } from "playwright-core";
import { overlayBundle } from "./bundle.ts";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The page's own script (tests only): counts its clicks and CSP violations, lists the globals before ours. */
/** Written out, not imported: the tests pin the wire format. */
const PROTOCOL = "redline/1";

const PAGE_SCRIPT = `window.pageClicks = 0;
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.effectiveDirective + " " + event.blockedURI);
});
window.globalsBefore = Object.getOwnPropertyNames(window);
document.addEventListener("click", () => { window.pageClicks++; });`;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Message {
  protocol: string;
  type: string;
  payload: any;
}

export interface View {
  page: Page;
  /** The snapshot frame. */
  frame: Frame;
  /** Posts a well-formed message from the parent window. */
  send(type: string, payload: unknown): Promise<void>;
  /** Posts any data from the parent window. */
  sendRaw(data: unknown): Promise<void>;
  /** Posts any data from a sibling frame of the app origin. */
  sendFromSibling(data: unknown): Promise<void>;
  /** Number of messages received so far (pass to `waitFor` to only see later ones). */
  mark(): Promise<number>;
  waitFor(type: string, since?: number): Promise<Message>;
  messages(type?: string): Promise<Message[]>;
  /** An element's box in the frame's client coordinates. */
  rect(selector: string): Promise<Rect>;
  /** A frame point in the top page's coordinates (for the mouse). */
  toPage(point: { x: number; y: number }): Promise<{ x: number; y: number }>;
  /** Waits for two animation frames inside the snapshot, so rAF-throttled work has run. */
  settle(): Promise<void>;
}

export interface Harness {
  appOrigin: string;
  contentOrigin: string;
  browser: Browser;
  /** Opens `snapshot` (name of a page given to startHarness) in a parent page at width × height. */
  open(
    snapshot: string,
    options?: { width?: number; height?: number; appOriginAttribute?: string },
  ): Promise<View>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * `snapshots` by name; `scripts` adds a snapshot's own script (a hostile page acting as one would) to the
 * test-only page script, which runs before the overlay.
 */
export async function startHarness(
  snapshots: Record<string, string>,
  scripts: Record<string, string> = {},
): Promise<Harness> {
  const bundle = overlayBundle();
  let appOrigin = "";
  let contentOrigin = "";

  const content = createServer((request, response) => {
    const url = new URL(request.url ?? "/", contentOrigin);
    if (url.pathname === "/overlay.js" || url.pathname === "/page.js") {
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      const own = scripts[url.searchParams.get("snapshot") ?? ""] ?? "";
      response.end(url.pathname === "/overlay.js" ? bundle : `${PAGE_SCRIPT}\n${own}`);
      return;
    }
    const name = url.pathname.replace(/^\/v\//, "").replace(/\.html$/, "");
    const html = snapshots[name];
    if (!html) {
      response.writeHead(404).end("Not found");
      return;
    }
    const attribute = (url.searchParams.get("app") ?? appOrigin).replace(/"/g, "&quot;");
    const tags = `<script src="/page.js?snapshot=${encodeURIComponent(name)}"></script><script src="/overlay.js" data-app-origin="${attribute}" defer></script>`;
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      // As the real content server sends it, plus the test-only page script.
      "content-security-policy": [
        "sandbox allow-scripts",
        "default-src 'none'",
        "img-src 'self' data: blob:",
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self' data:",
        `script-src ${contentOrigin}/overlay.js ${contentOrigin}/page.js`,
        "connect-src 'none'",
        "form-action 'none'",
        "base-uri 'none'",
        `frame-ancestors ${appOrigin}`,
      ].join("; "),
    });
    response.end(html.replace("</body>", `${tags}</body>`));
  });

  const app = createServer((request, response) => {
    const url = new URL(request.url ?? "/", appOrigin);
    if (url.pathname !== "/parent.html") {
      response.writeHead(404).end("Not found");
      return;
    }
    const src = new URL(`/v/${url.searchParams.get("snapshot")}.html`, contentOrigin);
    const attribute = url.searchParams.get("app");
    if (attribute) src.searchParams.set("app", attribute);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html><head><meta charset="utf-8">
<style>body { margin: 0; } iframe { display: block; border: 0; }</style></head><body>
<iframe id="snapshot" sandbox="allow-scripts" src="${src.href}"
  style="width: ${url.searchParams.get("width")}px; height: ${url.searchParams.get("height")}px"></iframe>
<iframe id="sibling" style="width: 10px; height: 10px"
  srcdoc="<script>window.relay = (target, data) => target.postMessage(data, '*');</script>"></iframe>
<script>
  const frame = document.getElementById("snapshot");
  window.received = [];
  window.receivedAt = [];
  addEventListener("message", (event) => {
    if (event.source === frame.contentWindow) {
      window.received.push(event.data);
      window.receivedAt.push(performance.now());
    }
  });
  window.sendRaw = (data) => frame.contentWindow.postMessage(data, "*");
  window.send = (type, payload) => window.sendRaw({ protocol: ${JSON.stringify(PROTOCOL)}, type, payload });
  window.sendFromSibling = (data) =>
    document.getElementById("sibling").contentWindow.relay(frame.contentWindow, data);
</script></body></html>`);
  });

  [appOrigin, contentOrigin] = await Promise.all([listen(app), listen(content)]);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });

  return {
    appOrigin,
    contentOrigin,
    browser,
    async open(snapshot, { width = 1024, height = 700, appOriginAttribute } = {}) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      const query = new URLSearchParams({ snapshot, width: String(width), height: String(height) });
      if (appOriginAttribute) query.set("app", appOriginAttribute);
      await page.goto(`${appOrigin}/parent.html?${query}`);
      const frame = await (await page.waitForSelector("iframe#snapshot")).contentFrame();
      if (!frame) throw new Error("no snapshot frame");
      await frame.waitForLoadState("load");
      await frame.waitForFunction(() => "__redlineOverlay" in window || document.readyState === "complete");
      const view: View = {
        page,
        frame,
        send: (type, payload) =>
          page.evaluate(([t, p]) => (window as any).send(t, p), [type, payload] as const),
        sendRaw: (data) => page.evaluate((d) => (window as any).sendRaw(d), data),
        sendFromSibling: (data) => page.evaluate((d) => (window as any).sendFromSibling(d), data),
        mark: () => page.evaluate(() => (window as any).received.length as number),
        async waitFor(type, since = 0) {
          const handle = await page.waitForFunction(
            ([t, s]) => (window as any).received.slice(s).find((m: any) => m?.type === t),
            [type, since] as const,
            { timeout: 10_000 },
          );
          return (await handle.jsonValue()) as Message;
        },
        async messages(type) {
          const all = (await page.evaluate(() => (window as any).received)) as Message[];
          return type ? all.filter((message) => message.type === type) : all;
        },
        rect: (selector) =>
          frame.$eval(selector, (element) => {
            const { x, y, width, height } = element.getBoundingClientRect();
            return { x, y, width, height };
          }),
        async toPage(point) {
          const box = await page.$eval("iframe#snapshot", (element) =>
            element.getBoundingClientRect().toJSON(),
          );
          return { x: box.x + point.x, y: box.y + point.y };
        },
        settle: () =>
          frame.evaluate(
            () =>
              new Promise<void>((resolve) =>
                requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
              ),
          ),
      };
      return view;
    },
    async close() {
      await browser.close();
      await Promise.all([app, content].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
