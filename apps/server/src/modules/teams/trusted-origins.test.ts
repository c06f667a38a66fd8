/**
 * A team's active custom domain is served by this app, so people sign in, write and hear realtime events
 * from it: the CSRF check, better-auth and the WebSocket trust that origin — and no other (a domain not proven to point here, a disabled
 * team's, another scheme).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/index.ts";
import { teams } from "../../db/schema/index.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver } from "../../testing/test-db.ts";
import { ownBrowseOrigin, trustedOrigins } from "./trusted-origins.ts";

const PASSWORD = "correct horse battery";

describe("custom domains as trusted origins", () => {
  let t: TestApp;
  let email: string;
  let teamId: string;
  const domain = `review-${Date.now().toString(36)}.example.test`;
  const origin = (host = domain, scheme = "http") => `${scheme}://${host}:${new URL(t.url).port}`;
  const setDomain = (values: Partial<typeof teams.$inferInsert>) =>
    t.ctx.database.db.update(teams).set(values).where(eq(teams.id, teamId));
  /** Signs in as a browser on `from` would (Origin header); the session cookie is kept on success. */
  const signInFrom = async (from: string) => {
    const client = new ApiClient(t.url);
    const answer = await client.request(
      "POST",
      "/api/auth/sign-in/email",
      { email, password: PASSWORD },
      { origin: from },
    );
    return { client, status: answer.status };
  };

  beforeAll(async () => {
    t = await startTestApp({
      driver: defaultDriver(),
      config: { browse: { hostPrefix: "bugs", url: "http://bugs.example.test" } },
    });
    email = `origin-${Date.now().toString(36)}@example.com`;
    const owner = await signUpVerified(t.url, t.inbox!, email, PASSWORD);
    teamId = (await owner.post("/api/teams", { product: "web", name: "Acme" })).body.data.id;
  });
  afterAll(() => t.close());

  it("trusts an enabled team's active domain for sign-in and writes", async () => {
    await setDomain({ domain, domainStatus: "active", domainToken: "t" });
    const { client, status } = await signInFrom(origin());
    expect(status).toBe(200);
    const renamed = await client.request(
      "PATCH",
      "/api/me",
      { displayName: "From the domain" },
      {
        origin: origin(),
      },
    );
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await client.get("/api/me")).body.data.displayName).toBe("From the domain");
  });

  it("opens the realtime socket from every trusted origin: the app, the bug-tracking host, an active domain", async () => {
    await setDomain({ domain, domainStatus: "active", domainToken: "t", isDisabled: false });
    const { client } = await signInFrom(t.url);
    for (const from of [t.url, t.ctx.config.browse.url!, origin()]) {
      const tab = await openSocket(t, client, from);
      expect(await tab.next((m) => m.type === "ready"), from).toEqual({ type: "ready" });
      tab.socket.close();
    }
    const foreign = await openSocket(t, client, origin("elsewhere.example.test"));
    expect(await foreign.closed).toBe(4403);
  });

  it("refuses a domain not proven to point here, a disabled team's, another scheme or another host", async () => {
    const signedIn = (await signInFrom(t.url)).client;
    const write = (from: string) =>
      signedIn.request("PATCH", "/api/me", { displayName: "No" }, { origin: from });
    // Trust answers are kept a few seconds: each case uses an origin not asked before.
    await setDomain({ domain: `verified-${domain}`, domainStatus: "verified" });
    expect((await write(origin(`verified-${domain}`))).body.code).toBe("csrf");
    expect((await signInFrom(origin(`verified-${domain}`))).status).toBeGreaterThanOrEqual(400);
    await setDomain({ domain: `disabled-${domain}`, domainStatus: "active", isDisabled: true });
    expect((await write(origin(`disabled-${domain}`))).status).toBe(403);
    await setDomain({ domain: `https-${domain}`, isDisabled: false });
    expect((await write(origin(`https-${domain}`, "https"))).status).toBe(403);
    expect((await write(origin("elsewhere.example.test"))).status).toBe(403);
    expect((await signedIn.get("/api/me")).body.data.displayName).not.toBe("No");
  });
});

describe("the bug-tracking host (BROWSE_URL)", () => {
  it("is trusted beside APP_URL, and only with its own scheme", async () => {
    // No lookup is needed for either answer: the configured origin is trusted as it is, another scheme never.
    const trust = trustedOrigins({} as Database, "https://app.example.com", () => [
      "https://bugs.example.com",
    ]);
    expect(await trust("https://bugs.example.com")).toBe(true);
    expect(await trust("https://app.example.com")).toBe(true);
    expect(await trust("http://bugs.example.com")).toBe(false);
    expect(await trust(undefined)).toBe(false);
  });
});

describe("the bug-tracking host of a single-host install (no BROWSE_URL)", () => {
  it("is APP_URL's own `bugs.` subdomain, same scheme and port — never a look-alike domain", () => {
    expect(ownBrowseOrigin("https://example.com", "bugs")).toBe("https://bugs.example.com");
    expect(ownBrowseOrigin("http://localhost:3000", "bugs")).toBe("http://bugs.localhost:3000");
    expect(ownBrowseOrigin("http://127.0.0.1:3000", "bugs")).toBeNull();
    expect(ownBrowseOrigin("https://example.com", "")).toBeNull();
  });

  it("signs people in and takes their writes there out of the box; other hosts stay refused", async () => {
    const t = await startTestApp({
      driver: defaultDriver(),
      appHost: "localhost",
      config: { browse: { hostPrefix: "bugs", url: null } },
    });
    try {
      const email = `single-${Date.now().toString(36)}@example.com`;
      await signUpVerified(t.url, t.inbox!, email, PASSWORD);
      const app = new URL(t.ctx.config.appUrl);
      const bugs = `${app.protocol}//bugs.${app.host}`;
      const client = new ApiClient(t.url);
      const signIn = (from: string) =>
        client.request("POST", "/api/auth/sign-in/email", { email, password: PASSWORD }, { origin: from });
      const lookAlike = await signIn(`${app.protocol}//bugs-${app.host}`);
      expect(lookAlike.status).toBeGreaterThanOrEqual(400);
      expect((await signIn(bugs)).status).toBe(200);
      const write = await client.request("PATCH", "/api/me", { displayName: "From bugs" }, { origin: bugs });
      expect(write.status, JSON.stringify(write.body)).toBe(200);
      const forged = await client.request(
        "PATCH",
        "/api/me",
        { displayName: "Forged" },
        { origin: `${app.protocol}//evil.${app.host}` },
      );
      expect(forged.body.code).toBe("csrf");
      expect((await client.get("/api/me")).body.data.displayName).toBe("From bugs");
    } finally {
      await t.close();
    }
  }, 60_000); // starts an app of its own: over 30 s on a loaded machine
});
