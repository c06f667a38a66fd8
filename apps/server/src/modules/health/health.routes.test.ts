import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

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
