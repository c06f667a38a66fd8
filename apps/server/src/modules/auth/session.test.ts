import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuiltApp, buildApp } from "../../app.ts";
import { sessions, users } from "../../db/schema/index.ts";
import { signUpVerified } from "../../testing/http-client.ts";
import { freePort, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { signedSessionToken } from "./session.ts";
import { sessionCacheOf } from "./session-cache.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const DAY = 24 * 3600 * 1000;

/** A client that sends exactly this Cookie header. */
async function getMe(t: TestApp, cookie: string) {
  return fetch(`${t.url}/api/me`, { headers: { cookie } });
}

describe("signedSessionToken", () => {
  const secret = "s".repeat(40);
  // The signature better-auth (better-call) puts on the cookie: base64 HMAC-SHA256 of the token.
  const sign = async (token: string) => {
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token));
    return encodeURIComponent(`${token}.${Buffer.from(mac).toString("base64")}`);
  };

  it("reads the token of a correctly signed cookie among others", async () => {
    const header = `theme=dark; better-auth.session_token=${await sign("abc123")}; other=1`;
    expect(signedSessionToken(header, "better-auth.session_token", secret)).toBe("abc123");
  });

  it.each([
    ["no cookie", undefined],
    ["another cookie only", "theme=dark"],
    ["an unsigned token", "better-auth.session_token=abc123"],
    ["a bad percent-encoding", "better-auth.session_token=%E0%A4%A"],
  ])("refuses %s", (_label, header) => {
    expect(signedSessionToken(header, "better-auth.session_token", secret)).toBeNull();
  });

  it("refuses a token signed with another secret or altered after signing", async () => {
    const signed = decodeURIComponent(await sign("abc123"));
    const altered = `abc124${signed.slice("abc123".length)}`;
    expect(
      signedSessionToken(
        `better-auth.session_token=${encodeURIComponent(altered)}`,
        "better-auth.session_token",
        secret,
      ),
    ).toBeNull();
    expect(
      signedSessionToken(
        `better-auth.session_token=${await sign("abc123")}`,
        "better-auth.session_token",
        "t".repeat(40),
      ),
    ).toBeNull();
  });
});

describe("the principal of a request", () => {
  let t: TestApp;
  beforeAll(async () => {
    // The write limit reads who is calling too: with it on, a write has two readers besides the hook.
    t = await startTestApp({ config: { rateLimitEnabled: true } });
  });
  afterAll(() => t.close());

  it("is read from the session cookie once per request, however many read it (the write limit, the route)", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("once"));
    expect((await client.get("/api/me")).status).toBe(200); // held in the cache from here
    const token = signedSessionToken(
      client.cookieHeader(),
      "better-auth.session_token",
      t.ctx.config.authSecret,
    );
    const cache = sessionCacheOf(t.ctx.database.db)!;
    const lookups = vi.spyOn(cache, "get");
    try {
      const renamed = await client.patch("/api/me", { displayName: "Once" });
      expect(renamed.status).toBe(200);
      expect(lookups.mock.calls.filter(([key]) => key === token)).toHaveLength(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it("is kept after a write that changes no account (an analytics event), and forgotten after one that may", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("kept"));
    expect((await client.get("/api/me")).status).toBe(200);
    const uid = (await client.get("/api/me")).body.data.uid as string;
    const cache = sessionCacheOf(t.ctx.database.db)!;
    const forgets = vi.spyOn(cache, "forgetUser");
    try {
      const event = await client.post("/api/analytics/events", { event: "SwitchView", properties: {} });
      expect(event.status).toBe(204);
      expect(forgets.mock.calls.filter(([id]) => id === uid)).toHaveLength(0);
      expect((await client.patch("/api/me", { displayName: "Kept" })).status).toBe(200);
      expect(forgets.mock.calls.filter(([id]) => id === uid).length).toBeGreaterThan(0);
    } finally {
      forgets.mockRestore();
    }
  });
});

