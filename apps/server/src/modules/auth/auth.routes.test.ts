import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const PASSWORD = "correct horse battery";

describe.each(routeDrivers())("accounts over HTTP (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    // A new user's defaults include the free plan's limits.
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  it("signs up, sends the verification mail over SMTP, and verifies through the /user-action link", async () => {
    const client = new ApiClient(t.url);
    const address = email("signup");
    const signUp = await client.post("/api/auth/sign-up/email", {
      email: address,
      password: PASSWORD,
      name: "Ann",
    });
    expect(signUp.status).toBe(200);
    expect((await client.get("/api/me")).body.data).toMatchObject({ email: address, emailVerified: false });

    const mail = await t.inbox!.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toBe("Verify your e-mail for Redline");
    const link = new URL(mail.link!);
    expect(link.origin + link.pathname).toBe(`${t.url}/user-action`);
    expect(link.searchParams.get("mode")).toBe("verifyEmail");

    const verified = await new ApiClient(t.url).get(
      `/api/auth/verify-email?token=${encodeURIComponent(link.searchParams.get("oobCode")!)}`,
    );
    expect(verified.status).toBe(200);
    expect((await client.get("/api/me")).body.data.emailVerified).toBe(true);
  });

  it("gives the new user every §3 field at its default", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("defaults"));
    const { data } = (await client.get("/api/me")).body;
    expect(data).toMatchObject({
      notificationSound: true,
      isDeleted: false,
      isAnonymous: false,
      privilege: null,
      signupSource: "email",
      onboarding: {},
      limits: { web: { projects: 1, pages: 5 }, browse: { projects: 2, pages: 5 } },
      counters: {
        projectsCount: 0,
        projectPagesCount: 0,
        projectShareCount: 0,
        projectEditorsCount: 0,
        projectsEditors: 0,
      },
    });
    expect(Object.values(data.emailPreferences)).toHaveLength(8);
    expect(Object.values(data.emailPreferences).every((value) => value === true)).toBe(true);
  });

  it("refuses a short password and a taken e-mail with auth codes", async () => {
    const client = new ApiClient(t.url);
    const short = await client.post("/api/auth/sign-up/email", {
      email: email("short"),
      password: "1234567",
      name: "A",
    });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");

    const address = email("taken");
    await client.post("/api/auth/sign-up/email", { email: address, password: PASSWORD, name: "A" });
    const again = await new ApiClient(t.url).post("/api/auth/sign-up/email", {
      email: address,
      password: PASSWORD,
      name: "B",
    });
    expect(again.status).toBe(422);
    expect(again.body.code).toMatch(/USER_ALREADY_EXISTS/);
  });

  it("signs in with a persistent cookie only when remember me is chosen, and signs out", async () => {
    const address = email("remember");
    await signUpVerified(t.url, t.inbox!, address);

    const wrong = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: address,
      password: "nope-nope-nope",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");

    const remembered = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: address,
      password: PASSWORD,
      rememberMe: true,
    });
    const sessionCookie = (res: typeof remembered) =>
      res.headers.getSetCookie().find((cookie) => cookie.includes("session_token="))!;
    expect(sessionCookie(remembered)).toMatch(/Max-Age=\d+/);
    expect(sessionCookie(remembered)).toMatch(/HttpOnly/i);
    expect(sessionCookie(remembered)).toMatch(/SameSite=Lax/i);

    const client = new ApiClient(t.url);
    const forgetful = await client.post("/api/auth/sign-in/email", {
      email: address,
      password: PASSWORD,
      rememberMe: false,
    });
    expect(sessionCookie(forgetful)).not.toMatch(/Max-Age/);
    expect((await client.get("/api/me")).status).toBe(200);

    expect((await client.post("/api/auth/sign-out")).status).toBe(200);
    expect((await client.get("/api/me")).status).toBe(401);
  });

  it("resets a forgotten password through the mailed /user-action code", async () => {
    const address = email("forgot");
    await signUpVerified(t.url, t.inbox!, address);
    const anonymous = new ApiClient(t.url);
    const request = await anonymous.post("/api/auth/request-password-reset", {
      email: address,
      redirectTo: "/",
    });
    expect(request.status).toBe(200);
    const mail = await t.inbox!.waitFor(
      (m) => m.to.includes(address) && Boolean(m.link?.includes("resetPassword")),
    );
    const token = new URL(mail.link!).searchParams.get("oobCode")!;

    const tooShort = await anonymous.post("/api/auth/reset-password", { token, newPassword: "short" });
    expect(tooShort.status).toBe(400);
    const reset = await anonymous.post("/api/auth/reset-password", {
      token,
      newPassword: "a brand new secret",
    });
    expect(reset.status).toBe(200);
    const reused = await anonymous.post("/api/auth/reset-password", {
      token,
      newPassword: "another new secret",
    });
    expect(reused.status).toBe(400);

    const old = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: address,
      password: PASSWORD,
    });
    expect(old.status).toBe(401);
    const fresh = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: address,
      password: "a brand new secret",
    });
    expect(fresh.status).toBe(200);
  });

  it("changes the password on a recent sign-in, and asks for a new sign-in on an old one", async () => {
    const address = email("change");
    const client = await signUpVerified(t.url, t.inbox!, address);
    const changed = await client.post("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "changed password 1",
    });
    expect(changed.status).toBe(200);

    // Age every session of this user past the fresh window.
    await t.ctx.database.db.execute(
      sql`update sessions set created_at = now() - interval '2 hours' where user_id = (select id from users where email = ${address})`,
    );
    const stale = await client.post("/api/auth/change-password", {
      currentPassword: "changed password 1",
      newPassword: "changed password 2",
    });
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe("REQUIRES_RECENT_LOGIN");
    const signIn = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: address,
      password: "changed password 1",
    });
    expect(signIn.status).toBe(200);
  });

  it("deletes the account only with the right password", async () => {
    const address = email("delete");
    const client = await signUpVerified(t.url, t.inbox!, address);
    const wrong = await client.post("/api/auth/delete-user", { password: "not my password" });
    expect(wrong.status).toBe(400);
    expect((await client.get("/api/me")).status).toBe(200);

    const deleted = await client.post("/api/auth/delete-user", { password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect((await client.get("/api/me")).status).toBe(401);
    const signIn = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: address,
      password: PASSWORD,
    });
    expect(signIn.status).toBe(401);
  });

  it("refuses a state-changing request from another origin (CSRF)", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("csrf"));
    const forged = await client.request(
      "PATCH",
      "/api/me",
      { displayName: "Hacked" },
      { origin: "https://evil.example" },
    );
    expect(forged.status).toBe(403);
    const signOut = await client.request(
      "POST",
      "/api/auth/sign-out",
      {},
      { origin: "https://evil.example" },
    );
    expect(signOut.status).toBe(403);
    expect((await client.get("/api/me")).body.data.displayName).toBe("Test User");
  });
});

describe("rate limits on sign-in", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { authRateLimit: 3 } });
  });
  afterAll(() => t.close());

  it("answers 429 after the per-minute budget of attempts", async () => {
    const client = new ApiClient(t.url);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await client.post("/api/auth/sign-in/email", { email: "x@example.com", password: "wrong password" }))
          .status,
      );
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});

describe("rate limits in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    // What loadConfig makes of an operator's RATE_LIMIT_ENABLED=false under NODE_ENV=production.
    const production = loadConfig({
      NODE_ENV: "production",
      RATE_LIMIT_ENABLED: "false",
      AUTH_SECRET: "x".repeat(32),
      DATA_DIR: "/tmp/redline-env-test",
    });
    t = await startTestApp({ config: { rateLimitEnabled: production.rateLimitEnabled, authRateLimit: 2 } });
  });
  afterAll(() => t.close());

  it("cannot be turned off: sign-in attempts still get 429 after the limit", async () => {
    const client = new ApiClient(t.url);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await client.post("/api/auth/sign-in/email", { email: "x@example.com", password: "wrong password" }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
