/**
 * The instance admin through its API, as an operator named in ADMIN_EMAILS uses it: every /api/admin route
 * is a 404 for anyone else (signed out, another user, the operator's address unverified, the operator's
 * API token) and changes nothing; users are found, disabled (sessions end, sign-in refused), enabled and
 * granted plans; teams are disabled and enabled (their people see it); usage comes from the analytics
 * events; the outbox and the queue are read; every action is in the audit.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents, outgoingMails, users } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { MAX_ATTEMPTS } from "../../lib/mail/durable-mailer.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

const OPERATOR = "operator@example.com";
const PASSWORD = "correct horse battery";

describe.each(routeDrivers())("instance admin (%s)", (driver) => {
  let t: TestApp;
  let operator: ApiClient;
  let ada: Person;

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { adminEmails: [OPERATOR, "second-operator@example.com"] } });
    operator = await signUpVerified(t.url, t.inbox!, OPERATOR, PASSWORD, "Olive Operator");
    ada = await signUpPerson(t, "ada", "Ada Lovelace");
  });
  afterAll(() => t.close());

  const adminRoutes = () =>
    t.registry
      .filter((route) => route.url.startsWith("/api/admin/"))
      .map(({ method, url }) => ({
        method,
        path: url.replace(":userId", ada.uid).replace(":teamId", "team-that-is-not-there"),
      }));

  it("answers 404 on every admin route to anyone but an operator's verified browser session, changing nothing", async () => {
    expect(adminRoutes().length).toBeGreaterThanOrEqual(10);
    const unverified = new ApiClient(t.url);
    await unverified.post("/api/auth/sign-up/email", {
      email: "second-operator@example.com",
      password: PASSWORD,
      name: "Unverified operator",
    });
    const token = (await operator.post("/api/me/tokens", { name: "Ops", scope: "read-write" })).body.data
      .secret as string;
    const callers: [string, (method: string, path: string) => Promise<{ status: number; body: any }>][] = [
      [
        "signed out",
        (method, path) => new ApiClient(t.url).request(method, path, method === "GET" ? undefined : {}),
      ],
      ["another user", (method, path) => ada.client.request(method, path, method === "GET" ? undefined : {})],
      [
        "an unverified operator address",
        (method, path) => unverified.request(method, path, method === "GET" ? undefined : {}),
      ],
      [
        "the operator's API token",
        (method, path) =>
          new ApiClient(t.url).request(method, path, method === "GET" ? undefined : {}, {
            authorization: `Bearer ${token}`,
          }),
      ],
    ];
    for (const [who, call] of callers)
      for (const { method, path } of adminRoutes()) {
        const answer = await expectRefused(t, () => call(method, path), 404);
        expect(answer.status, `${who}: ${method} ${path}`).toBe(404);
      }
    // Malformed input from a non-admin is still "no such route", never a 400 that admits it exists.
    await expectRefused(t, () => ada.client.post(`/api/admin/users/${ada.uid}/grant`, { kind: "nope" }), 404);
  });

  it("tells only the operator's own browser session that it is one (the menu's link to /admin)", async () => {
    expect((await operator.get("/api/me")).body.data.isAdmin).toBe(true);
    expect((await ada.client.get("/api/me")).body.data.isAdmin).toBeUndefined();
    const token = (await operator.post("/api/me/tokens", { name: "Read", scope: "read" })).body.data
      .secret as string;
    const viaToken = await new ApiClient(t.url).request("GET", "/api/me", undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.data.isAdmin).toBeUndefined();
  });

  it("finds users by e-mail or name, a page at a time", async () => {
    const byName = await operator.get("/api/admin/users?q=lovelace");
    expect(byName.status).toBe(200);
    expect(byName.body.data.items.map((user: { email: string }) => user.email)).toEqual([ada.address]);
    expect(byName.body.data).toMatchObject({ page: 1, pageSize: 25, total: 1 });
    const byMail = await operator.get(
      `/api/admin/users?q=${encodeURIComponent(ada.address.slice(0, 8).toUpperCase())}`,
    );
    expect(byMail.body.data.items[0]).toMatchObject({ id: ada.uid, disabledAt: null, isAdmin: false });
    // A wildcard is a letter like any other.
    expect((await operator.get("/api/admin/users?q=%25")).body.data.total).toBe(0);
    const everyone = await operator.get("/api/admin/users");
    expect(everyone.body.data.total).toBeGreaterThanOrEqual(2);
    expect(everyone.body.data.items.find((user: { email: string }) => user.email === OPERATOR).isAdmin).toBe(
      true,
    );
    expect((await operator.get("/api/admin/users?page=2")).body.data.items).toEqual([]);
    await expectRefused(t, () => operator.get("/api/admin/users?page=0"), 400, "validation");
  });

  it("disables a user — their sessions end and they cannot sign in — and enables them again, each audited", async () => {
    const bob = await signUpPerson(t, "bob", "Bob");
    const token = (await bob.client.post("/api/me/tokens", { name: "Script", scope: "read" })).body.data
      .secret as string;
    const script = () =>
      new ApiClient(t.url).request("GET", "/api/me", undefined, { authorization: `Bearer ${token}` });
    expect((await script()).status).toBe(200);

    const disabled = await operator.post(`/api/admin/users/${bob.uid}/disable`, {});
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.disabledAt).toEqual(expect.any(String));
    expect((await bob.client.get("/api/me")).status).toBe(401);
    expect((await script()).status).toBe(401);
    const signIn = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: bob.address,
      password: PASSWORD,
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe("USER_DISABLED");

    // Disabling again changes nothing and records nothing.
    expect((await operator.post(`/api/admin/users/${bob.uid}/disable`, {})).status).toBe(200);

    expect((await operator.post(`/api/admin/users/${bob.uid}/enable`, {})).body.data.disabledAt).toBeNull();
    const back = new ApiClient(t.url);
    expect(
      (await back.post("/api/auth/sign-in/email", { email: bob.address, password: PASSWORD })).status,
    ).toBe(200);
    expect((await back.get("/api/me")).status).toBe(200);
    expect((await script()).status).toBe(200);

    const audit = (await operator.get("/api/admin/audit")).body.data.items.filter(
      (entry: { targetId: string }) => entry.targetId === bob.uid,
    );
    expect(audit.map((entry: { action: string }) => entry.action)).toEqual(["users.enable", "users.disable"]);
    expect(audit[1]).toMatchObject({ adminEmail: OPERATOR, targetKind: "user", targetLabel: bob.address });
  });

  it("refuses to disable an operator, or a user who does not exist, changing nothing", async () => {
    const [self] = await t.ctx.database.db.select().from(users).where(eq(users.email, OPERATOR));
    await expectRefused(
      t,
      () => operator.post(`/api/admin/users/${self!.id}/disable`, {}),
      409,
      "admin-target",
    );
    await expectRefused(t, () => operator.post(`/api/admin/users/${newId()}/disable`, {}), 404);
  });

  it("grants a privilege, a lifetime tier and a partner plan, takes the privilege back, and refuses a bad grant", async () => {
    const cy = await signUpPerson(t, "cy", "Cy");
    const grant = (body: unknown) => operator.post(`/api/admin/users/${cy.uid}/grant`, body);
    expect((await grant({ kind: "privilege", plan: "team" })).body.data.privilege).toBe("team");
    // Cy's own process forgets their cached session when the database announces the change (a NOTIFY).
    await expect.poll(async () => (await cy.client.get("/api/me")).body.data.privilege).toBe("team");
    expect((await grant({ kind: "lifetime", tier: 2 })).body.data.lifetimeTiers).toEqual(["tier_2"]);
    expect((await grant({ kind: "partner", plan: "C" })).body.data.partnerPlan).toBe("C");
    expect((await grant({ kind: "privilege", plan: null })).body.data.privilege).toBeNull();
    await expectRefused(t, () => grant({ kind: "privilege", plan: "gold" }), 400, "validation");
    await expectRefused(t, () => grant({ kind: "lifetime", tier: 9 }), 400, "validation");
    await expectRefused(t, () => grant([]), 400);
    const grants = (await operator.get("/api/admin/audit")).body.data.items.filter(
      (entry: { targetId: string }) => entry.targetId === cy.uid,
    );
    expect(grants.map((entry: { details: unknown }) => entry.details)).toEqual([
      { kind: "privilege", plan: null },
      { kind: "partner", plan: "C" },
      { kind: "lifetime", tier: 2 },
      { kind: "privilege", plan: "team" },
    ]);
  });

  it("disables and enables a team: its people read it disabled and lose team changes; a lapsed plan reads free", async () => {
    t.ctx.config.plansEnabled = true;
    try {
      const owner = await signUpPerson(t, "dee", "Dee");
      const member = await signUpPerson(t, "eve", "Eve");
      const teamId = (await owner.client.post("/api/teams", { product: "web", name: "Studio" })).body.data
        .id as string;
      await owner.client.post(`/api/teams/${teamId}/members`, { email: member.address, access: "member" });
      await operator.post(`/api/admin/users/${owner.uid}/grant`, { kind: "privilege", plan: "team" });
      const listed = async () =>
        (await operator.get("/api/admin/teams?q=studio")).body.data.items.find(
          (team: { id: string }) => team.id === teamId,
        );
      expect(await listed()).toMatchObject({
        isDisabled: false,
        isPaid: true,
        members: 2,
        ownerEmail: owner.address,
      });

      const disabled = await operator.post(`/api/admin/teams/${teamId}/disable`, {});
      expect(disabled.status).toBe(200);
      expect(disabled.body.data.isDisabled).toBe(true);
      for (const person of [owner, member]) {
        const team = (await person.client.get(`/api/teams/${teamId}`)).body.data;
        expect(team.isDisabled).toBe(true);
        expect(team.plan.isPaid).toBe(false);
      }
      expect((await owner.client.get(`/api/teams/${teamId}`)).body.data.abilities.addMembers).toBe(false);
      await expectRefused(t, () => owner.client.patch(`/api/teams/${teamId}`, { name: "Renamed" }), 403);

      await operator.post(`/api/admin/teams/${teamId}/enable`, {});
      expect((await member.client.get(`/api/teams/${teamId}`)).body.data.isDisabled).toBe(false);

      // The owner's plan lapses: the team is free at once (SPEC §4), with nothing stored to go stale.
      await operator.post(`/api/admin/users/${owner.uid}/grant`, { kind: "privilege", plan: null });
      expect(await listed()).toMatchObject({ isDisabled: false, isPaid: false });
      expect((await member.client.get(`/api/teams/${teamId}`)).body.data.plan.isPaid).toBe(false);

      const actions = (await operator.get("/api/admin/audit")).body.data.items
        .filter((entry: { targetId: string }) => entry.targetId === teamId)
        .map((entry: { action: string; targetLabel: string }) => `${entry.action} ${entry.targetLabel}`);
      expect(actions).toEqual(["teams.enable Studio", "teams.disable Studio"]);
      await expectRefused(t, () => operator.post(`/api/admin/teams/${newId()}/disable`, {}), 404);
    } finally {
      t.ctx.config.plansEnabled = false;
    }
  });

  it("counts sign-ups, comments and the upgrade funnel per day from the analytics events", async () => {
    const { db } = t.ctx.database;
    const day = 86_400_000;
    const at = (ago: number) => new Date(Date.now() - ago);
    // The people this file signed up were counted too (the analytics consumer): only what is added here.
    await t.settled();
    const earlier = (await operator.get("/api/admin/usage?days=60")).body.data;
    const todayBefore = earlier.days.at(-1).counts;
    await db.insert(analyticsEvents).values([
      { id: newId(), name: "SignUp", createdAt: at(0) },
      { id: newId(), name: "SignUp", createdAt: at(0) },
      { id: newId(), name: "NewComment", createdAt: at(2 * day) },
      { id: newId(), name: "UpgradeInitiated", createdAt: at(0) },
      { id: newId(), name: "UpgradeCompleted", createdAt: at(0) },
      { id: newId(), name: "SwitchView", createdAt: at(0) },
      { id: newId(), name: "SignUp", createdAt: at(40 * day) },
    ]);
    const week = await operator.get("/api/admin/usage?days=7");
    expect(week.status).toBe(200);
    const { days, totals } = week.body.data;
    expect(days).toHaveLength(7);
    expect(days[6].day).toBe(new Date().toISOString().slice(0, 10));
    expect(days[6].counts).toMatchObject({
      SignUp: todayBefore.SignUp + 2,
      UpgradeInitiated: todayBefore.UpgradeInitiated + 1,
      UpgradeCompleted: todayBefore.UpgradeCompleted + 1,
      NewComment: todayBefore.NewComment,
    });
    expect(days[4].counts.NewComment).toBe(1);
    const added = { SignUp: 2, NewComment: 1, UpgradeInitiated: 1, UpgradeCompleted: 1, UpgradeFailed: 0 };
    expect(totals).toEqual(
      Object.fromEntries(Object.entries(added).map(([name, n]) => [name, earlier.totals[name] + n])),
    );
    expect((await operator.get("/api/admin/usage?days=60")).body.data.totals.SignUp).toBe(
      earlier.totals.SignUp + 3,
    );
    await expectRefused(t, () => operator.get("/api/admin/usage?days=0"), 400, "validation");
    await expectRefused(t, () => operator.get("/api/admin/usage?days=366"), 400, "validation");
  });

  it("shows the outbox's pending and given-up mail with the latest failures, and the job queue's counts", async () => {
    const { db } = t.ctx.database;
    const mail = { to: "lost@example.com", subject: "Lost", text: "…" };
    const failedId = newId();
    await db.insert(outgoingMails).values([
      {
        id: failedId,
        mail,
        attempts: MAX_ATTEMPTS,
        lastError: "550 mailbox unavailable",
        leaseUntil: new Date(Date.now() + 3_600_000),
      },
      {
        id: newId(),
        mail: { ...mail, subject: "Waiting" },
        attempts: 1,
        lastError: "421 try later",
        leaseUntil: new Date(Date.now() + 3_600_000),
      },
    ]);
    const answer = await operator.get("/api/admin/health");
    expect(answer.status).toBe(200);
    const { outbox, queues } = answer.body.data;
    expect(outbox.failed).toBeGreaterThanOrEqual(1);
    expect(outbox.pending).toBeGreaterThanOrEqual(1);
    expect(outbox.recentFailures.find((row: { id: string }) => row.id === failedId)).toMatchObject({
      to: "lost@example.com",
      subject: "Lost",
      attempts: MAX_ATTEMPTS,
      lastError: "550 mailbox unavailable",
    });
    expect(Array.isArray(queues)).toBe(true);
    for (const row of queues)
      expect(row).toEqual({ name: expect.any(String), state: expect.any(String), count: expect.any(Number) });
    await db.delete(outgoingMails).where(and(eq(outgoingMails.id, failedId)));
  });
});
