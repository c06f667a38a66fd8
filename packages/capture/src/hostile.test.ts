/**
 * Snapshots are inert on their own: hostile pages are captured, then each snapshot is opened in a frame
 * with `sandbox="allow-scripts"` and NO content security policy (defence in depth: the content origin's
 * CSP is not there to help). A second server on another origin records every request it receives; a
 * script that runs posts a message to the top page. Nothing may run, nothing may reach the other
 * origin — after load, after hovering every link, after clicking the links that tried to leave — and
 * the top page never navigates.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "./capturer.ts";
import { Capturer } from "./index.ts";
import { type FixtureServer, startFixtureServer } from "./testing/fixture-server.ts";

/** Each hostile page, given the other origin's URL. */
const PAGES: Record<string, (other: string) => string> = {
  "data-navigation": () => `
    <a id="data-link" href="data:text/html,<script>top.postMessage('ran:data-link','*')</script>">open</a>
    <form id="data-form" action="data:text/html,<script>top.postMessage('ran:data-form','*')</script>"><button id="submit">go</button></form>
    <svg width="40" height="40"><a id="svg-link" href="data:text/html,<script>top.postMessage('ran:svg','*')</script>"><rect width="40" height="40"/></a></svg>
    <iframe id="data-frame" src="data:text/html,<script>top.postMessage('ran:frame','*')</script>"></iframe>`,
  "base-and-targets": (other) => `
    <base href="${other}/base/" target="_top">
    <img src="relative.png" alt="relative">
    <a id="top-link" href="#section" target="_top">top</a>
    <a id="blank-link" href="#section" target="_blank">popup</a>
    <form id="top-form" target="_top"><button>send</button></form>
    <p id="section">Section</p>`,
  "css-references": (other) => `
    <style>
      .set { width: 40px; height: 40px; background-image: image-set("${other}/css/image-set.png" 1x); }
      .webkit { width: 40px; height: 40px; background-image: -webkit-image-set('${other}/css/webkit.png' 1x); }
      a.hover:hover { background: url(${other}/css/hover.png); }
      @import url("${other}/css/import.css");
      @font-face { font-family: Remote; src: url(${other}/css/font.woff2); }
      .font { font-family: Remote; }
    </style>
    <div class="set"></div><div class="webkit"></div><p class="font">Text</p>
    <a class="hover" href="#x">hover me</a>
    <div style="width:40px;height:40px;background:image-set('${other}/css/inline-set.png' 1x)"></div>`,
  "svg-references": (other) => `
    <svg width="200" height="60">
      <rect width="40" height="40" fill="url(${other}/svg/paint.svg#p)" stroke="url('${other}/svg/stroke.svg#s')"/>
      <use href="${other}/svg/use.svg#u"/>
      <image href="${other}/svg/image.png" width="10" height="10"/>
      <filter id="f"><feImage href="${other}/svg/fe.png"/></filter>
      <rect x="50" width="40" height="40" filter="url(${other}/svg/filter.svg#f)" mask="url(${other}/svg/mask.svg#m)"/>
    </svg>`,
  "resource-hints": (other) => `
    <link rel="prefetch" href="${other}/hints/prefetch">
    <link rel="preload" as="image" href="${other}/hints/preload.png">
    <link rel="preconnect" href="${other}">
    <link rel="dns-prefetch" href="${other}">
    <link rel="modulepreload" href="${other}/hints/module.js">
    <a id="ping-link" href="#p" ping="${other}/hints/ping">ping</a>`,
  // Old polyfills and libraries replace globals, broken or not: the capture's own code must not care.
  "replaced-globals": () => `
    <script>
      window.Promise = function () { throw new Error("an old polyfill"); };
      window.Set = undefined;
      window.URL = function () {};
      window.WeakMap = undefined;
      window.Symbol = undefined;
    </script>
    <p id="kept">Captured anyway.</p>`,
  clobbering: () => `
    <img name="createElement" alt=""><form name="body"></form><img name="querySelector" alt="">
    <object id="documentElement"></object><embed name="cookie">
    <img name="addEventListener" alt="">
    <p id="keep">An ordinary id stays.</p>
    <form name="login"></form><img id="logo" alt="">`,
};

let other: Server;
let otherUrl: string;
const received: string[] = [];
let site: FixtureServer;
let capturer: Capturer;
const snapshots = new Map<string, string>();
/** The browser that opens the snapshots: one for the file, a fresh context (its own page, storage and
 *  popups) per snapshot — starting Chromium per snapshot cost more than everything the test does in it. */
