/**
 * The built web app as the server sends it: each asset compressed at build time (vite.config.ts writes .br
 * and .gz beside it) goes to a browser in the encoding it accepts, the file itself to anyone else; pages
 * fall back to index.html; a missing chunk is a 404.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const script = `export const greeting = ${JSON.stringify("hello ".repeat(500))};\n`;
const page = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body>${"<p>Redline</p>".repeat(100)}</body></html>`;

async function writeWithEncodings(file: string, text: string) {
  await writeFile(file, text);
  await writeFile(`${file}.br`, brotliCompressSync(text));
  await writeFile(`${file}.gz`, gzipSync(text));
}

describe("the built web app", () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(os.tmpdir(), "redline-web-"));
    await mkdir(path.join(webDist, "assets"));
    await writeWithEncodings(path.join(webDist, "index.html"), page);
    await writeWithEncodings(path.join(webDist, "assets", "app-abc123.js"), script);
    t = await startTestApp({ config: { webDist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding: string) =>
    fetch(t.url + url, { headers: { "accept-encoding": acceptEncoding } });

  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["identity", null],
  ])("sends an asset to a client accepting %j as %s", async (acceptEncoding, encoding) => {
    const response = await get("/assets/app-abc123.js", acceptEncoding);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe(encoding);
    expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    if (encoding) expect(Number(response.headers.get("content-length"))).toBeLessThan(script.length / 5);
    expect(await response.text()).toBe(script);
  });

  it("answers a page of the app with index.html, compressed, and a missing chunk with 404", async () => {
    const response = await get("/projects/anything", "br");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(await response.text()).toBe(page);
    expect((await get("/assets/gone-000.js", "br")).status).toBe(404);
  });
});
