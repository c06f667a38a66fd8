/**
 * The browser's analytics land in the installation's own database: named after the user when signed in,
 * anonymous and bare when the browser asks not to be tracked (GPC, DNT); malformed events are refused and
 * store nothing; the event log is rate-limited like every write.
 */
import { desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "../../db/schema/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

describe.each(routeDrivers())("analytics events (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { apiRateLimit: 6 } });
    ada = await signUpPerson(t, "ada", "Ada Lovelace");
  });
  afterAll(() => t.close());

  const latest = async () => {
    await t.settled();
    const [row] = await t.ctx.database.db
      .select()
      .from(analyticsEvents)
      .orderBy(desc(analyticsEvents.createdAt))
      .limit(1);
    return row;
  };

  it("stores a signed-in user's event with its properties, and a visitor's without a user", async () => {
    const sent = await ada.client.post("/api/analytics/events", {
      event: "SwitchView",
      properties: { view: "board" },
    });
    expect(sent.status).toBe(204);
    expect(await latest()).toMatchObject({
      name: "SwitchView",
      userId: ada.uid,
      properties: { view: "board" },
    });

    const visitor = new ApiClient(t.url);
    expect((await visitor.post("/api/user-event", { text: "opened pricing" })).status).toBe(204);
    expect(await latest()).toMatchObject({
      name: "user-event",
      userId: null,
      properties: { text: "opened pricing" },
    });
  });

  it("keeps only the count when the browser sends Global Privacy Control or Do Not Track", async () => {
    const privacyHeaders: Record<string, string>[] = [{ "sec-gpc": "1" }, { dnt: "1" }];
    for (const header of privacyHeaders) {
      const sent = await ada.client.request(
        "POST",
        "/api/analytics/events",
        { event: "GrabDealClicked", properties: { deal: "spring" } },
        header,
      );
      expect(sent.status).toBe(204);
      expect(await latest()).toMatchObject({ name: "GrabDealClicked", userId: null, properties: {} });
    }
  });

  it("refuses an unknown event, a server-side event, nested properties and an empty log line, storing nothing", async () => {
    // Her own caller: five refusals still count towards the rate limit of six.
    const cy = await signUpPerson(t, "cy", "Cy");
    const post = (path: string, body: unknown) => () => cy.client.post(path, body);
    await expectRefused(t, post("/api/analytics/events", { event: "Hacked" }), 400);
    await expectRefused(t, post("/api/analytics/events", { event: "SignUp" }), 400);
    await expectRefused(
      t,
      post("/api/analytics/events", { event: "SwitchView", properties: { a: { b: 1 } } }),
      400,
    );
    await expectRefused(t, post("/api/analytics/events", { event: "SwitchView", extra: 1 }), 400);
    await expectRefused(t, post("/api/user-event", { text: "   " }), 400);
  });

  it("limits how fast one caller writes the event log", async () => {
    const bea = await signUpPerson(t, "bea", "Bea");
    let status = 0;
    for (let i = 0; i < 8 && status !== 429; i++)
      status = (await bea.client.post("/api/user-event", { text: `line ${i}` })).status;
    expect(status).toBe(429);
  });
});
