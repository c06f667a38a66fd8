/**
 * The server's analytics (SPEC §7) come from the ledger: a sign-up, a sign-in, a project, a team, a comment,
 * suggested edits and a completed upgrade each leave one row in `analytics_events`, named after the person
 * — or bare when their browser asked not to be tracked. With forwarding configured, the rows reach the
 * product-analytics service (the embedded PostHog stand-in) once each, private ones never.
 */

import type { CapturedEvent } from "@redline/stand-ins";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "../../db/schema/index.ts";
import { testAnchor } from "../../testing/anchors.ts";
import { eventually, subscribe } from "../../testing/payments.ts";
import { type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers, routeDrivers } from "../../testing/test-db.ts";

const anchor = testAnchor();

describe.each(drivers())("analytics from the ledger (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    ada = await signUpPerson(t, "ada", "Ada");
  });
  afterAll(() => t.close());

  const rowsOf = async (userId: string | null, names: string[]) => {
    await t.settled();
    return t.ctx.database.db
      .select({
        name: analyticsEvents.name,
        userId: analyticsEvents.userId,
        properties: analyticsEvents.properties,
      })
      .from(analyticsEvents)
      .where(
        and(
          inArray(analyticsEvents.name, names),
          userId === null ? undefined : eq(analyticsEvents.userId, userId),
        ),
      );
  };

  it("counts a sign-up and each password sign-in, not the sessions a sign-up opens by itself", async () => {
    expect(await rowsOf(ada.uid, ["SignUp", "SignIn"])).toEqual([
      { name: "SignUp", userId: ada.uid, properties: { source: "email" } },
    ]);
    const signIn = await ada.client.post("/api/auth/sign-in/email", {
      email: ada.address,
      password: "correct horse battery",
    });
    expect(signIn.status).toBe(200);
    expect((await rowsOf(ada.uid, ["SignIn"])).length).toBe(1);
  });

  it("counts a project, a team, a comment and suggested edits as their author's", async () => {
    const project = await ada.client.post("/api/projects", { title: "Counted" });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const team = await ada.client.post("/api/teams", { name: "Counters", product: "web" });
    expect(team.status).toBeLessThan(300);
    const { versionId } = (
      await ada.client.post(`/api/projects/${project.body.data.id}/pages`, { url: "https://example.com/a" })
    ).body.data;
    const comment = await ada.client.post(`/api/versions/${versionId}/comments`, {
      anchor,
      dotPosition: { x: 0.25, y: 0.5 },
      deviceWidth: 1280,
      comment: "Counted",
    });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    const edits = await ada.client.post(`/api/versions/${versionId}/changes`, {
      changes: [{ changeType: "style", anchor, property: "color", value: "red", deviceWidth: 1280 }],
    });
    expect(edits.status).toBe(200);
    const rows = await rowsOf(ada.uid, ["NewProject", "NewTeam", "NewComment", "NewEdit"]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: "NewProject", userId: ada.uid, properties: { type: "web" } },
        { name: "NewTeam", userId: ada.uid, properties: { product: "web" } },
        {
          name: "NewComment",
          userId: ada.uid,
          properties: { projectId: project.body.data.id, guest: false },
        },
        { name: "NewEdit", userId: ada.uid, properties: { projectId: project.body.data.id, edits: 1 } },
      ]),
    );
    expect(rows).toHaveLength(4);
  });

  it("keeps a project created by a browser asking not to be tracked without its person", async () => {
    const before = (await rowsOf(null, ["NewProject"])).filter((row) => row.userId === null).length;
    const made = await ada.client.request("POST", "/api/projects", { title: "Private" }, { "sec-gpc": "1" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const anonymous = (await rowsOf(null, ["NewProject"])).filter((row) => row.userId === null);
    expect(anonymous).toHaveLength(before + 1);
    expect(anonymous.at(-1)!.properties).toEqual({});
  });

  it("counts an upgrade when the subscription first holds its plan, once", async () => {
    const bo = await signUpPerson(t, "bo", "Bo");
    t.ctx.config.plansEnabled = true;
    await subscribe(bo.client, "pro-monthly").finally(() => {
      t.ctx.config.plansEnabled = false;
    });
    const rows = await eventually(async () => {
      const found = await rowsOf(bo.uid, ["UpgradeCompleted"]);
      return found.length > 0 ? found : undefined;
    });
    expect(rows).toEqual([
      { name: "UpgradeCompleted", userId: bo.uid, properties: { planId: "pro-monthly", provider: "card" } },
    ]);
    // The provider's later re-reads of the same subscription change nothing.
    await t.settled();
    expect(await rowsOf(bo.uid, ["UpgradeCompleted"])).toHaveLength(1);
  });
});

describe.each(routeDrivers())("analytics forwarded to a product-analytics service (%s)", (driver) => {
  let t: TestApp;
  const apiKey = "phc_redline_test";

  beforeAll(async () => {
    t = await startTestApp({ driver, env: { POSTHOG_API_KEY: apiKey } });
  });
  afterAll(() => t.close());

  const received = async (): Promise<CapturedEvent[]> =>
    (await (await fetch(`${t.url}/dev/posthog/api/events`)).json()).results;

  it("forwards each event once, through PostHog's capture API, and never a private one", async () => {
    expect(t.ctx.config.productAnalytics).toMatchObject({ embedded: true, host: `${t.url}/dev/posthog` });
    const cy = await signUpPerson(t, "cy", "Cy");
    await cy.client.post("/api/projects", { title: "Forwarded" });
    await cy.client.request("POST", "/api/projects", { title: "Not forwarded" }, { dnt: "1" });
    const events = await eventually(async () => {
      const mine = (await received()).filter((event) => event.distinctId === cy.uid);
      // The forwarder sends in batches: the sign-up may arrive after the project.
      const names = new Set(mine.map((event) => event.event));
      return names.has("NewProject") && names.has("SignUp") ? mine : undefined;
    });
    expect(events.map((event) => event.event).sort()).toEqual(["NewProject", "SignUp"]);
    expect(events.find((event) => event.event === "NewProject")).toMatchObject({
      properties: { type: "web" },
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
    // The private project was counted here, without its person, and not sent.
    await t.settled();
    const kept = await t.ctx.database.db
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.name, "NewProject"));
    expect(kept.filter((row) => row.userId === null)).toHaveLength(1);
    const mine = (await received()).filter((event) => event.distinctId === cy.uid);
    expect(mine.map((event) => event.event).sort()).toEqual(["NewProject", "SignUp"]);
    expect((await received()).filter((event) => event.event === "NewProject")).toHaveLength(1);
  });

  it("answers a wrong project key as PostHog does, and keeps nothing of it", async () => {
    const before = (await received()).length;
    const answer = await fetch(`${t.url}/dev/posthog/batch/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: "phc_wrong", batch: [{ event: "SignIn", distinct_id: "x" }] }),
    });
    expect(answer.status).toBe(401);
    expect((await received()).length).toBe(before);
  });
});
