import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assets, versions } from "../../db/schema/index.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

/** A tiny live site: a page with a stylesheet and an image, and a page that never answers well. */
async function startSite() {
  // Large enough to be stored as its own asset (tiny payloads stay inline in the snapshot).
  const noise = Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7919) % 251));
  const pixel = await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
  const server = http.createServer((request, response) => {
    if (request.url === "/style.css") {
      response.writeHead(200, { "content-type": "text/css" }).end("h1 { color: rgb(229, 56, 59); }");
    } else if (request.url === "/shape.svg") {
      const circles = Array.from(
        { length: 40 },
        (_, i) => `<circle cx="${i}" cy="10" r="4" fill="#e5383b"/>`,
      );
      response
        .writeHead(200, { "content-type": "image/svg+xml" })
        .end(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20">${circles.join("")}</svg>`);
    } else if (request.url === "/dot.gif") {
      response.writeHead(200, { "content-type": "image/png" }).end(pixel);
    } else if (request.url === "/broken") {
      request.socket.destroy();
    } else if (request.url === "/held-open.png") {
      // never answers: the page that uses it never fires its load event
    } else if (request.url === "/busy") {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><title>Busy page</title></head><body><h1>Always loading</h1><img src="/held-open.png" width="20" height="20"></body></html>`,
        );
    } else {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><title>Fixture home</title><link rel="stylesheet" href="/style.css"></head><body><h1>Hello reviewers</h1><img src="/dot.gif" width="20" height="20"><img src="/shape.svg" width="40" height="20">${"<p>Every line of this page is reviewed.</p>".repeat(40)}<script>document.body.insertAdjacentHTML("beforeend", "<p>Added by script</p>")</script></body></html>`,
        );
    }
  });
  return new Promise<{ url: string; close(): Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

const OVERLAY = "/* the overlay */";
const overlayPath = path.join(os.tmpdir(), `redline-overlay-${process.pid}.js`);

async function waitForVersion(client: ApiClient, versionId: string) {
  for (let i = 0; i < 120; i++) {
    const { data } = (await client.get(`/api/versions/${versionId}`)).body;
    if (data.status === "ready" || data.status === "failed") return data;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("capture did not finish");
}

describe("the capture worker", () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof startSite>>;
  let owner: ApiClient;
  beforeAll(async () => {
    await writeFile(overlayPath, OVERLAY);
    [t, site] = await Promise.all([
      startTestApp({ config: { captureWorker: true, overlayScript: overlayPath } }),
      startSite(),
    ]);
    owner = await signUpVerified(t.url, t.inbox!, `worker-${Date.now()}@example.com`);
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it("publishes each step of a capture to the project's room, ending with the version as the API reads it", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Live progress" })).body.data.id;
    const tab = await openSocket(t, owner);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const { versionId } = (await owner.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/` })).body
      .data;
    const steps: string[] = [];
    for (;;) {
      const message = await tab.next(
        (m) => m.type === "event" && m.event.type === "versions.changed",
        30_000,
      );
      if (message.type !== "event" || message.event.type !== "versions.changed") continue;
      expect(message.event).toMatchObject({ projectId, versionId: versionId });
      const { version } = message.event;
      steps.push(`${version.status}:${version.stage ?? ""}`);
      if (version.status === "ready") {
        expect(version).toEqual((await owner.get(`/api/versions/${versionId}`)).body.data);
        // The page as the project lists it, with the captured title and thumbnail: nothing to read again.
        const listed = (await owner.get(`/api/projects/${projectId}`)).body.data.pages[0];
        expect(message.event.page).toEqual(listed);
        expect(listed).toMatchObject({
          title: "Fixture home",
          thumbnail: expect.stringMatching(/^\/files\//),
        });
        break;
      }
    }
    expect(steps).toEqual(["capturing:Loading page", "capturing:Saving snapshot", "ready:"]);
    tab.socket.close();
  });

  it("captures a page into a snapshot served from the content origin", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Site" })).body.data.id;
    const { pageId, versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/` })
    ).body.data;
    const version = await waitForVersion(owner, versionId);
    expect(version).toMatchObject({ status: "ready", failureReason: null, partialCapture: null });
    expect(version.viewport.width).toBe(1280);

    const view = (await owner.get(`/api/versions/${versionId}/view`)).body.data;
    expect(view.page).toMatchObject({ id: pageId, title: "Fixture home" });
    expect(view.page.thumbnail).toMatch(/^\/files\/thumbnails\//);
    expect(view.contentUrl.startsWith(`${t.contentUrl}/v/${versionId}/index.html?`)).toBe(true);

    const snapshot = await fetch(view.contentUrl);
    expect(snapshot.status).toBe(200);
    const csp = snapshot.headers.get("content-security-policy")!;
    expect(csp).toContain("sandbox allow-scripts");
    // The only script a snapshot may run is our overlay, injected when served.
    expect(csp).toContain(`script-src ${t.contentUrl}/overlay.js;`);
    expect(csp).toContain(`frame-ancestors ${t.url}`);
    const html = await snapshot.text();
    expect(html).toContain("Hello reviewers");
    expect(html).toContain("Added by script");
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual([`<script src="/overlay.js" data-app-origin="${t.url}" defer>`]);
    expect(await (await fetch(`${t.contentUrl}/overlay.js`)).text()).toBe(OVERLAY);
    expect(html).not.toContain(site.url);
    const assetPaths = [...html.matchAll(/\/a\/[0-9a-f]{64}\.[a-z0-9]+/g)].map((match) => match[0]);
    for (const assetPath of assetPaths)
      expect((await fetch(t.contentUrl + assetPath)).status, assetPath).toBe(200);
    // Sent compressed to a browser, and revalidated (304, its CSP kept) when the viewer opens it again.
    const asBrowser = { "accept-encoding": "gzip, deflate, br" };
    const compressed = await fetch(view.contentUrl, { headers: asBrowser });
    expect(compressed.headers.get("content-encoding")).toBe("br");
    expect(await compressed.text()).toBe(html);
    // Its SVG images too (once per asset); images already compressed (the GIF) go as they are.
    const svg = assetPaths.find((assetPath) => assetPath.endsWith(".svg"))!;
    const svgAnswer = await fetch(t.contentUrl + svg, { headers: asBrowser });
    expect(svgAnswer.headers.get("content-encoding")).toBe("br");
    expect(svgAnswer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await svgAnswer.text()).toContain("<circle");
    const gif = assetPaths.find((assetPath) => !assetPath.endsWith(".svg"))!;
    expect(
      (await fetch(t.contentUrl + gif, { headers: asBrowser })).headers.get("content-encoding"),
    ).toBeNull();
    const etag = compressed.headers.get("etag")!;
    const again = await fetch(view.contentUrl, { headers: { ...asBrowser, "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBe(csp);

    expect((await fetch(view.screenshotUrl)).headers.get("content-type")).toBe("image/png");

    // Through the public link the snapshot may sit in an /embed on any site; for members only in the app.
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: true });
    const shared = (await new ApiClient(t.url).get(`/api/share/${projectId}/versions/${versionId}/view`)).body
      .data;
    expect(shared.contentUrl.startsWith(`${t.contentUrl}/pv/${versionId}/index.html?`)).toBe(true);
    const embeddable = await fetch(shared.contentUrl);
    expect(embeddable.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(embeddable.headers.get("content-security-policy")).toContain("sandbox allow-scripts");
    const tampered = shared.contentUrl.replace("/pv/", "/v/");
    expect((await fetch(tampered)).status).toBe(403);
  });

  it("re-captures into version 2 sharing the unchanged assets", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Again" })).body.data.id;
    const { pageId, versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/` })
    ).body.data;
    await waitForVersion(owner, versionId);
    const second = (await owner.post(`/api/pages/${pageId}/versions`, {})).body.data;
    expect((await waitForVersion(owner, second.id)).number).toBe(2);
    const [stored] = await t.ctx.database.db.select({ n: count() }).from(assets);
    const html = async (id: string) =>
      (await fetch((await owner.get(`/api/versions/${id}/view`)).body.data.contentUrl)).text();
    const refs = (text: string) => [...text.matchAll(/\/a\/([0-9a-f]{64})/g)].map((m) => m[1]).sort();
    expect(refs(await html(second.id))).toEqual(refs(await html(versionId)));
    expect(refs(await html(versionId)).length).toBeGreaterThan(0);
    expect(stored!.n).toBe(new Set(refs(await html(versionId))).size);
  });

  it("captures a page that never finishes loading as it is, and the version says so and why", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Busy" })).body.data.id;
    const { versionId } = (await owner.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/busy` }))
      .body.data;
    const version = await waitForVersion(owner, versionId);
    expect(version.status).toBe("ready");
    expect(version.partialCapture).toEqual(expect.arrayContaining(["load", "network"]));
    const view = (await owner.get(`/api/versions/${versionId}/view`)).body.data;
    expect(await (await fetch(view.contentUrl)).text()).toContain("Always loading");
  });

  it("marks a version failed, with the reason, when the page cannot be loaded", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Broken" })).body.data.id;
    const { versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/broken` })
    ).body.data;
    const version = await waitForVersion(owner, versionId);
    expect(version.status).toBe("failed");
    expect(version.failureReason).toBeTruthy();
  });
});

describe("the capture worker in production", () => {
  let t: TestApp;
  let owner: ApiClient;
  beforeAll(async () => {
    t = await startTestApp({ config: { captureWorker: true, allowPrivateUrls: false } });
    owner = await signUpVerified(t.url, t.inbox!, `ssrf-${Date.now()}@example.com`);
  });
  afterAll(() => t.close());

  it("refuses to capture private addresses", async () => {
    const projectId = (await owner.post("/api/projects", { title: "SSRF" })).body.data.id;
    const { versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: `${t.url}/api/health` })
    ).body.data;
    const version = await waitForVersion(owner, versionId);
    expect(version.status).toBe("failed");
    expect(version.failureReason).toBe(
      "This address points to a private network, which Redline may not capture.",
    );
  });
});

describe("a queued capture across a restart", () => {
  it("is captured by the next process that starts, after the first stopped with the job waiting", async () => {
    const site = await startSite();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-restart-"));
    // A database on disk, shared by the two app lifetimes (PGlite persists like PostgreSQL would).
    const config = { pgliteDir: path.join(dataDir, "pglite"), filesDir: path.join(dataDir, "files") };
    try {
      const first = await startTestApp({ driver: "pglite", config: { ...config, captureWorker: false } });
      const owner = await signUpVerified(first.url, first.inbox!, `restart-${Date.now()}@example.com`);
      const projectId = (await owner.post("/api/projects", { title: "Restart" })).body.data.id;
      const { versionId } = (await owner.post(`/api/projects/${projectId}/pages`, { url: `${site.url}/` }))
        .body.data;
      expect((await owner.get(`/api/versions/${versionId}`)).body.data.status).toBe("queued");
      await first.close();

      const second = await startTestApp({ driver: "pglite", config: { ...config, captureWorker: true } });
      try {
        let status = "queued";
        for (let i = 0; i < 120 && status !== "ready" && status !== "failed"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          const [row] = await second.ctx.database.db
            .select()
            .from(versions)
            .where(eq(versions.id, versionId));
          status = row!.status;
        }
        expect(status).toBe("ready");
      } finally {
        await second.close();
      }
    } finally {
      await site.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000); // two app processes start one after the other: over 30 s on a loaded machine
});
