/**
 * The SSRF guard and the job limits, end to end through the browser. There is no outside network
 * or DNS here, so the test injects a resolver and declares 127.0.0.1 "public"; everything else in
 * 127.0.0.0/8 stays private. A second server on 127.0.0.2 plays the internal service and counts
 * every request that reaches it: the guard holds when that count stays at zero.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CaptureError, Capturer, isPrivateAddress } from "./index.ts";
import { type FixtureServer, gradientPng, startFixtureServer } from "./testing/fixture-server.ts";

let site: FixtureServer;
let internal: Server;
let internalUrl: string;
let internalHits: string[] = [];
let capturer: Capturer;
let flipLookups = 0;

const html = (body: string) => (_: unknown, response: import("node:http").ServerResponse) => {
  response
    .writeHead(200, { "content-type": "text/html" })
    .end(`<!doctype html><html><body>${body}</body></html>`);
};

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return error instanceof CaptureError ? error.reason : String(error);
  }
}

beforeAll(async () => {
  internal = createServer((request, response) => {
    internalHits.push(request.url ?? "");
    if (request.url?.endsWith(".png"))
      response.writeHead(200, { "content-type": "image/png" }).end(gradientPng(40, 40, "ff0000"));
    else response.writeHead(200, { "content-type": "text/html" }).end("<p>internal secret</p>");
  });
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.2", resolve));
  internalUrl = `http://127.0.0.2:${(internal.address() as AddressInfo).port}`;
  const internalName = internalUrl.replace("127.0.0.2", "internal.test");
  site = await startFixtureServer({
    routes: {
      "/ssrf.html": html(`
        <h1>public page</h1>
        <img src="${internalUrl}/literal.png">
        <img src="${internalName}/by-name.png">
        <img src="/redirect?to=${encodeURIComponent(`${internalUrl}/redirected.png`)}">
        <div style="width:40px;height:40px;background:url(${internalUrl}/css.png)"></div>
        <iframe src="${internalUrl}/frame.html"></iframe>
        <script>fetch("${internalUrl}/fetch").catch(() => {})</script>`),
      "/big.html": html(`<img src="/img/600x400/3366cc.png"><img src="/img/600x400/cc3366.png">`),
      "/slow.html": html(`<img src="/hang">`),
    },
  });
  capturer = await Capturer.launch({
    network: {
      isBlocked: (ip) => ip !== "127.0.0.1" && isPrivateAddress(ip),
      resolve: async (host) => {
        if (host === "site.test") return ["127.0.0.1"];
        if (host === "internal.test") return ["127.0.0.2"];
        if (host === "flip.test") return flipLookups++ === 0 ? ["127.0.0.1"] : ["127.0.0.2"];
        return [];
      },
    },
  });
});

afterAll(async () => {
  await capturer?.close();
  await site?.close();
  await new Promise((resolve) => internal?.close(resolve));
});

beforeEach(() => {
  internalHits = [];
});

const publicUrl = (path: string) => `${site.url.replace("127.0.0.1", "site.test")}${path}`;

describe("SSRF guard (allowPrivateUrls: false)", () => {
  it.each([
    ["a loopback IP", () => `${internalUrl}/`],
    ["IPv6 loopback", () => "http://[::1]/"],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/"],
    ["a non-http scheme", () => "file:///etc/passwd"],
  ])("refuses %s up front", async (_name, url) => {
    expect(await reasonOf(capturer.capture({ url: url(), allowPrivateUrls: false }))).toBe("blocked-url");
  });

  it("refuses a main document that redirects to a private address", async () => {
    const url = publicUrl(`/redirect?to=${encodeURIComponent(`${internalUrl}/`)}`);
    expect(await reasonOf(capturer.capture({ url, allowPrivateUrls: false }))).toBe("blocked-url");
    expect(internalHits).toEqual([]);
  });

  it("refuses a host whose DNS answer turns private after the pre-check (rebinding)", async () => {
    flipLookups = 0;
    const url = `http://flip.test:${(internal.address() as AddressInfo).port}/ssrf.html`;
    expect(await reasonOf(capturer.capture({ url, allowPrivateUrls: false }))).toBe("blocked-url");
    expect(flipLookups).toBeGreaterThanOrEqual(2); // checked again when connecting
    expect(internalHits).toEqual([]);
  });

  it("drops every subresource on a private address, also behind a redirect or a hostname", async () => {
    const result = await capturer.capture({ url: publicUrl("/ssrf.html"), allowPrivateUrls: false });
    expect(internalHits).toEqual([]);
    expect(result.html).toContain("public page");
    expect(result.html).not.toMatch(/127\.0\.0\.2|internal\.test|internal secret/);
    expect(result.blocked).toEqual(
      expect.arrayContaining([
        `${internalUrl}/literal.png`,
        `${internalUrl.replace("127.0.0.2", "internal.test")}/by-name.png`,
        `${internalUrl}/redirected.png`,
      ]),
    );
  });

  it("loads the same resources when private URLs are allowed (the check above is not vacuous)", async () => {
    const result = await capturer.capture({ url: publicUrl("/ssrf.html"), allowPrivateUrls: true });
    expect(internalHits).toEqual(expect.arrayContaining(["/literal.png", "/by-name.png", "/redirected.png"]));
    expect(result.blocked).toEqual([]);
  });
});

describe("job limits", () => {
  it("fails with too-large past the byte cap", async () => {
    // Each image fits under the cap on its own; the snapshot with both does not.
    const largest = Math.max(gradientPng(600, 400, "3366cc").length, gradientPng(600, 400, "cc3366").length);
    const maxBytes = Math.round(largest * 1.5);
    const capture = capturer.capture({ url: publicUrl("/big.html"), allowPrivateUrls: true, maxBytes });
    expect(await reasonOf(capture)).toBe("too-large");
  });

  it("fails with timeout when the whole job runs too long, and the browser stays usable", async () => {
    const started = performance.now();
    const capture = capturer.capture({
      url: publicUrl("/slow.html"),
      allowPrivateUrls: true,
      timeoutMs: 1_500,
    });
    expect(await reasonOf(capture)).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(10_000);
    const next = await capturer.capture({ url: publicUrl("/big.html"), allowPrivateUrls: true });
    expect(next.assets).toHaveLength(2);
  });

  it("closes every job's browser context, also after failures", async () => {
    await capturer.idle();
    expect(capturer.browser.contexts()).toHaveLength(1); // the next job's, opened ahead
  });
});
