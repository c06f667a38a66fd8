import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaptureResult, Capturer, writeSnapshotDir } from "./index.ts";
import { comparePngs, renderOffline } from "./testing/fidelity.ts";
import { type FixtureServer, gradientPng, startFixtureServer } from "./testing/fixture-server.ts";

const SITE = path.join(import.meta.dirname, "testing/site");
const WIDTHS = [1280, 375];

let server: FixtureServer;
let capturer: Capturer;
let workDir: string;
const results = new Map<number, CaptureResult>();
let late: CaptureResult | undefined;
let onScroll: CaptureResult | undefined;
let fontFace: CaptureResult | undefined;
let afterFrames: CaptureResult | undefined;
const visits: CaptureResult[] = [];

/** The snapshot's text plus every iframe srcdoc, unescaped, at any depth. */
function allDocuments(html: string): string[] {
  const documents = [html];
  for (const match of html.matchAll(/srcdoc="([^"]*)"/g)) {
    const inner = match[1]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    documents.push(...allDocuments(inner));
  }
  return documents;
}

beforeAll(async () => {
  server = await startFixtureServer({ root: SITE });
  capturer = await Capturer.launch();
  workDir = await mkdtemp(path.join(tmpdir(), "redline-capture-"));
  for (const width of WIDTHS) {
    const result = await capturer.capture({
      url: `${server.url}/pages/index.html`,
      width,
      allowPrivateUrls: true,
    });
    results.set(width, result);
    await writeSnapshotDir(result, path.join(workDir, String(width)));
  }
  late = await capturer.capture({ url: `${server.url}/pages/late.html`, allowPrivateUrls: true });
  onScroll = await capturer.capture({ url: `${server.url}/pages/on-scroll.html`, allowPrivateUrls: true });
  fontFace = await capturer.capture({ url: `${server.url}/pages/font-face.html`, allowPrivateUrls: true });
  afterFrames = await capturer.capture({
    url: `${server.url}/pages/after-frames.html`,
    allowPrivateUrls: true,
  });
  for (let visit = 0; visit < 2; visit++)
    visits.push(await capturer.capture({ url: `${server.url}/pages/visits.html`, allowPrivateUrls: true }));
  await server.close(); // everything below must work without the live site
}, 180_000); // nine captures: well under a minute alone, more beside the rest of the suite

afterAll(async () => {
  await capturer?.close();
  await rm(workDir, { recursive: true, force: true });
});

