import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, projectIntegrations } from "../../../db/schema/index.ts";
import { testComment } from "../../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { allowAsana } from "../../../testing/trackers.ts";
import { trackerSecrets } from "./trackers.load.ts";

describe.each(drivers())("integrations: Asana (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let versionId: string;
  const base = () => `/api/projects/${projectId}/integrations`;
  const json = { "content-type": "application/json" };
  const integration = async () =>
    (
      await t.ctx.database.db
        .select()
        .from(projectIntegrations)
        .where(eq(projectIntegrations.projectId, projectId))
    )[0];
  const secrets = async () => trackerSecrets(t.ctx).open((await integration())!);
  /** Asana's API as the connected account (its current token). */
  const asana = async (path: string, init?: RequestInit) =>
    fetch(`${t.url}/dev/asana/api/1.0${path}`, {
      ...init,
      headers: { authorization: `Bearer ${(await secrets()).token}`, ...json },
    });
  const standIn = (path: string, body?: unknown) =>
    fetch(`${t.url}/dev/asana${path}`, {
      method: body === undefined ? "GET" : "POST",
      ...(body !== undefined && { body: JSON.stringify(body), headers: json }),
    });
  const refreshes = async () =>
    ((await (await standIn("/_tokens")).json()) as { refreshes: number }).refreshes;
  const pin = async (text: string) =>
    (await owner.client.post(`/api/versions/${versionId}/comments`, testComment(text))).body.data
      .id as string;
  const resolved = async (commentId: string) =>
    (await t.ctx.database.db.select().from(comments).where(eq(comments.id, commentId)))[0]!.isResolved;
  const connect = async () => {
    const started = await owner.client.get(`${base()}/asana/authorize`);
    const granted = await allowAsana(t, started.body.data.url);
    return owner.client.post("/api/integrations/asana/connect", {
      state: granted.state,
      code: granted.code,
    });
  };

  beforeAll(async () => {
    // The stand-in answers 500 when told to, and a revoked grant ends in 502: those 5xx are the test's.
    t = await startTestApp({ driver, allowServerErrors: true });
    owner = await signUpPerson(t, "owner", "Olivia Owner");
    projectId = (await owner.client.post("/api/projects", { title: "Asana tasks" })).body.data.id;
    ({ versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/a" })
    ).body.data);
  });
  afterAll(async () => {
    await t.close();
  });

  it("asks for a code, and keeps Asana's refresh token and expiry sealed", async () => {
    const started = await owner.client.get(`${base()}/asana/authorize`);
    const url = new URL(started.body.data.url);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("redirect_uri")).toBe(`${t.ctx.config.appUrl}/integration/asana`);
    expect((await connect()).status).toBe(200);
    const kept = await secrets();
    expect(kept.refreshToken).toBeTruthy();
    expect(kept.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    const listed = JSON.stringify((await owner.client.get(base())).body);
    expect(listed).not.toContain(kept.token!);
    expect(listed).not.toContain(kept.refreshToken!);
    expect((await integration())!.secrets).not.toContain(kept.refreshToken!);
  });

  it("chooses a project of a workspace; the webhook is made through its handshake", async () => {
    const destinations = await owner.client.get(`${base()}/asana/destinations`);
    expect(destinations.status).toBe(200);
    const [workspace] = destinations.body.data;
    expect(workspace.name).toBe("Ada Asana's Workspace");
    expect(workspace.lists.map((list: { name: string }) => list.name)).toEqual(["Website feedback", "Bugs"]);
    await expectRefused(
      t,
      () => owner.client.put(`${base()}/asana`, { containerId: workspace.id, listId: "1" }),
      400,
      "unknown-destination",
    );
    const saved = await owner.client.put(`${base()}/asana`, {
      containerId: workspace.id,
      listId: workspace.lists[1].id,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.tracker.destination).toMatchObject({
      containerName: "Ada Asana's Workspace",
      listName: "Bugs",
    });
    const kept = await secrets();
    expect(kept.hookId).toBeTruthy();
    expect(kept.hookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(kept.handshakeUntil).toBeUndefined();
    expect(kept.pendingHookSecret).toBeUndefined();
    expect((await standIn(`/_webhooks/${kept.hookId}`)).status).toBe(200);

    // Another project: a new webhook with its own handshake's secret; the old one is deleted at Asana.
    await owner.client.put(`${base()}/asana`, { containerId: workspace.id, listId: workspace.lists[0].id });
    const moved = await secrets();
    expect(moved.hookId).not.toBe(kept.hookId);
    expect(moved.hookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(moved.hookSecret).not.toBe(kept.hookSecret);
    expect(moved.token).toBe(kept.token);
    expect((await standIn(`/_webhooks/${moved.hookId}`)).status).toBe(200);
    expect((await standIn(`/_webhooks/${kept.hookId}`)).status).toBe(404);
  });

  it("refuses a forged event and an unexpected handshake, changing nothing", async () => {
    const card = (
      await owner.client.post(`${base()}/asana/cards`, { subject: "comment", id: await pin("Forged") })
    ).body.data;
    await owner.client.patch(`/api/comments/${card.subjectId}`, { isResolved: true });
    await expect
      .poll(async () => (await (await asana(`/tasks/${card.externalId}`)).json()).data.completed, {
        timeout: 30_000,
      })
      .toBe(true);
    // Redline's card reads closed once the sync is done (and Asana's own event about it was heard).
    const cards = async () => (await owner.client.get(`${base()}/cards`)).body.data as any[];
    await expect
      .poll(async () => (await cards()).find((c) => c.id === card.id)?.isClosed, { timeout: 30_000 })
      .toBe(true);
    await t.settled();
    const row = (await integration())!;
    const before = await secrets();
    const url = `${t.url}/api/integrations/asana/webhook/${row.id}`;
    const body = JSON.stringify({
      events: [
        {
          action: "changed",
          created_at: new Date().toISOString(),
          resource: { gid: card.externalId, resource_type: "task" },
          change: { field: "completed", action: "changed" },
        },
      ],
    });
    const { asanaSignature } = await import("@redline/stand-ins");
    const send = (headers: Record<string, string>) =>
      fetch(url, { method: "POST", body, headers: { ...json, ...headers } }).then(async (response) => ({
        status: response.status,
        body: await response.json(),
      }));
    await expectRefused(
      t,
      () => send({ "x-hook-signature": asanaSignature("guess", body) }),
      401,
      "invalid-signature",
    );
    await expectRefused(t, () => send({}), 401, "invalid-signature");
    // Nobody plants their own secret: a handshake is accepted only while Redline makes a webhook.
    await expectRefused(
      t,
      () =>
        fetch(url, { method: "POST", headers: { "x-hook-secret": "mine" } }).then(async (response) => ({
          status: response.status,
          body: await response.json(),
        })),
      401,
      "unexpected-handshake",
    );
    expect((await secrets()).hookSecret).toBe(before.hookSecret);
    expect(await resolved(card.subjectId)).toBe(true);
    // The real secret's signature is heard (the task is completed, so nothing changes either).
    expect((await send({ "x-hook-signature": asanaSignature(before.hookSecret!, body) })).status).toBe(200);
  });

  it("refreshes an expired token once, even for two calls at a time, and the calls succeed", async () => {
    const row = (await integration())!;
    const box = trackerSecrets(t.ctx);
    const before = box.open(row);
    // Ends within the minute: renewed before the call.
    await t.ctx.database.db
      .update(projectIntegrations)
      .set({ secrets: box.seal({ ...before, expiresAt: Date.now() + 30_000 }) })
      .where(eq(projectIntegrations.id, row.id));
    const counted = await refreshes();
    const both = await Promise.all([
      owner.client.get(`${base()}/asana/destinations`),
      owner.client.get(`${base()}/asana/destinations`),
    ]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await refreshes()).toBe(counted + 1);
    const after = await secrets();
    expect(after.token).not.toBe(before.token);
    expect(after.refreshToken).toBe(before.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(after.hookSecret).toBe(before.hookSecret);

    // Expired at Asana earlier than it said: the 401 renews it once and the call is tried again.
    await standIn("/_tokens", { action: "expire" });
    const commentId = await pin("Made with a renewed token");
    const made = await owner.client.post(`${base()}/asana/cards`, { subject: "comment", id: commentId });
    expect(made.status).toBe(201);
    expect(await refreshes()).toBe(counted + 2);
  });

  it("disconnecting deletes the webhook at Asana", async () => {
    const { hookId } = await secrets();
    expect((await owner.client.delete(`${base()}/asana`)).status).toBe(200);
    expect(await integration()).toBeUndefined();
    expect((await standIn(`/_webhooks/${hookId}`)).status).toBe(404);
  });

  it("a revoked refresh token answers 'Something went wrong' and leaves Redline as it was", async () => {
    expect((await connect()).status).toBe(200);
    const [workspace] = (await owner.client.get(`${base()}/asana/destinations`)).body.data;
    await owner.client.put(`${base()}/asana`, { containerId: workspace.id, listId: workspace.lists[0].id });
    const before = await secrets();
    await standIn("/_tokens", { action: "revoke" });
    const counted = await refreshes();
    const listed = await owner.client.get(`${base()}/asana/destinations`);
    expect(listed.status).toBe(502);
    expect(listed.body.message).toBe("Something went wrong");
    const commentId = await pin("Kept in Redline");
    const failed = await owner.client.post(`${base()}/asana/cards`, { subject: "comment", id: commentId });
    expect(failed.status).toBe(502);
    expect(await refreshes()).toBe(counted);
    expect(await secrets()).toEqual(before);
    const listedComments = (await owner.client.get(`/api/versions/${versionId}/comments`)).body.data;
    expect(listedComments.some((c: { id: string }) => c.id === commentId)).toBe(true);
    expect((await owner.client.get(base())).body.data.integrations).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "asana", isEnabled: true })]),
    );
    await owner.client.delete(`${base()}/asana`);
    await t.settled();
  });
});
