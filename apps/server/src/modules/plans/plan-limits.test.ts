/**
 * The plan limits a caller meets on the server (SPEC §9): projects per product and collaborators per
 * project, and the SPEC §6 features (guest comments, web app projects), checked in the transaction that
 * acts, refused with a typed 402 that changes nothing; the free plan's page limit and expiry as the API
 * presents them. Storage has its own file (storage.test.ts).
 */

import { WEB_APP_MESSAGE } from "@redline/shared";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectMembers, projects, users } from "../../db/schema/index.ts";
import { testComment } from "../../testing/anchors.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { routeIt } from "../../testing/route-it.ts";
import { setLimits, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(drivers())("plan limits (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  const signUp = (name: string) => signUpVerified(t.url, t.inbox!, email(name));
  const ownedProjects = async (client: ApiClient) => {
    const uid = (await client.get("/api/me")).body.data.uid as string;
    const [row] = await t.ctx.database.db
      .select({ n: count() })
      .from(projects)
      .where(eq(projects.ownerId, uid));
    return row!.n;
  };

  routeIt(driver)(
    "gives a free user one website project with 5 pages, then refuses the next with a typed 402",
    async () => {
      const client = await signUp("free-web");
      const first = await client.post("/api/projects", { type: "web", title: "Site" });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ pageLimit: 5, pagesLeft: 5, expiresAt: null });

      const second = await client.post("/api/projects", { type: "web", title: "Another site" });
      expect(second.status).toBe(402);
      expect(second.body).toMatchObject({
        code: "project-limit",
        message: "Your plan allows 1 website project. Upgrade to add more.",
        limit: { kind: "projects", product: "web", limit: 1 },
      });
      expect(await ownedProjects(client)).toBe(1);

      // The bug tracker is another product with its own allowance: two projects.
      expect((await client.post("/api/projects", { type: "browse", title: "Bugs 1" })).status).toBe(201);
      expect((await client.post("/api/projects", { type: "browse", title: "Bugs 2" })).status).toBe(201);
      const third = await client.post("/api/projects", { type: "mobile", title: "Bugs 3" });
      expect(third.body).toMatchObject({ code: "project-limit", limit: { product: "browse", limit: 2 } });
      expect(await ownedProjects(client)).toBe(3);
    },
  );

  it("lets only one of several creations at once take the last place", async () => {
    const client = await signUp("racer");
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) => client.post("/api/projects", { type: "web", title: `Racer ${i}` })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 402, 402, 402]);
    expect(await ownedProjects(client)).toBe(1);
  });

  routeIt(driver)(
    "starts a webapp project's two days on a plan with limited projects, and none once they are unlimited",
    async () => {
      const client = await signUp("raised");
      const uid = (await client.get("/api/me")).body.data.uid as string;
      // Standard includes web apps (SPEC §6) and allows 2 projects.
      await t.ctx.database.db.update(users).set({ privilege: "standard" }).where(eq(users.id, uid));
      const app = (await client.post("/api/projects", { type: "webapp", title: "App" })).body.data;
      expect(new Date(app.expiresAt).getTime() - new Date(app.createdAt).getTime()).toBe(
        2 * 24 * 3600 * 1000,
      );
      await setLimits(t, client, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
      const more = await client.post("/api/projects", { type: "webapp", title: "Another" });
      expect(more.status).toBe(201);
      // Unlimited projects: nothing expires (SPEC §4), and pages are unlimited too.
      expect(more.body.data).toMatchObject({ expiresAt: null, pageLimit: -1, pagesLeft: null });
    },
  );

  routeIt(driver)(
    "keeps web app projects for plans that include them (SPEC §6): the free plan creates none",
    async () => {
      const client = await signUp("webapp-gate");
      const uid = (await client.get("/api/me")).body.data.uid as string;
      const refused = await client.post("/api/projects", { type: "webapp", title: "App" });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({
        code: "web-app",
        message: WEB_APP_MESSAGE,
        limit: { kind: "feature", product: "web", limit: 0 },
      });
      expect(await ownedProjects(client)).toBe(0);
      expect((await client.get("/api/me")).body.data.plans.web.entitlements.webApp).toBe(false);

      // Raised project limits are not a plan: still no web apps.
      await setLimits(t, client, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
      expect((await client.post("/api/projects", { type: "webapp", title: "App" })).body.code).toBe(
        "web-app",
      );
      expect(await ownedProjects(client)).toBe(0);

      // A lifetime deal (tier 1) includes them; so does a partner plan.
      await t.ctx.database.db
        .update(users)
        .set({ lifetimeDeal: { isDisabled: false, invoices: [{ plan: "tier_1" }] } })
        .where(eq(users.id, uid));
      const created = await client.post("/api/projects", { type: "webapp", title: "App" });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ type: "webapp", owner: uid });
      expect((await client.get("/api/me")).body.data.plans.web.entitlements.webApp).toBe(true);
      await t.ctx.database.db
        .update(users)
        .set({ lifetimeDeal: null, partnerPlan: "A" })
        .where(eq(users.id, uid));
      expect((await client.post("/api/projects", { type: "webapp", title: "App 2" })).status).toBe(201);
      expect(await ownedProjects(client)).toBe(2);
    },
  );

  routeIt(driver)(
    "follows what the user holds: a Pro privilege lifts the project and page limits at once",
    async () => {
      const client = await signUp("privileged");
      expect((await client.post("/api/projects", { type: "web", title: "One" })).status).toBe(201);
      expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(402);
      const uid = (await client.get("/api/me")).body.data.uid as string;
      await t.ctx.database.db.update(users).set({ privilege: "pro" }).where(eq(users.id, uid));
      const two = await client.post("/api/projects", { type: "web", title: "Two" });
      expect(two.status).toBe(201);
      expect(two.body.data).toMatchObject({ pageLimit: -1, pagesLeft: null });
      const me = (await client.get("/api/me")).body.data;
      expect(me.limits.web).toEqual({ projects: -1, pages: -1 });
      expect(me.plans.web).toMatchObject({ name: "Pro", hideUpsells: true });
      const listed = (await client.get("/api/projects?list=all")).body.data as { pageLimit: number }[];
      expect(listed.map((project) => project.pageLimit)).toEqual([-1, -1]);
    },
  );

  routeIt(driver)(
    "shares a free project with 5 people, refuses a sixth, and still changes an existing member's access",
    async () => {
      const owner = await signUp("sharer");
      const projectId = (await owner.post("/api/projects", { type: "web", title: "Shared" })).body.data.id;
      const invitees = Array.from({ length: 6 }, (_, i) => email(`guest${i}`));
      for (const invitee of invitees.slice(0, 5))
        expect(
          (await owner.post(`/api/projects/${projectId}/members`, { email: invitee, access: "comment" }))
            .status,
        ).toBe(201);
      const sixth = await owner.post(`/api/projects/${projectId}/members`, {
        email: invitees[5],
        access: "comment",
      });
      expect(sixth.status).toBe(402);
      expect(sixth.body).toMatchObject({
        code: "collaborator-limit",
        limit: { kind: "collaborators", product: "web", limit: 5 },
      });
      const members = async () =>
        (
          await t.ctx.database.db
            .select({ n: count() })
            .from(projectMembers)
            .where(eq(projectMembers.projectId, projectId))
        )[0]!.n;
      expect(await members()).toBe(5);
      const changed = await owner.post(`/api/projects/${projectId}/members`, {
        email: invitees[0],
        access: "edit",
      });
      expect(changed.status).toBe(201);
      const [row] = await t.ctx.database.db
        .select({ access: projectMembers.access })
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.email, invitees[0]!)));
      expect(row?.access).toBe("edit");

      // On the owner's Pro privilege a project may be shared with 20 people.
      const uid = (await owner.get("/api/me")).body.data.uid as string;
      await t.ctx.database.db.update(users).set({ privilege: "pro" }).where(eq(users.id, uid));
      expect(
        (await owner.post(`/api/projects/${projectId}/members`, { email: invitees[5], access: "view" }))
          .status,
      ).toBe(201);
      expect(await members()).toBe(6);
    },
  );

  routeIt(driver)(
    "keeps guest comments for plans that include them (SPEC §6): a free website project's link is view-only",
    async () => {
      const owner = await signUp("guest-gate");
      const projectId = (await owner.post("/api/projects", { type: "web", title: "Gate" })).body.data
        .id as string;
      const { versionId } = (
        await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/g" })
      ).body.data;
      const opened = await owner.patch(`/api/projects/${projectId}/sharing`, { public: true });
      expect(opened.status).toBe(200);
      // The share modal shows "Allow comments" as guests get it: off, though links start with it stored on.
      expect(opened.body.data).toMatchObject({ public: true, canComment: false });
      expect((await owner.get(`/api/projects/${projectId}`)).body.data.sharing.canComment).toBe(false);
      const refused = await owner.patch(`/api/projects/${projectId}/sharing`, { canComment: true });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({
        code: "guest-commenting",
        limit: { kind: "feature", product: "web" },
      });
      // Even a link that says so lets guests view only.
      await t.ctx.database.db
        .update(projects)
        .set({ sharing: { public: true, canComment: true } as never })
        .where(eq(projects.id, projectId));
      const guest = new ApiClient(t.url);
      const viewOnly = (await guest.get(`/api/share/${projectId}`)).body.data;
      expect(viewOnly).toMatchObject({ access: "view", sharing: { canComment: false } });
      const comment = testComment("From a client");
      const asGuest = () =>
        guest.request("POST", `/api/share/${projectId}/versions/${versionId}/comments`, comment, {
          "x-redline-guest": "guest__2__Gail__gail@example.com",
        });
      expect((await asGuest()).status).toBe(403);

      // On Pro (here a privilege) guests comment.
      const uid = (await owner.get("/api/me")).body.data.uid as string;
      await t.ctx.database.db.update(users).set({ privilege: "pro" }).where(eq(users.id, uid));
      const allowed = await owner.patch(`/api/projects/${projectId}/sharing`, { canComment: true });
      expect(allowed.status).toBe(200);
      expect(allowed.body.data.canComment).toBe(true);
      expect((await owner.get(`/api/projects/${projectId}`)).body.data.sharing.canComment).toBe(true);
      expect((await guest.get(`/api/share/${projectId}`)).body.data.access).toBe("comment");
      expect((await asGuest()).status).toBe(201);
    },
  );

  routeIt(driver)(
    "gates a deck's guest comments the same way: a free illustration project's link is view-only",
    async () => {
      const owner = await signUp("deck-gate");
      const created = await owner.post("/api/projects", { type: "illustration", title: "Deck gate" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const projectId = created.body.data.id as string;
      // Even a link that says so lets guests view only: they read the deck and its comments, never pin one.
      await t.ctx.database.db
        .update(projects)
        .set({ sharing: { public: true, canComment: true } as never })
        .where(eq(projects.id, projectId));
      const guest = new ApiClient(t.url);
      expect((await guest.get(`/api/share/${projectId}`)).body.data.access).toBe("view");
      expect((await guest.get(`/api/share/${projectId}/deck`)).status).toBe(200);
      expect((await guest.get(`/api/share/${projectId}/slide-comments`)).status).toBe(200);
      const pin = () =>
        guest.request(
          "POST",
          `/api/share/${projectId}/slides/any/comments`,
          { dotPosition: { x: 0.5, y: 0.5 }, comment: "From a client" },
          { "x-redline-guest": "guest__2__Gail__gail@example.com" },
        );
      const refused = await pin();
      expect([refused.status, refused.body.code]).toEqual([403, "link-comments-off"]);

      // On Pro (here a privilege) the policy lets the guest through (to the slide check: there is none).
      const uid = (await owner.get("/api/me")).body.data.uid as string;
      await t.ctx.database.db.update(users).set({ privilege: "pro" }).where(eq(users.id, uid));
      expect((await guest.get(`/api/share/${projectId}`)).body.data.access).toBe("comment");
      const reached = await pin();
      expect([reached.status, reached.body.code]).toEqual([400, "slide-not-found"]);
    },
  );
});

describe("plan limits with plans switched off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver: "pglite", config: { plansEnabled: false } });
  });
  afterAll(() => t.close());

  it("lets a new user create any number of projects of any type (web apps too) and pages", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("unlimited"));
    for (const type of ["web", "webapp", "web", "webapp", "browse", "browse", "browse"])
      expect((await client.post("/api/projects", { type, title: type })).status).toBe(201);
    const listed = (await client.get("/api/projects?list=all")).body.data as { pageLimit: number }[];
    expect(listed.every((project) => project.pageLimit === -1)).toBe(true);
  });
});