describe.each(drivers())("the session behind a request (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver });
  });
  afterAll(() => t.close());

  const signedIn = async () => {
    const address = email("session");
    const client = await signUpVerified(t.url, t.inbox!, address);
    const token = signedSessionToken(
      client.cookieHeader(),
      "better-auth.session_token",
      t.ctx.config.authSecret,
    );
    const [session] = await t.ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.token, token ?? ""));
    if (!session) throw new Error("no session row for the client's cookie");
    return { client, address, session };
  };

  it("answers for the signed-in user, and stops at once when the session is signed out elsewhere", async () => {
    const { client, address } = await signedIn();
    const cookie = client.cookieHeader();
    expect((await client.get("/api/me")).body.data.email).toBe(address);
    // Another tab signs out: the cookie this tab still holds stops working on the next request.
    await fetch(`${t.url}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: t.url } });
    expect((await getMe(t, cookie)).status).toBe(401);
  });

  it("stops as soon as the database announces that the session row was revoked (as another process would)", async () => {
    const { client, session } = await signedIn();
    expect((await client.get("/api/me")).status).toBe(200); // now held in this process's cache
    await t.ctx.database.db.delete(sessions).where(eq(sessions.id, session.id));
    await expect.poll(async () => (await client.get("/api/me")).status, { timeout: 2000 }).toBe(401);
  });

  it("reads a change to the user back at once, and costs no session query while nothing changes", async () => {
    const { client } = await signedIn();
    expect((await client.get("/api/me")).status).toBe(200);
    const cache = sessionCacheOf(t.ctx.database.db)!;
    expect(cache.size).toBeGreaterThan(0);
    const renamed = await client.patch("/api/me", { displayName: "Grace Hopper" });
    expect(renamed.status).toBe(200);
    expect((await client.get("/api/me")).body.data.displayName).toBe("Grace Hopper");
    // The same change made behind the app's back is heard on the channel.
    const uid = (await client.get("/api/me")).body.data.uid as string;
    await t.ctx.database.db.update(users).set({ displayName: "Ada" }).where(eq(users.id, uid));
    await expect
      .poll(async () => (await client.get("/api/me")).body.data.displayName, { timeout: 2000 })
      .toBe("Ada");
  });

  it("refuses a cookie whose signature was tampered with", async () => {
    const { client } = await signedIn();
    const cookie = client.cookieHeader();
    const tampered = cookie.replace(
      /(session_token=[^;]*?)(.)(%3D|=)/,
      (_m, head, ch, tail) => `${head}${ch === "A" ? "B" : "A"}${tail}`,
    );
    expect(tampered).not.toBe(cookie);
    expect((await getMe(t, tampered)).status).toBe(401);
  });

  it("extends a session due for its refresh, and deletes an expired one", async () => {
    const { client, session } = await signedIn();
    const { db } = t.ctx.database;
    // Six days left of seven: the daily sliding refresh is due.
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 6 * DAY - 60_000) })
      .where(eq(sessions.id, session.id));
    expect((await client.get("/api/me")).status).toBe(200);
    const [refreshed] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(refreshed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 7 * DAY - 60_000);

    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, session.id));
    expect((await client.get("/api/me")).status).toBe(401);
    expect(await db.select().from(sessions).where(eq(sessions.id, session.id))).toEqual([]);
  });
});

describe.runIf(drivers().includes("postgres"))("sessions held by two processes on one database", () => {
  let t: TestApp;
  let other: BuiltApp;
  beforeAll(async () => {
    t = await startTestApp({ driver: "postgres" });
    // A second app process on the same PostgreSQL database: its own pool, channel and session cache.
    other = await buildApp({ ...t.ctx.config, port: await freePort() });
  });
  afterAll(async () => {
    await other?.app.close();
    await t.close();
  });

  const meOnOther = async (cookie: string) => {
    const answer = await other.app.inject({ url: "/api/me", headers: { cookie } });
    return {
      status: answer.statusCode,
      name: answer.statusCode === 200 ? answer.json().data.displayName : null,
    };
  };

  it("a sign-out or a profile change in one process reaches the other's cache as the change commits", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("two-processes"));
    const cookie = client.cookieHeader();
    expect((await meOnOther(cookie)).status).toBe(200);
    expect(sessionCacheOf(other.ctx.database.db)!.size).toBeGreaterThan(0);

    await client.patch("/api/me", { displayName: "Renamed Elsewhere" });
    await expect
      .poll(async () => (await meOnOther(cookie)).name, { timeout: 2000 })
      .toBe("Renamed Elsewhere");

    await fetch(`${t.url}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: t.url } });
    await expect.poll(async () => (await meOnOther(cookie)).status, { timeout: 2000 }).toBe(401);
  });
});
