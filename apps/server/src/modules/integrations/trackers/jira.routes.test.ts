import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, projectIntegrations } from "../../../db/schema/index.ts";
import { testComment } from "../../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { allowJira } from "../../../testing/trackers.ts";
import { trackerSecrets } from "./trackers.load.ts";

describe.each(drivers())("integrations: Jira (%s)", (driver) => {
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
  /** A site's REST API as the connected account (its current token). */
  const jira = async (externalId: string, path = "", init?: RequestInit) => {
    const [cloudId, issueId] = externalId.split("/");
    return fetch(`${t.url}/dev/jira/api/ex/jira/${cloudId}/rest/api/3/issue/${issueId}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${(await secrets()).token}`, ...json },
    });
  };
  const standIn = (path: string, body?: unknown) =>
    fetch(`${t.url}/dev/jira${path}`, {
      method: body === undefined ? "GET" : "POST",
      ...(body !== undefined && { body: JSON.stringify(body), headers: json }),
    });
  const refreshes = async () =>
    ((await (await standIn("/_tokens")).json()) as { refreshes: number }).refreshes;
  const hookAtJira = async (hookId: string) => standIn(`/_webhooks/${hookId.split("/")[1]}`);
  const cards = async () => (await owner.client.get(`${base()}/cards`)).body.data as any[];
  const pin = async (text: string) =>
    (await owner.client.post(`/api/versions/${versionId}/comments`, testComment(text))).body.data
      .id as string;
  const resolved = async (commentId: string) =>
    (await t.ctx.database.db.select().from(comments).where(eq(comments.id, commentId)))[0]!.isResolved;
  /** A person moves the issue on its page (To Do: new, In Progress: indeterminate, Done: done). */
  const moveOnPage = (issueUrl: string, status: "new" | "indeterminate" | "done") =>
    fetch(issueUrl, {
      method: "POST",
      body: new URLSearchParams({ status }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
  const connect = async () => {
    const started = await owner.client.get(`${base()}/jira/authorize`);
    const granted = await allowJira(t, started.body.data.url);
    return owner.client.post("/api/integrations/jira/connect", { state: granted.state, code: granted.code });
  };
  const chooseFirst = async () => {
    const [site] = (await owner.client.get(`${base()}/jira/destinations`)).body.data;
    return owner.client.put(`${base()}/jira`, { containerId: site.id, listId: site.lists[0].id });
  };

  beforeAll(async () => {
    // The stand-in answers 500 when told to, and a revoked grant ends in 502: those 5xx are the test's.
    t = await startTestApp({ driver, allowServerErrors: true });
    owner = await signUpPerson(t, "owner", "Olivia Owner");
    projectId = (await owner.client.post("/api/projects", { title: "Jira issues" })).body.data.id;
    ({ versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/a" })
    ).body.data);
  });
  afterAll(async () => {
    await t.close();
  });

  it("asks Atlassian for consent (3LO) with its scopes; keeps the refresh token sealed; a code is spent once", async () => {
    const started = await owner.client.get(`${base()}/jira/authorize`);
    const url = new URL(started.body.data.url);
    expect(url.pathname).toBe("/dev/jira/auth/authorize");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      audience: "api.atlassian.com",
      response_type: "code",
      prompt: "consent",
      scope: "read:jira-work write:jira-work manage:jira-webhook offline_access",
      redirect_uri: `${t.ctx.config.appUrl}/integration/jira`,
    });
    const granted = await allowJira(t, started.body.data.url);
    const connectWith = (person: Person, body: unknown) =>
      person.client.post("/api/integrations/jira/connect", body);
    const connected = await connectWith(owner, { state: granted.state, code: granted.code });
    expect(connected.body).toMatchObject({
      message: "Jira connected successfully",
      projectId,
      data: { type: "jira", isEnabled: true, tracker: { isAuthorized: true, account: "Jade Jira" } },
    });
    const kept = await secrets();
    expect(kept.refreshToken).toBeTruthy();
    expect(kept.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    const listed = JSON.stringify((await owner.client.get(base())).body);
    expect(listed).not.toContain(kept.token!);
    expect(listed).not.toContain(kept.refreshToken!);
    expect((await integration())!.secrets).not.toContain(kept.refreshToken!);
    // A code is spent once.
    await expectRefused(
      t,
      () => connectWith(owner, { state: granted.state, code: granted.code }),
      502,
      "tracker-failed",
    );
  });

  it("chooses a project and issue type of the site; a dynamic webhook on the project is registered", async () => {
    const destinations = await owner.client.get(`${base()}/jira/destinations`);
    expect(destinations.status).toBe(200);
    const [site] = destinations.body.data;
    expect(site.name).toBe("jade-jira");
    // Sub-task types are not offered: an issue made from a comment has no parent.
    expect(site.lists.map((list: { name: string }) => list.name)).toEqual([
      "Website — Task",
      "Website — Bug",
      "Mobile app — Task",
      "Mobile app — Bug",
    ]);
    await expectRefused(
      t,
      () => owner.client.put(`${base()}/jira`, { containerId: site.id, listId: "1/1" }),
      400,
      "unknown-destination",
    );
    const saved = await owner.client.put(`${base()}/jira`, {
      containerId: site.id,
      listId: site.lists[3].id,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.tracker.destination).toMatchObject({
      containerName: "jade-jira",
      listName: "Mobile app — Bug",
    });
    const kept = await secrets();
    expect(kept.hookId).toMatch(new RegExp(`^${site.id}/\\d+$`));
    // Jira does not sign dynamic webhooks: the URL's secret proves them.
    expect(kept.hookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect((await hookAtJira(kept.hookId!)).status).toBe(200);

    // Website's bugs: a new webhook with its own secret; the old one is deleted at Jira.
    await owner.client.put(`${base()}/jira`, { containerId: site.id, listId: site.lists[1].id });
    const moved = await secrets();
    expect(moved.hookId).not.toBe(kept.hookId);
    expect(moved.hookSecret).not.toBe(kept.hookSecret);
    expect((await hookAtJira(moved.hookId!)).status).toBe(200);
    expect((await hookAtJira(kept.hookId!)).status).toBe(404);
  });

  it("creates an issue from a comment with its text and a link back, and renews the webhook", async () => {
    const { hookId } = await secrets();
    const expiresBefore = (await (await hookAtJira(hookId!)).json()).data.expiresAt as number;
    const commentId = await pin("The footer overlaps the form");
    const made = await owner.client.post(`${base()}/jira/cards`, { subject: "comment", id: commentId });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      message: "Comment added to Jira",
      data: { tracker: "jira", subject: "comment", subjectId: commentId, status: "created" },
    });
    const [cloudId] = made.body.data.externalId.split("/");
    expect(made.body.data.url).toBe(`${t.url}/dev/jira/s/${cloudId}/browse/WEB-1`);
    const issue = await (await jira(made.body.data.externalId)).json();
    expect(issue.fields.summary).toBe("The footer overlaps the form");
    expect(issue.fields.issuetype.name).toBe("Bug");
    const description = JSON.stringify(issue.fields.description);
    expect(description).toContain("Page: https://example.com/a");
    expect(description).toContain(`${t.url}/project/${projectId}/`);
    expect(issue.fields.status.statusCategory.key).toBe("new");
    // Used: the 30-day webhook was extended.
    const expiresAfter = (await (await hookAtJira(hookId!)).json()).data.expiresAt as number;
    expect(expiresAfter).toBeGreaterThan(expiresBefore);
  });

  it("moving the issue in Jira resolves the thread (Done) or reopens it (In Progress); Redline reads the status again", async () => {
    const [card] = await cards();
    // A person moves it in Jira: the webhook names the issue; Redline reads its status again.
    expect((await moveOnPage(card.url, "done")).status).toBe(303);
    await expect.poll(() => resolved(card.subjectId), { timeout: 30_000 }).toBe(true);
    await moveOnPage(card.url, "indeterminate");
    await expect.poll(() => resolved(card.subjectId), { timeout: 30_000 }).toBe(false);
    await moveOnPage(card.url, "done");
    await expect.poll(() => resolved(card.subjectId), { timeout: 30_000 }).toBe(true);
    // The card follows too: it reads closed.
    await expect
      .poll(async () => (await cards()).find((c) => c.id === card.id)?.isClosed, { timeout: 30_000 })
      .toBe(true);
    await t.settled();
  });

  it("refuses a webhook at a forged URL or without Jira's JWT, and trusts no body: the status is read again", async () => {
    const [card] = await cards();
    const row = (await integration())!;
    const { hookSecret } = await secrets();
    const body = JSON.stringify({
      timestamp: Date.now(),
      webhookEvent: "jira:issue_updated",
      issue: { id: card.externalId.split("/")[1], fields: { status: { statusCategory: { key: "new" } } } },
      changelog: { items: [{ field: "status", fieldId: "status", toString: "To Do" }] },
    });
    const { clientId, clientSecret } = t.ctx.config.trackers.jira!;
    const { jiraWebhookToken } = await import("@redline/stand-ins");
    const jwt = (secret = clientSecret) => ({
      authorization: `Bearer ${jiraWebhookToken(clientId, secret)}`,
    });
    const send = (path: string, headers: Record<string, string> = jwt()) =>
      fetch(`${t.url}/api/integrations/jira/webhook/${path}`, {
        method: "POST",
        body,
        headers: { ...json, ...headers },
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    await expectRefused(t, () => send(`${row.id}/${"0".repeat(64)}`), 401, "invalid-signature");
    await expectRefused(t, () => send(`${row.id}/${hookSecret!.slice(1)}`), 401, "invalid-signature");
    // The right URL without Jira's JWT, or with one under another secret (or expired), is not Jira's either.
    await expectRefused(t, () => send(`${row.id}/${hookSecret}`, {}), 401, "invalid-signature");
    await expectRefused(t, () => send(`${row.id}/${hookSecret}`, jwt("guess")), 401, "invalid-signature");
    const stale = `Bearer ${jiraWebhookToken(clientId, clientSecret, Date.now() - 3_600_000)}`;
    await expectRefused(
      t,
      () => send(`${row.id}/${hookSecret}`, { authorization: stale }),
      401,
      "invalid-signature",
    );
    // Without the secret there is no Jira webhook route at all.
    expect((await send(row.id)).status).toBeGreaterThanOrEqual(400);
    expect(await resolved(card.subjectId)).toBe(true);
    // At the right URL, a body saying "To Do" changes nothing: Jira says the issue is Done.
    expect((await send(`${row.id}/${hookSecret}`)).status).toBe(200);
    expect(await resolved(card.subjectId)).toBe(true);
  });

  it("refreshes an expiring token once for two calls at a time, keeping the rotated refresh token", async () => {
    const row = (await integration())!;
    const box = trackerSecrets(t.ctx);
    const before = box.open(row);
    await t.ctx.database.db
      .update(projectIntegrations)
      .set({ secrets: box.seal({ ...before, expiresAt: Date.now() + 30_000 }) })
      .where(eq(projectIntegrations.id, row.id));
    const counted = await refreshes();
    const both = await Promise.all([
      owner.client.get(`${base()}/jira/destinations`),
      owner.client.get(`${base()}/jira/destinations`),
    ]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await refreshes()).toBe(counted + 1);
    const after = await secrets();
    expect(after.token).not.toBe(before.token);
    // Rotation: a new refresh token is kept, and the spent one no longer works at Atlassian.
    expect(after.refreshToken).toBeTruthy();
    expect(after.refreshToken).not.toBe(before.refreshToken);
    const { clientId, clientSecret } = t.ctx.config.trackers.jira!;
    const spent = await fetch(`${t.url}/dev/jira/auth/oauth/token`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        grant_type: "refresh_token",
        client_id: clientId,
        client_secret: clientSecret,
        refresh_token: before.refreshToken,
      }),
    });
    expect(spent.status).toBe(403);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(after.hookSecret).toBe(before.hookSecret);

    // Expired at Jira earlier than it said: the 401 renews it once and the call is tried again.
    await standIn("/_tokens", { action: "expire" });
    const commentId = await pin("Made with a renewed token");
    const made = await owner.client.post(`${base()}/jira/cards`, { subject: "comment", id: commentId });
    expect(made.status).toBe(201);
    expect(await refreshes()).toBe(counted + 2);
  });

  it("an issue deleted in Jira leaves the thread as it was; resolving it and deleting its card still work", async () => {
    const commentId = await pin("Deleted at Jira");
    const made = await owner.client.post(`${base()}/jira/cards`, { subject: "comment", id: commentId });
    const { externalId, id: cardId } = made.body.data;
    // Someone deletes the issue in Jira: the webhook tells of it, Redline finds it gone, nothing changes.
    expect((await jira(externalId, "", { method: "DELETE" })).status).toBe(204);
    expect((await jira(externalId)).status).toBe(404);
    await t.settled();
    expect(await resolved(commentId)).toBe(false);
    expect((await cards()).find((c) => c.id === cardId)).toMatchObject({
      status: "created",
      isClosed: false,
    });
    // Resolving here: the issue cannot follow, and the thread stays resolved (no retry loop, no error).
    expect((await owner.client.patch(`/api/comments/${commentId}`, { isResolved: true })).status).toBe(200);
    await t.settled();
    expect(await resolved(commentId)).toBe(true);
    const gone = await owner.client.delete(`${base()}/jira/cards/${cardId}`);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe("Comment deleted on Jira");
    expect((await cards()).some((c) => c.id === cardId)).toBe(false);
  });

  it("disconnecting deletes the webhook at Jira", async () => {
    const { hookId } = await secrets();
    expect((await owner.client.delete(`${base()}/jira`)).status).toBe(200);
    expect(await integration()).toBeUndefined();
    expect((await hookAtJira(hookId!)).status).toBe(404);
  });

  it("a revoked refresh token answers 'Something went wrong' and leaves Redline as it was", async () => {
    expect((await connect()).status).toBe(200);
    expect((await chooseFirst()).status).toBe(200);
    const before = await secrets();
    await standIn("/_tokens", { action: "revoke" });
    const counted = await refreshes();
    const listed = await owner.client.get(`${base()}/jira/destinations`);
    expect(listed.status).toBe(502);
    expect(listed.body.message).toBe("Something went wrong");
    const commentId = await pin("Kept in Redline");
    const failed = await owner.client.post(`${base()}/jira/cards`, { subject: "comment", id: commentId });
    expect(failed.status).toBe(502);
    expect(await refreshes()).toBe(counted);
    expect(await secrets()).toEqual(before);
    const listedComments = (await owner.client.get(`/api/versions/${versionId}/comments`)).body.data;
    expect(listedComments.some((c: { id: string }) => c.id === commentId)).toBe(true);
    // The card says so, with a way back: connecting again clears it.
    const jiraState = async () =>
      (await owner.client.get(base())).body.data.integrations.find((i: { type: string }) => i.type === "jira")
        .tracker;
    expect(await jiraState()).toMatchObject({ isAuthorized: true, needsReconnect: true });
    expect((await connect()).status).toBe(200);
    expect(await jiraState()).toMatchObject({ isAuthorized: true, needsReconnect: false });
    expect((await owner.client.get(`${base()}/jira/destinations`)).status).toBe(200);
    await owner.client.delete(`${base()}/jira`);
    await t.settled();
  });
});
