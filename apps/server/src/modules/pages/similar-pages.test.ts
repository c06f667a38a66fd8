import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

describe("the similar-pages picker", () => {
  let site: http.Server;
  let siteUrl: string;
  let t: TestApp;
  let production: TestApp;
  let user: ApiClient;

  beforeAll(async () => {
    site = http.createServer((request, response) => {
      if (request.url === "/start") return response.writeHead(302, { location: "/docs" }).end();
      response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><nav>
        <a href="/pricing">Pricing</a> <a href='/about#team'>About</a> <a href=/blog/first-post>Post</a>
        <a href="/docs">Self</a> <a href="/pricing?plan=pro">Query</a> <a href="/guides/">Slash</a>
        <a href="/logo.png">File</a> <a href="https://elsewhere.example/page">Other site</a>
        <a href="mailto:hi@example.com">Mail</a> <a href="/pricing">Twice</a></nav>`);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    [t, production] = await Promise.all([
      startTestApp(),
      startTestApp({ config: { allowPrivateUrls: false } }),
    ]);
    user = await signUpVerified(t.url, t.inbox!, `similar-${Date.now()}@example.com`);
  });
  afterAll(async () => {
    await Promise.all([t.close(), production.close()]);
    await new Promise((resolve) => site.close(resolve));
  });

  it("lists the same-site, page-like links of a page, after redirects", async () => {
    const response = await user.get(`/api/similar-pages?url=${encodeURIComponent(`${siteUrl}/start`)}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      url: `${siteUrl}/docs`,
      pages: [`${siteUrl}/about`, `${siteUrl}/blog/first-post`, `${siteUrl}/pricing`],
    });
  });

  it("refuses private addresses in production and bad input everywhere", async () => {
    const prodUser = await signUpVerified(
      production.url,
      production.inbox!,
      `similar-prod-${Date.now()}@example.com`,
    );
    const blocked = await prodUser.get(`/api/similar-pages?url=${encodeURIComponent(`${siteUrl}/docs`)}`);
    expect(blocked.status).toBe(400);
    expect(blocked.body.code).toBe("blocked-url");
    expect((await user.get("/api/similar-pages?url=javascript:alert(1)")).status).toBe(400);
  });
});
