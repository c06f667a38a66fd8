/**
 * Privilege links and lifetime-deal codes (SPEC §3, §7 specialPrivilege, §9 lifetime tiers): minted
 * with the instance's secret, single-use, and a refund withdraws the tier cleanly.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redeemedGrants, users } from "../../db/schema/index.ts";
import { digest } from "../../testing/db-digest.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { eventually } from "../../testing/payments.ts";
import { routeIt } from "../../testing/route-it.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import {
  mintLifetimeCode,
  mintPartnerCode,
  mintPrivilegeToken,
  readLifetimeCode,
  readPartnerCode,
  readPrivilegeToken,
  revokeCode,
} from "./grants.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe("grant tokens", () => {
  const secret = "s".repeat(40);
  it("reads back what was minted, and nothing forged", () => {
    const token = mintPrivilegeToken(secret, "team");
    expect(readPrivilegeToken(secret, token).plan).toBe("team");
    expect(() => readPrivilegeToken("t".repeat(40), token)).toThrow("not valid");
    expect(() => readPrivilegeToken(secret, token.replace(/^team/, "pro"))).toThrow("not valid");
    expect(() => readPrivilegeToken(secret, `${token}.x`)).toThrow("not valid");
    expect(() => readPrivilegeToken(secret, mintPrivilegeToken(secret, "team", -1))).toThrow("expired");

    const code = mintLifetimeCode(secret, 2);
    expect(code).toMatch(/^RL2-/);
    expect(readLifetimeCode(secret, code).tier).toBe(2);
    expect(() => readLifetimeCode(secret, code.replace(/^RL2/, "RL3"))).toThrow("not valid");
    expect(() => readLifetimeCode(secret, "RL2-short")).toThrow("not valid");

    const partner = mintPartnerCode(secret, "C");
    expect(partner).toMatch(/^RPC-/);
    expect(readPartnerCode(secret, partner).plan).toBe("C");
    expect(() => readPartnerCode(secret, partner.replace(/^RPC/, "RPD"))).toThrow("not valid");
    expect(() => readPartnerCode(secret, partner.replace(/^RPC/, "RPE"))).toThrow("not valid");
    expect(() => readLifetimeCode(secret, partner)).toThrow("not valid");
  });
});

describe.each(drivers())("privilege links and lifetime codes (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());
  const secret = () => t.ctx.config.authSecret;
  const signUp = (name: string) => signUpVerified(t.url, t.inbox!, email(name));
  const me = async (client: ApiClient) => (await client.get("/api/me")).body.data;

  routeIt(driver)("grants a privilege link's plan once, after sign-up", async () => {
    const client = await signUp("privileged");
    const token = mintPrivilegeToken(secret(), "team");
    const taken = await client.post("/api/me/privilege", { plan: "team", token });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({
      message: "Your plan has been activated.",
      data: {
        privilege: "team",
        plans: { web: { name: "Team", hideUpsells: true }, browse: { name: "Team" } },
      },
    });
    expect((await me(client)).limits.web.projects).toBe(-1);
    for (let i = 0; i < 3; i++)
      expect((await client.post("/api/projects", { type: "web", title: `P${i}` })).status).toBe(201);

    // Single-use: nobody else takes the same link.
    const other = await signUp("latecomer");
    const before = await digest(t.ctx);
    const again = await other.post("/api/me/privilege", { plan: "team", token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("grant-used");
    expect(await digest(t.ctx)).toEqual(before);
    expect((await me(other)).privilege).toBeNull();
  });

  routeIt(driver)(
    "tells a visitor, before they sign up, whether a privilege link can still be used",
    async () => {
      const token = mintPrivilegeToken(secret(), "team");
      const status = async (plan: string, value: string) => {
        const answer = await fetch(`${t.url}/api/privilege-links/${plan}?token=${encodeURIComponent(value)}`);
        return { status: answer.status, body: await answer.json() };
      };
      expect(await status("team", token)).toEqual({
        status: 200,
        body: { data: { usable: true, message: null } },
      });
      expect(await status("pro", token)).toMatchObject({
        status: 200,
        body: { data: { usable: false, message: "This privilege link is not valid." } },
      });
      expect(await status("team", mintPrivilegeToken(secret(), "team", -1))).toMatchObject({
        body: { data: { usable: false, message: "This privilege link has expired." } },
      });
      expect((await status("gold", token)).status).toBe(400);

      const client = await signUp("first-taker");
      expect((await client.post("/api/me/privilege", { plan: "team", token })).status).toBe(200);
      expect(await status("team", token)).toEqual({
        status: 200,
        body: { data: { usable: false, message: "This has already been used." } },
      });
    },
  );

  routeIt(driver)("refuses forged, mismatched and expired links, changing nothing", async () => {
    const client = await signUp("forger");
    const before = await digest(t.ctx);
    const cases = [
      [{ plan: "team", token: mintPrivilegeToken("x".repeat(40), "team") }, 404],
      [{ plan: "pro", token: mintPrivilegeToken(secret(), "team") }, 404],
      [{ plan: "team", token: mintPrivilegeToken(secret(), "team", -1) }, 409],
      [{ plan: "platinum", token: "a.b.c.d" }, 400],
    ] as const;
    for (const [body, status] of cases)
      expect((await client.post("/api/me/privilege", body)).status).toBe(status);
    expect(await digest(t.ctx)).toEqual(before);
  });

  it("lets one of two users racing for one link win", async () => {
    const [a, b] = await Promise.all([signUp("race-a"), signUp("race-b")]);
    const token = mintPrivilegeToken(secret(), "pro");
    const answers = await Promise.all(
      [a!, b!].map((c) => c.post("/api/me/privilege", { plan: "pro", token })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });

  routeIt(driver)("gives lifetime tier 2 for a code, once, and withdraws it cleanly on refund", async () => {
    const client = await signUp("lifetime");
    expect((await client.post("/api/projects", { type: "web", title: "One" })).status).toBe(201);
    expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(402);

    const code = mintLifetimeCode(secret(), 2);
    const redeemed = await client.post("/api/me/lifetime-deal", { code });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({
      message: "Your lifetime deal is active.",
      data: { plans: { web: { name: "Lifetime tier 2", isFree: false, hideUpsells: true } } },
    });
    expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(201);
    expect((await client.post("/api/me/lifetime-deal", { code })).status).toBe(409);
    // The same code with its signature's last character changed (to one it is not): forged.
    const forged = `${code.slice(0, -1)}${code.endsWith("A") ? "B" : "A"}`;
    expect((await client.post("/api/me/lifetime-deal", { code: forged })).status).toBe(404);

    const userId = (await me(client)).uid;
    expect(await revokeCode(t.ctx.database.db, secret(), code)).toBe(userId);
    expect(await revokeCode(t.ctx.database.db, secret(), code)).toBeNull();
    const [row] = await t.ctx.database.db.select().from(users).where(eq(users.id, userId));
    expect(row!.lifetimeDeal).toEqual({ isDisabled: true, invoices: [] });
    // The session cache hears of the change (the database's announcement, as from another process): the
    // plan is free again, the projects stay, none are added.
    const after = await eventually(async () => {
      const read = await me(client);
      return read.plans.web.isFree ? read : undefined;
    });
    expect(after.plans.web).toMatchObject({ name: "Free", isFree: true });
    expect((await client.post("/api/projects", { type: "web", title: "Three" })).status).toBe(402);
    const [grant] = await t.ctx.database.db
      .select()
      .from(redeemedGrants)
      .where(eq(redeemedGrants.userId, userId));
    expect(grant!.revokedAt).not.toBeNull();
  });
});

describe.each(drivers())("partner-program codes (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());
  const secret = () => t.ctx.config.authSecret;
  const me = async (client: ApiClient) => (await client.get("/api/me")).body.data;

  routeIt(driver)(
    "gives the highest partner plan the user holds, once per code, and falls back on revocation",
    async () => {
      const client = await signUpVerified(t.url, t.inbox!, email("partner"));
      expect((await client.post("/api/projects", { type: "web", title: "One" })).status).toBe(201);
      expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(402);

      const planC = mintPartnerCode(secret(), "C");
      const redeemed = await client.post("/api/me/partner-plan", { code: planC });
      expect(redeemed.status).toBe(200);
      expect(redeemed.body).toMatchObject({
        message: "Your partner plan is active.",
        data: { partnerPlan: "C", plans: { web: { name: "Partner plan C", isFree: false } } },
      });
      expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(201);

      // A lower plan's code does not lower the plan; the same code twice is refused and changes nothing.
      const planA = mintPartnerCode(secret(), "A");
      expect((await client.post("/api/me/partner-plan", { code: planA })).body.data.partnerPlan).toBe("C");
      const before = await digest(t.ctx);
      const again = await client.post("/api/me/partner-plan", { code: planC });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("grant-used");
      const forged = await client.post("/api/me/partner-plan", {
        code: mintPartnerCode("f".repeat(40), "D"),
      });
      expect(forged.status).toBe(404);
      const lifetimeHere = await client.post("/api/me/partner-plan", { code: mintLifetimeCode(secret(), 3) });
      expect(lifetimeHere.status).toBe(404);
      expect(await digest(t.ctx)).toEqual(before);

      // Refunds: C leaves, A stands; then A leaves, and the plan is free again (projects stay, none added).
      const userId = (await me(client)).uid;
      expect(await revokeCode(t.ctx.database.db, secret(), planC)).toBe(userId);
      await eventually(async () => (await me(client)).partnerPlan === "A");
      expect(await revokeCode(t.ctx.database.db, secret(), planA)).toBe(userId);
      expect(await revokeCode(t.ctx.database.db, secret(), planA)).toBeNull();
      const after = await eventually(async () => {
        const read = await me(client);
        return read.partnerPlan === null ? read : undefined;
      });
      expect(after.partnerPlan).toBeNull();
      expect(after.plans.web).toMatchObject({ name: "Free", isFree: true });
      expect((await client.post("/api/projects", { type: "web", title: "Three" })).status).toBe(402);
    },
  );

  it("lets one of two users racing for one code win", async () => {
    const [a, b] = await Promise.all(
      ["partner-race-a", "partner-race-b"].map((name) => signUpVerified(t.url, t.inbox!, email(name))),
    );
    const code = mintPartnerCode(secret(), "B");
    const answers = await Promise.all([a!, b!].map((c) => c.post("/api/me/partner-plan", { code })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });
});

describe("npm run grant", () => {
  const run = promisify(execFile);
  const cli = path.resolve(import.meta.dirname, "../../grant-cli.ts");
  const env = { ...process.env, AUTH_SECRET: "c".repeat(40), APP_URL: "https://redline.example" };

  it("prints a privilege link and lifetime codes signed with the instance's secret", async () => {
    const link = (
      await run(process.execPath, ["--import", "tsx", cli, "privilege", "team"], { env })
    ).stdout.trim();
    expect(link).toMatch(/^https:\/\/redline\.example\/signup\/start-privilege\/team\?token=team\./);
    expect(readPrivilegeToken("c".repeat(40), new URL(link).searchParams.get("token")!).plan).toBe("team");
    const codes = (
      await run(process.execPath, ["--import", "tsx", cli, "lifetime", "3", "2"], { env })
    ).stdout
      .trim()
      .split("\n");
    expect(codes).toHaveLength(2);
    for (const code of codes) expect(readLifetimeCode("c".repeat(40), code).tier).toBe(3);
    const partner = (
      await run(process.execPath, ["--import", "tsx", cli, "partner", "D"], { env })
    ).stdout.trim();
    expect(readPartnerCode("c".repeat(40), partner).plan).toBe("D");
    await expect(
      run(process.execPath, ["--import", "tsx", cli, "partner", "E"], { env }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      run(process.execPath, ["--import", "tsx", cli, "lifetime", "4"], { env }),
    ).rejects.toMatchObject({
      code: 2,
    });
  }, 120_000); // five whole processes, each compiling the CLI with tsx
});
