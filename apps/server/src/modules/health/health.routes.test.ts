import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cuttableProxy } from "../../testing/cuttable-proxy.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { createTestDatabase, routeDrivers } from "../../testing/test-db.ts";

describe.each(routeDrivers())("health and public config (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, smtp: false });
  });
  afterAll(() => t.close());

  it("reports the database driver in use", async () => {
    const health = await new ApiClient(t.url).get("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok", database: driver });
  });

  it("offers Google sign-in through the embedded stand-in when no client id is configured", async () => {
    expect((await new ApiClient(t.url).get("/api/config")).body).toEqual({
      googleSignIn: true,
      mailbox: true,
      products: { browseHostPrefix: "bugs", webUrl: t.url, browseUrl: null },
      docsUrl: null,
      features: { videoComments: true, integrations: false, slideEditor: true },
    });
  });

  it("may be framed only by itself, except the /embed view", async () => {
    const api = await fetch(`${t.url}/api/health`);
    expect(api.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(api.headers.get("content-security-policy")).toBe("frame-ancestors 'self'");
    const embed = await fetch(`${t.url}/embed/some-project`);
    expect(embed.headers.get("x-frame-options")).toBeNull();
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const missing = await new ApiClient(t.url).get("/api/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not-found");
  });
});

describe.each(routeDrivers())("liveness and readiness (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, smtp: false, allowServerErrors: true });
  });
  afterAll(() => t.close());

  it("answers live and ready while the database and the queue answer, outside /api and without a session", async () => {
    const live = await new ApiClient(t.url).get("/health/live");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "live" });
    const ready = await new ApiClient(t.url).get("/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready" });
  });

  it("answers not ready (503, with the reason and Retry-After) once draining, while still live", async () => {
    t.readiness.drain();
    const ready = await fetch(`${t.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("5");
    expect(await ready.json()).toEqual({
      error: "Service Unavailable",
      code: "draining",
      message: "Draining: the process is shutting down.",
    });
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    // Requests in flight and new ones on open connections are still answered while draining.
    expect((await fetch(`${t.url}/api/config`)).status).toBe(200);
  });
});

describe.skipIf(routeDrivers()[0] !== "postgres")("readiness while PostgreSQL is unreachable", () => {
  // The database and the app are made in hooks: cloning a database takes seconds on a loaded machine, and
  // counts against the hook's time, not the test's.
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const direct = new URL(database.databaseUrl!);
    proxy = await cuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    t = await startTestApp({
      smtp: false,
      allowServerErrors: true,
      config: { databaseUrl: viaProxy.toString() },
    });
  });
  // Closing an app whose connections were all cut once can wait on the reconnects it had under way.
  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
    await database?.release();
  }, 120_000);

  it("answers 503 naming the database while it cannot be reached, and ready again once it can, by itself", async () => {
    expect((await fetch(`${t.url}/health/ready`)).status).toBe(200);
    await proxy.cut();
    const ready = await fetch(`${t.url}/health/ready`);
    expect(ready.status).toBe(503);
    const body = await ready.json();
    expect(body.code).toBe("not-ready");
    expect(body.message).toContain("The database does not answer.");
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    await proxy.restore();
    await expect
      .poll(async () => (await fetch(`${t.url}/health/ready`)).status, { timeout: 15_000 })
      .toBe(200);
  });
});

describe("Google sign-in when configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      smtp: false,
      config: {
        google: {
          clientId: "redline-test.apps.example",
          clientSecret: "s3cret",
          embedded: false,
          baseUrl: null,
        },
      },
    });
  });
  afterAll(() => t.close());

  it("is offered, and starts Google's OAuth flow with our client id and callback", async () => {
    const client = new ApiClient(t.url);
    expect((await client.get("/api/config")).body.googleSignIn).toBe(true);
    const started = await client.post("/api/auth/sign-in/social", {
      provider: "google",
      callbackURL: "/projects",
    });
    expect(started.status).toBe(200);
    const redirect = new URL(started.body.url);
    expect(redirect.origin).toBe("https://accounts.google.com");
    expect(redirect.searchParams.get("client_id")).toBe("redline-test.apps.example");
    expect(redirect.searchParams.get("redirect_uri")).toBe(`${t.url}/api/auth/callback/google`);
    expect(redirect.searchParams.get("state")).toBeTruthy();
    expect(redirect.searchParams.get("code_challenge_method")).toBe("S256");
  });
});

describe("Google sign-in when not configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ smtp: false, config: { google: undefined } });
  });
  afterAll(() => t.close());

  it("is not offered, and cannot be started", async () => {
    const client = new ApiClient(t.url);
    expect((await client.get("/api/config")).body.googleSignIn).toBe(false);
    const started = await client.post("/api/auth/sign-in/social", { provider: "google", callbackURL: "/" });
    expect(started.status).toBeGreaterThanOrEqual(400);
    expect(started.status).toBeLessThan(500);
  });
});