describe("capture of the fixture site", () => {
  it("reports the page and its timings", () => {
    const result = results.get(1280)!;
    expect(result.title).toBe("Capture fixture");
    expect(result.finalUrl).toBe(`${server.url}/pages/index.html`);
    expect(result.viewport.width).toBe(1280);
    expect(result.viewport.height).toBeGreaterThan(1400);
    for (const stage of ["load", "settle", "sweep", "fonts", "serialize", "screenshot", "sanitize", "total"])
      expect(result.timings[stage]).toBeTypeOf("number");
    expect(result.bytes.html).toBe(Buffer.byteLength(result.html));
  });

  it("removes scripts, handlers, javascript: URLs, meta refresh and <base>", () => {
    for (const html of allDocuments(results.get(1280)!.html)) {
      expect(html).not.toMatch(/<script\b/i);
      expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
      expect(html).not.toMatch(/javascript:/i);
      expect(html).not.toMatch(/http-equiv="?refresh/i);
      expect(html).not.toMatch(/<base\b/i);
      expect(html).not.toMatch(/loading="?lazy/i);
    }
  });

  it("keeps what the page rendered", () => {
    const html = results.get(1280)!.html;
    expect(html).toContain('shadowrootmode="open"');
    expect(html).toContain("inside a shadow root");
    expect(html).toMatch(/\.cssom\s*\{[^}]*color:\s*rgb\(190,\s*20,\s*120\)/);
    expect(html).toMatch(/\.adopted\s*\{[^}]*background:\s*(#ffe7a8|rgb\(255,\s*231,\s*168\))/);
    expect(html).toMatch(/<canvas id="chart"[^>]*background-image:\s*url\(assets\/[0-9a-f]{64}\.png\)/);
    expect(html).toContain('value="typed by a script"');
    expect(html).toMatch(/<iframe[^>]+srcdoc="[^"]*Inside the iframe/);
    expect(html).toContain("+ script"); // the frame's DOM as its script left it
    const types = results.get(1280)!.assets.map((asset) => asset.contentType);
    expect(types).toContain("font/woff2");
  });

  it("keeps the displayed srcset and picture sources (currentSrc) and the lazy image", () => {
    const has = (width: number, size: string, colour: string) => {
      const [w, h] = size.split("x").map(Number);
      const sha = createHash("sha256")
        .update(gradientPng(w!, h!, colour))
        .digest("hex");
      return results.get(width)!.assets.some((asset) => asset.sha256 === sha);
    };
    for (const width of WIDTHS) {
      expect(has(width, "240x120", "3366cc")).toBe(true); // srcset 1x
      expect(has(width, "480x240", "ff9900")).toBe(false); // srcset 2x, not displayed
      expect(has(width, "240x120", "999999")).toBe(false); // src fallback, not displayed
      expect(has(width, "300x150", "2299aa")).toBe(true); // loading=lazy, below the fold
    }
    expect(has(1280, "200x100", "663399")).toBe(true); // <picture> img
    expect(has(1280, "200x100", "339966")).toBe(false);
    expect(has(375, "200x100", "339966")).toBe(true); // <source media="(max-width: 600px)">
    expect(has(375, "200x100", "663399")).toBe(false);
  });

  it("references only stored assets, never the live site", () => {
    for (const result of results.values()) {
      const stored = new Set(result.assets.map((asset) => `assets/${asset.sha256}.${asset.ext}`));
      for (const html of allDocuments(result.html)) {
        const withoutLinks = html.replace(/<a\b[^>]*>/gi, "");
        expect(withoutLinks).not.toContain("127.0.0.1");
        const references = [
          ...withoutLinks.matchAll(/\s(?:src|href|poster|data)="([^"]*)"/gi),
          ...withoutLinks.matchAll(/url\(\s*["']?([^"')]*)/gi),
        ].map((match) => match[1]!);
        for (const reference of references)
          if (!reference.startsWith("data:") && !reference.startsWith("#"))
            expect(stored).toContain(reference);
      }
    }
  });

  it("stores each asset once, named by the SHA-256 of its bytes", () => {
    for (const result of results.values()) {
      const hashes = result.assets.map((asset) => asset.sha256);
      expect(new Set(hashes).size).toBe(hashes.length);
      for (const asset of result.assets)
        expect(createHash("sha256").update(asset.bytes).digest("hex")).toBe(asset.sha256);
      // The same PNG is an <img>, a stylesheet background, an inline-style background and in the iframe.
      const shared = result.assets.filter((asset) => asset.contentType === "image/png");
      const uses = (sha: string) => result.html.split(sha).length - 1;
      expect(Math.max(...shared.map((asset) => uses(asset.sha256)))).toBeGreaterThanOrEqual(3);
    }
  });

  const has = (result: CaptureResult, size: string, colour: string) => {
    const [w, h] = size.split("x").map(Number);
    const sha = createHash("sha256")
      .update(gradientPng(w!, h!, colour))
      .digest("hex");
    return result.assets.some((asset) => asset.sha256 === sha);
  };

  it("waits for content a timer adds after load, and for content loaded on scroll", () => {
    expect(late!.html).toContain("arrived after a timer");
    expect(has(late!, "90x45", "117744")).toBe(true); // inserted by the timer
    expect(has(onScroll!, "160x80", "aa5500")).toBe(true); // IntersectionObserver, 2400 px down
  });

  it("waits for content the page starts while rendering, with no timer", () => {
    expect(afterFrames!.html).toContain("arrived after three frames");
    expect(has(afterFrames!, "70x35", "335577")).toBe(true);
  });

  it("gives every capture a fresh browser context: nothing one page stored reaches the next", () => {
    for (const visit of visits) {
      expect(visit.html).toContain("first visit");
      expect(visit.html).not.toContain("visited before");
    }
  });

  it("screenshots the live page at the width asked for", () => {
    for (const [width, result] of results) {
      expect(result.screenshot.readUInt32BE(16)).toBe(width); // PNG IHDR width
      expect(result.viewport.width).toBe(width);
    }
  });

  it("keeps a font face the page's script made with new FontFace()", () => {
    const woff2 = fontFace!.assets.find((asset) => asset.contentType === "font/woff2");
    expect(woff2).toBeDefined();
    expect(fontFace!.html).toMatch(
      new RegExp(`@font-face\\s*\\{[^}]*Made By Script[^}]*assets/${woff2!.sha256}\\.woff2`),
    );
  });

  it.each(WIDTHS)("renders offline, with the site stopped, like the live page at %i px", async (width) => {
    const result = results.get(width)!;
    const offline = await renderOffline(capturer.browser, path.join(workDir, String(width)), width);
    const { identical } = comparePngs(result.screenshot, offline);
    expect(identical).toBeGreaterThanOrEqual(0.99);
  });
});