let viewer: Browser | undefined;

beforeAll(async () => {
  other = createServer((request, response) => {
    received.push(request.url ?? "");
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  site = await startFixtureServer({
    routes: Object.fromEntries(
      Object.entries(PAGES).map(([name, page]) => [
        `/${name}.html`,
        (_request, response) => {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end(
            `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title></head><body>${page(otherUrl)}</body></html>`,
          );
        },
      ]),
    ),
  });
  capturer = await Capturer.launch();
  for (const name of Object.keys(PAGES)) {
    const result = await capturer.capture({ url: `${site.url}/${name}.html`, allowPrivateUrls: true });
    snapshots.set(name, result.html);
  }
}, 120_000);

afterAll(async () => {
  await viewer?.close();
  await capturer?.close();
  await site?.close();
  await new Promise((resolve) => other?.close(resolve));
});

describe("a captured hostile page, opened on its own without any CSP", () => {
  it("captures every hostile page without failing", () => {
    expect([...snapshots.keys()].sort()).toEqual(Object.keys(PAGES).sort());
  });

  it("captures a page that replaced the built-ins its capture uses", () => {
    expect(snapshots.get("replaced-globals")).toContain("Captured anyway.");
  });

  it("renames only the names and ids that would shadow a member of document or window", () => {
    const html = snapshots.get("clobbering")!;
    for (const renamed of [
      'name="redline-createElement"',
      'name="redline-body"',
      'id="redline-documentElement"',
    ])
      expect(html).toContain(renamed);
    expect(html).toContain('name="redline-addEventListener"');
    // The live page exposes these by named access too (document.login, window.logo): they stay.
    expect(html).toMatch(/<form name="login">/);
    expect(html).toMatch(/<img id="logo"/);
    expect(html).not.toMatch(/redline-(login|logo|keep)/);
  });

  it.each(Object.keys(PAGES))(
    "%s: runs nothing, reaches no other origin, never navigates the top page",
    async (name) => {
      // The "content origin" of this test: serves the snapshot as it was stored, with no CSP header.
      const content = createServer((request, response) => {
        if (request.url === "/") {
          response.writeHead(200, { "content-type": "text/html" });
          response.end(
            '<!doctype html><iframe id="snapshot" sandbox="allow-scripts" src="/snapshot.html" width="800" height="600"></iframe>',
          );
        } else if (request.url === "/snapshot.html") {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end(snapshots.get(name));
        } else response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => content.listen(0, "127.0.0.1", resolve));
      const contentUrl = `http://127.0.0.1:${(content.address() as AddressInfo).port}/`;
      viewer ??= await chromium.launch({ executablePath: chromiumPath() });
      const context = await viewer.newContext();
      try {
        const page = await context.newPage();
        const ran: string[] = [];
        await page.exposeFunction("__reportRan", (message: string) => ran.push(message));
        await page.addInitScript(() => {
          addEventListener("message", (event) =>
            (window as unknown as { __reportRan(m: string): void }).__reportRan(String(event.data)),
          );
        });
        const popups: string[] = [];
        page.on("popup", (popup) => popups.push(popup.url()));
        received.length = 0;
        await page.goto(contentUrl);
        const frame = await (await page.waitForSelector("iframe#snapshot")).contentFrame();
        await frame!.waitForLoadState("load");
        for (const link of await frame!.$$("a, area, svg a, button")) {
          await link.hover({ force: true, timeout: 2000 }).catch(() => undefined);
          await link.click({ force: true, timeout: 2000, noWaitAfter: true }).catch(() => undefined);
        }
        await page.waitForTimeout(500);
        expect(ran).toEqual([]);
        expect(received).toEqual([]);
        expect(popups).toEqual([]);
        expect(page.url()).toBe(contentUrl);
        if (name === "clobbering") {
          const frameNow = page.frame({ url: /snapshot\.html/ }) ?? frame!;
          expect(await frameNow.evaluate(() => typeof document.createElement)).toBe("function");
          expect(await frameNow.evaluate(() => document.body?.tagName)).toBe("BODY");
          expect(await frameNow.evaluate(() => document.getElementById("keep")?.id)).toBe("keep");
        }
      } finally {
        await context.close();
        await new Promise((resolve) => content.close(resolve));
      }
    },
  );
});
