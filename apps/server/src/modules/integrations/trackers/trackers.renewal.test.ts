import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectIntegrations } from "../../../db/schema/index.ts";
import { type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { connectTracker } from "../../../testing/trackers.ts";
import { trackerSecrets } from "./trackers.load.ts";
import { RENEW_AFTER_DAYS, renewTrackerWebhooks, WEBHOOK_RENEWAL_QUEUE } from "./trackers.renewal.ts";

const DAY = 86_400_000;

describe.each(drivers())("Jira webhooks' renewal (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  const json = { "content-type": "application/json" };
  const row = async () =>
    (
      await t.ctx.database.db
        .select()
        .from(projectIntegrations)
        .where(eq(projectIntegrations.projectId, projectId))
    )[0]!;
  /** The webhook's id at Jira (`{cloudId}/{id}` kept sealed). */
  const hookNumber = async () =>
    trackerSecrets(t.ctx)
      .open(await row())
      .hookId!.split("/")[1];
  const expiresAt = async () =>
    (await (await fetch(`${t.url}/dev/jira/_webhooks/${await hookNumber()}`)).json()).data
      .expiresAt as number;
  /** As if days had passed at Jira: the webhook ends in `days`. */
  const endsIn = async (days: number) => {
    const set = await fetch(`${t.url}/dev/jira/_webhooks/${await hookNumber()}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ expiresAt: Date.now() + days * DAY }),
    });
    expect(set.status).toBe(200);
  };
  const renewedAt = async () => ((await row()).config as { hookRenewedAt?: string }).hookRenewedAt;
  const lastRenewed = async (at: Date) =>
    t.ctx.database.db
      .update(projectIntegrations)
      .set({ config: { ...((await row()).config as object), hookRenewedAt: at.toISOString() } })
      .where(eq(projectIntegrations.projectId, projectId));

  beforeAll(async () => {
    // The stand-in answers 500 when told to: the test's 5xx.
    t = await startTestApp({ driver, allowServerErrors: true });
    owner = await signUpPerson(t, "owner", "Olivia Owner");
    projectId = (await owner.client.post("/api/projects", { title: "Jira hooks" })).body.data.id;
    await connectTracker(t, owner, { projectId, tracker: "jira", account: "Jade Jira" });
  });
  afterAll(async () => {
    await t.close();
  });

  it("extends a webhook never extended, and one extended longer ago than the margin; not a recent one", async () => {
    expect(await renewedAt()).toBeUndefined();
    await endsIn(2);
    const now = new Date();
    expect(await renewTrackerWebhooks(t.ctx, now)).toEqual({ renewed: 1, failed: 0 });
    expect(await expiresAt()).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(await renewedAt()).toBe(now.toISOString());

    // Extended a day ago: left alone.
    await lastRenewed(new Date(Date.now() - DAY));
    await endsIn(29);
    const before = await expiresAt();
    expect(await renewTrackerWebhooks(t.ctx)).toEqual({ renewed: 0, failed: 0 });
    expect(await expiresAt()).toBe(before);

    // Extended longer ago than the margin: extended again.
    await lastRenewed(new Date(Date.now() - (RENEW_AFTER_DAYS + 1) * DAY));
    await endsIn(9);
    expect(await renewTrackerWebhooks(t.ctx)).toEqual({ renewed: 1, failed: 0 });
    expect(await expiresAt()).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it("leaves a webhook Jira failed to extend due for the next pass", async () => {
    const old = new Date(Date.now() - (RENEW_AFTER_DAYS + 5) * DAY);
    await lastRenewed(old);
    await endsIn(5);
    await fetch(`${t.url}/dev/jira/_faults`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ status: 500, times: 1 }),
    });
    expect(await renewTrackerWebhooks(t.ctx)).toEqual({ renewed: 0, failed: 1 });
    expect(await renewedAt()).toBe(old.toISOString());
    expect(await expiresAt()).toBeLessThan(Date.now() + 6 * DAY);
    expect(await renewTrackerWebhooks(t.ctx)).toEqual({ renewed: 1, failed: 0 });
    expect(await expiresAt()).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it("is done by the queue's renewal job", async () => {
    await lastRenewed(new Date(Date.now() - (RENEW_AFTER_DAYS + 1) * DAY));
    await endsIn(3);
    await t.ctx.queue.send(WEBHOOK_RENEWAL_QUEUE, {});
    await expect.poll(expiresAt, { timeout: 30_000 }).toBeGreaterThan(Date.now() + 29 * DAY);
    await expect
      .poll(async () => Date.parse((await renewedAt())!), { timeout: 10_000 })
      .toBeGreaterThan(Date.now() - 5 * 60_000);
  });
});
