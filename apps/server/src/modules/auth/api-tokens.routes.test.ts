/**
 * Public API tokens (issue #28): made and revoked in Account Settings, sent as a bearer token. What a
 * caller observes: the secret once, reads and writes as its scope allows, never billing or token
 * management, refused at once when revoked or expired, a clear 401 for anything malformed.
 */
import { API_TOKEN_MESSAGES, MAX_API_TOKENS } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, projects, users } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, startTwoApps, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver, routeDrivers } from "../../testing/test-db.ts";
import { createApiToken } from "./api-tokens.ts";

const RATE = 25;

describe.each(routeDrivers())("API tokens (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let other: ApiClient;
  let ownerId: string;
  /** A cookie-less caller holding only the token (as a script would: no Origin header either). */
  const bearer = (
    secret: string,
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ) =>
    fetch(t.url + path, {
      method,
      headers: {
        authorization: `Bearer ${secret}`,
        ...(body !== undefined && { "content-type": "application/json" }),
        ...extra,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  const mint = async (scope: "read" | "read-write", client = owner) => {
    const created = await client.post("/api/me/tokens", { name: `Script ${scope}`, scope });
    expect(created.status).toBe(201);
    return created.body.data as { token: { id: string; prefix: string }; secret: string };
  };
  const projectCount = async () =>
    (await t.ctx.database.db.select().from(projects).where(eq(projects.ownerId, ownerId))).length;

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { apiTokenRateLimit: RATE } });
    const stamp = Date.now().toString(36);
    owner = await signUpVerified(t.url, t.inbox!, `tokens-${stamp}@example.com`);
    other = await signUpVerified(t.url, t.inbox!, `tokens-other-${stamp}@example.com`);
    ownerId = (await owner.get("/api/me")).body.data.uid;
  });
  afterAll(() => t.close());

  it("shows the secret once and lists the token without it", async () => {
    const created = await owner.post("/api/me/tokens", {
      name: "  CI deploy  ",
      scope: "read",
      expiresInDays: 30,
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe(API_TOKEN_MESSAGES.created);
    const { token, secret } = created.body.data;
    expect(secret).toMatch(/^rl_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      name: "CI deploy",
      scope: "read",
      prefix: secret.slice(0, 7),
      lastUsedAt: null,
    });
    const days = (Date.parse(token.expiresAt) - Date.parse(token.createdAt)) / 86_400_000;
    expect(days).toBe(30);
    const listed = await owner.get("/api/me/tokens");
    expect(listed.body.data.map((row: { id: string }) => row.id)).toContain(token.id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // Only a hash is kept.
    const [row] = await t.ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(JSON.stringify(row)).not.toContain(secret);
    // Nobody else sees it.
    expect((await other.get("/api/me/tokens")).body.data).toEqual([]);
  });

  it("refuses a token that is not valid input, and stores nothing", async () => {
    const before = (await owner.get("/api/me/tokens")).body.data.length;
    for (const body of [
      { name: "", scope: "read" },
      { name: "x", scope: "admin" },
      { name: "x", scope: "read", expiresInDays: 3 },
    ]) {
      const refused = await owner.post("/api/me/tokens", body);
      expect(refused.status).toBe(400);
    }
    expect((await owner.get("/api/me/tokens")).body.data.length).toBe(before);
  });

  it("reads with a read token, and refuses its writes without changing anything", async () => {
    await owner.post("/api/projects", { type: "web", title: "Seen by the token" });
    const { secret } = await mint("read");
    const read = await bearer(secret, "GET", "/api/projects");
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain("Seen by the token");
    expect((await bearer(secret, "GET", "/api/me")).body.data.uid).toBe(ownerId);

    const before = await projectCount();
    const write = await bearer(secret, "POST", "/api/projects", { type: "web", title: "Nope" });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: "token/read-only", message: API_TOKEN_MESSAGES.readOnly });
    expect(await projectCount()).toBe(before);
    // Its last use is recorded.
    const listed = (await owner.get("/api/me/tokens")).body.data as {
      prefix: string;
      lastUsedAt: string | null;
    }[];
    expect(listed.find((row) => row.prefix === secret.slice(0, 7))?.lastUsedAt).not.toBeNull();
  });

  it("writes with a read-write token from any origin (no same-origin check), as its owner only", async () => {
    const { secret } = await mint("read-write");
    // Another person's session cookie alongside the token is not read: the request is the token's.
    const created = await bearer(
      secret,
      "POST",
      "/api/projects",
      { type: "web", title: "By script" },
      {
        origin: "https://elsewhere.example",
        cookie: other.cookieHeader(),
      },
    );
    expect(created.status).toBe(201);
    const [row] = await t.ctx.database.db
      .select()
      .from(projects)
      .where(eq(projects.id, created.body.data.id));
    expect(row?.ownerId).toBe(ownerId);
  });

  it("never reaches billing, redemptions, token management or the account's own auth endpoints", async () => {
    const { secret } = await mint("read-write");
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/billing"],
      ["POST", "/api/billing/checkout", { planId: "pro-monthly" }],
      ["POST", "/api/me/lifetime-deal", { code: "X" }],
      ["GET", "/api/me/tokens"],
      ["POST", "/api/me/tokens", { name: "Another", scope: "read-write" }],
      ["POST", "/api/auth/delete-user", {}],
      ["POST", "/api/session/handoff", { to: t.url }],
    ];
    const tokensBefore = (await owner.get("/api/me/tokens")).body.data.length;
    for (const [method, path, body] of calls) {
      const answer = await bearer(secret, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toMatchObject({
        code: "token/not-allowed",
        message: API_TOKEN_MESSAGES.notForTokens,
      });
    }
    expect((await owner.get("/api/me/tokens")).body.data.length).toBe(tokensBefore);
    const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, ownerId));
    expect(user?.isDeleted).toBe(false);
  });

  it("is refused at once once revoked; another person cannot revoke it", async () => {
    const { token, secret } = await mint("read");
    expect((await other.delete(`/api/me/tokens/${token.id}`)).status).toBe(404);
    expect((await bearer(secret, "GET", "/api/projects")).status).toBe(200);
    const revoked = await owner.delete(`/api/me/tokens/${token.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe(API_TOKEN_MESSAGES.revoked);
    const after = await bearer(secret, "GET", "/api/projects");
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: "token/invalid", message: API_TOKEN_MESSAGES.invalid });
  });

  it("refuses an expired token", async () => {
    const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, ownerId));
    const long = new Date(Date.now() - 8 * 86_400_000);
    const { secret } = await createApiToken(
      t.ctx.database.db,
      user!,
      { name: "Old", scope: "read", expiresInDays: 7 },
      long,
    );
    expect((await bearer(secret, "GET", "/api/projects")).status).toBe(401);
  });

  it("answers malformed or unknown credentials with 401, never 500", async () => {
    for (const header of [
      "Bearer",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      "Bearer rl_short",
      `Bearer rl_${"a".repeat(43)}`,
      "Bearer a b",
      `Bearer ${"x".repeat(5000)}`,
    ]) {
      const answer = await fetch(`${t.url}/api/projects`, { headers: { authorization: header } });
      expect(answer.status, header.slice(0, 30)).toBe(401);
    }
  });

  it(`lets one person hold ${MAX_API_TOKENS} tokens at most, even when created at once`, async () => {
    const client = await signUpVerified(
      t.url,
      t.inbox!,
      `tokens-many-${Date.now().toString(36)}@example.com`,
    );
    const answers = await Promise.all(
      Array.from({ length: MAX_API_TOKENS + 5 }, (_, i) =>
        client.post("/api/me/tokens", { name: `T${i}`, scope: "read" }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_API_TOKENS);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(
      refused.every((answer) => answer.status === 409 && answer.body.message === API_TOKEN_MESSAGES.tooMany),
    ).toBe(true);
    expect((await client.get("/api/me/tokens")).body.data).toHaveLength(MAX_API_TOKENS);
  });

  it("limits each token's requests per minute, reads included, without touching its owner's session", async () => {
    const { secret } = await mint("read");
    const answers = [];
    for (let i = 0; i <= RATE; i++) answers.push((await bearer(secret, "GET", "/api/me")).status);
    expect(answers.slice(0, RATE).every((status) => status === 200)).toBe(true);
    expect(answers[RATE]).toBe(429);
    expect((await owner.get("/api/me")).status).toBe(200);
    const second = await mint("read");
    expect((await bearer(second.secret, "GET", "/api/me")).status).toBe(200);
  });
});

describe.runIf(defaultDriver() === "postgres")("API tokens across two server processes", () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, close } = await startTwoApps());
  });
  afterAll(() => close());

  it("is refused by the other process as soon as it is revoked, though that process held it", async () => {
    const owner = await signUpVerified(a.url, a.inbox!, `tokens-two-${Date.now().toString(36)}@example.com`);
    const { token, secret } = (await owner.post("/api/me/tokens", { name: "Two", scope: "read" })).body.data;
    const onB = () => fetch(`${b.url}/api/projects`, { headers: { authorization: `Bearer ${secret}` } });
    // B resolves it and keeps it.
    expect((await onB()).status).toBe(200);
    expect((await onB()).status).toBe(200);
    expect((await owner.delete(`/api/me/tokens/${token.id}`)).status).toBe(200);
    await expect.poll(async () => (await onB()).status, { timeout: 2_000, interval: 20 }).toBe(401);
  });
});
