import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  comments,
  inspectChanges,
  projectIntegrations,
  trackerCards,
  versions,
} from "../../../db/schema/index.ts";
import { newId } from "../../../lib/ids.ts";
import { testAnchor, testComment } from "../../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { allowTrello, connectTracker } from "../../../testing/trackers.ts";

const anchor = testAnchor();
const comment = (text: string) => testComment(text);

describe.each(drivers())("integrations: Trello (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let commenter: Person;
  let stranger: Person;
  let projectId: string;
  let versionId: string;
  let token: string;
  const base = () => `/api/projects/${projectId}/integrations`;
  const trello = (path: string, init?: RequestInit) => {
    const url = new URL(`${t.url}/dev/trello/1${path}`);
    url.searchParams.set("key", t.ctx.config.trackers.trello!.clientId);
    url.searchParams.set("token", token);
    return fetch(url, init);
  };
  const cards = async () => (await owner.client.get(`${base()}/cards`)).body.data as any[];
  const pin = async (text: string) =>
    (await owner.client.post(`/api/versions/${versionId}/comments`, comment(text))).body.data.id as string;

  beforeAll(async () => {
    // The tracker's stand-in answers 500 when told to (its faults): those 5xx are the test's.
    t = await startTestApp({ driver, allowServerErrors: true });
    [owner, editor, commenter, stranger] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor"),
      signUpPerson(t, "commenter"),
      signUpPerson(t, "stranger"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Cards" })).body.data.id;
    for (const [person, access] of [
      [editor, "edit"],
      [commenter, "comment"],
    ] as const)
      await owner.client.post(`/api/projects/${projectId}/members`, { email: person.address, access });
    ({ versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/p" })
    ).body.data);
  });
  afterEach(() => {
    t.ctx.config.plansEnabled = false;
  });
  afterAll(async () => {
    await t.close();
  });

  it("offers every integration; Trello's client.js flow hands the token back in the fragment", async () => {
    expect((await owner.client.get(base())).body.data.available).toEqual([
      "webhook",
      "slack",
      "trello",
      "clickup",
      "github",
      "asana",
      "jira",
    ]);
    const started = await owner.client.get(`${base()}/trello/authorize`);
    expect(started.status).toBe(200);
    const url = new URL(started.body.data.url);
    expect(url.pathname).toBe("/dev/trello/1/authorize");
    expect(url.searchParams.get("scope")).toBe("read,write");
    expect(url.searchParams.get("callback_method")).toBe("fragment");
    const granted = await allowTrello(t, started.body.data.url);
    expect(`${granted.back.origin}${granted.back.pathname}`).toBe(`${t.url}/integration/trello`);
    token = granted.token;
    expect(token).toMatch(/^ATTA[0-9a-f]{64}$/);

    const connect = (person: Person, body: unknown) =>
      person.client.post("/api/integrations/trello/connect", body);
    await expectRefused(t, () => connect(owner, { state: granted.state, token, more: 1 }), 400);

    const connected = await connect(owner, { state: granted.state, token });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({
      message: "Trello connected successfully",
      projectId,
      data: {
        type: "trello",
        isEnabled: true,
        tracker: { isAuthorized: true, account: "Tess Trello", destination: null },
      },
    });
    expect((await owner.client.get("/api/me")).body.data.connected.trello).toBe(true);
    const listed = JSON.stringify((await owner.client.get(base())).body);
    expect(listed).not.toContain(token);
    const [row] = await t.ctx.database.db
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.projectId, projectId));
    expect(row!.secrets).toMatch(/^v1\./);
    expect(row!.secrets).not.toContain(token.slice(4));
  });

  it("chooses a board and list from the account's, refusing others and other people", async () => {
    const destinations = await editor.client.get(`${base()}/trello/destinations`);
    expect(destinations.status).toBe(200);
    const [board] = destinations.body.data;
    expect(board).toMatchObject({
      name: "Redline reviews",
      lists: [{ name: "To Do" }, { name: "Doing" }, { name: "Done" }],
    });
    const put = (person: Person, body: unknown) => person.client.put(`${base()}/trello`, body);
    await expectRefused(
      t,
      () => put(owner, { containerId: board.id, listId: "nope" }),
      400,
      "unknown-destination",
    );
    await expectRefused(t, () => put(owner, { containerId: board.id }), 400);
    await expectRefused(t, () => put(commenter, { containerId: board.id, listId: board.lists[0].id }), 403);
    await expectRefused(t, () => put(stranger, { containerId: board.id, listId: board.lists[0].id }), 404);
    await expectRefused(t, () => commenter.client.get(`${base()}/trello/destinations`), 403);
    const saved = await put(owner, { containerId: board.id, listId: board.lists[0].id });
    expect(saved.status).toBe(200);
    expect(saved.body.data.tracker).toMatchObject({
      destination: { containerName: "Redline reviews", listName: "To Do" },
      autoCreate: false,
    });
  });

  it("creates a card from a comment with its text, page, element and a link back; once", async () => {
    const commentId = await pin("The heading is too small");
    await expectRefused(
      t,
      () => commenter.client.post(`${base()}/trello/cards`, { subject: "comment", id: commentId }),
      403,
    );
    await expectRefused(
      t,
      () => owner.client.post(`${base()}/trello/cards`, { subject: "comment", id: "missing" }),
      404,
    );
    await expectRefused(
      t,
      () => owner.client.post(`${base()}/trello/cards`, { subject: "page", id: commentId }),
      400,
    );
    const made = await owner.client.post(`${base()}/trello/cards`, { subject: "comment", id: commentId });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      message: "Comment added to Trello",
      data: {
        tracker: "trello",
        subject: "comment",
        subjectId: commentId,
        status: "created",
        createdBy: owner.uid,
      },
    });
    expect(made.body.data.url).toMatch(new RegExp(`^${t.url}/dev/trello/c/`));
    const card = await (await trello(`/cards/${made.body.data.externalId}`)).json();
    expect(card.name).toBe("The heading is too small");
    expect(card.desc).toContain("Page: https://example.com/p");
    expect(card.desc).toContain("Element: h1");
    expect(card.desc).toContain(`${t.url}/project/${projectId}/`);
    await expectRefused(
      t,
      () => owner.client.post(`${base()}/trello/cards`, { subject: "comment", id: commentId }),
      409,
      "card-exists",
    );
    // The link shows to everyone who sees the comment.
    const seen = (await commenter.client.get(`${base()}/cards`)).body.data;
    expect(seen).toEqual([expect.objectContaining({ subjectId: commentId, url: made.body.data.url })]);
    await expectRefused(t, () => stranger.client.get(`${base()}/cards`), 404);
  });

  it("refuses a forged or stale webhook, changing nothing", async () => {
    const [row] = await t.ctx.database.db
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.projectId, projectId));
    const [card] = await cards();
    const url = `${t.url}/api/integrations/trello/webhook/${row!.id}`;
    const { trelloSignature } = await import("@redline/stand-ins");
    const body = (date: string) =>
      JSON.stringify({
        action: {
          id: "a1",
          type: "updateCard",
          date,
          data: { card: { id: card.externalId, closed: false }, old: { closed: true } },
        },
      });
    const send = (text: string, signature: string) =>
      fetch(url, {
        method: "POST",
        body: text,
        headers: { "content-type": "application/json", "x-trello-webhook": signature },
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const now = body(new Date().toISOString());
    await expectRefused(
      t,
      () => send(now, trelloSignature("not the secret", now, url)),
      401,
      "invalid-signature",
    );
    await expectRefused(t, () => send(now, ""), 401);
    const old = body(new Date(Date.now() - 60 * 60_000).toISOString());
    await expectRefused(
      t,
      () => send(old, trelloSignature(t.ctx.config.trackers.trello!.clientSecret, old, url)),
      400,
      "stale-webhook",
    );
    expect((await fetch(url, { method: "HEAD" })).status).toBe(200);
  });

  it("makes cards for new comments by itself when the rule is on", async () => {
    const { body } = await owner.client.get(`${base()}/trello/destinations`);
    const [board] = body.data;
    await owner.client.put(`${base()}/trello`, {
      containerId: board.id,
      listId: board.lists[1].id,
      autoCreate: true,
    });
    const commentId = await pin("Made by the rule");
    await expect
      .poll(async () => (await cards()).find((c) => c.subjectId === commentId), { timeout: 15_000 })
      .toMatchObject({ status: "created", url: expect.stringContaining("/dev/trello/c/") });
    const card = (await cards()).find((c) => c.subjectId === commentId);
    expect((await (await trello(`/cards/${card.externalId}`)).json()).idList).toBe(board.lists[1].id);
  });

  it("makes a card from an edit suggestion ('Edit added to Trello'), and each side resolves the other", async () => {
    const { db } = t.ctx.database;
    const [version] = await db.select().from(versions).where(eq(versions.id, versionId));
    const changeId = newId();
    await db.insert(inspectChanges).values({
      id: changeId,
      projectId,
      pageId: version!.pageId,
      versionId,
      changeType: "style",
      querySelector: "h1",
      anchor: { ...anchor, v: 1 as const, fingerprint: { tag: "h1" }, dot: null },
      property: "color",
      value: "red",
      before: "black",
      deviceSize: "default",
      userId: owner.uid,
    });
    const made = await owner.client.post(`${base()}/trello/cards`, { subject: "edit", id: changeId });
    expect(made.status).toBe(201);
    expect(made.body.message).toBe("Edit added to Trello");
    const card = await (await trello(`/cards/${made.body.data.externalId}`)).json();
    expect(card.name).toBe("Edit: Set color: red (was black)");
    expect(card.desc).toContain("Element: h1");

    expect((await owner.client.patch(`/api/changes/${changeId}`, { isResolved: true })).status).toBe(200);
    await expect
      .poll(async () => (await (await trello(`/cards/${card.id}`)).json()).closed, { timeout: 15_000 })
      .toBe(true);
    await trello(`/cards/${card.id}?closed=false`, { method: "PUT" });
    await expect
      .poll(
        async () =>
          (await db.select().from(inspectChanges).where(eq(inspectChanges.id, changeId)))[0]!.isResolved,
        {
          timeout: 10_000,
        },
      )
      .toBe(false);
    const deleted = await owner.client.delete(`${base()}/trello/cards/${made.body.data.id}`);
    expect(deleted.body.message).toBe("Edit deleted on Trello");
  });

  it("deletes a card there and here, with SPEC's text", async () => {
    const [card] = await cards();
    const deleted = await owner.client.delete(`${base()}/trello/cards/${card.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe("Comment deleted on Trello");
    expect((await trello(`/cards/${card.externalId}`)).status).toBe(404);
    expect((await cards()).some((c) => c.id === card.id)).toBe(false);
    await expectRefused(t, () => owner.client.delete(`${base()}/trello/cards/${card.id}`), 404);
  });

  it("disables, offers a free owner the upgrade, and disconnects (record and token gone)", async () => {
    const off = await owner.client.patch(`${base()}/trello`, { isEnabled: false });
    expect(off.body).toMatchObject({ message: "Trello integrations disabled", data: { isEnabled: false } });
    await owner.client.patch(`${base()}/trello`, { isEnabled: true });
    t.ctx.config.plansEnabled = true;
    await expectRefused(t, () => owner.client.get(`${base()}/trello/authorize`), 402, "integrations");
    t.ctx.config.plansEnabled = false;
    const gone = await owner.client.delete(`${base()}/trello`);
    expect(gone.body.message).toBe("Trello disconnected successfully.");
    const rows = await t.ctx.database.db
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.projectId, projectId));
    expect(rows).toEqual([]);
    expect((await owner.client.get("/api/me")).body.data.connected.trello).toBe(false);
    // Made cards keep their link.
    expect((await t.ctx.database.db.select().from(trackerCards)).length).toBeGreaterThan(0);
    await expectRefused(t, () => owner.client.delete(`${base()}/trello`), 404);
  });
});

describe.each(drivers())("integrations: ClickUp (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let versionId: string;
  const base = () => `/api/projects/${projectId}/integrations`;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    owner = await signUpPerson(t, "owner", "Olivia Owner");
    projectId = (await owner.client.post("/api/projects", { title: "Tasks" })).body.data.id;
    ({ versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/c" })
    ).body.data);
    await connectTracker(t, owner, { projectId, tracker: "clickup", account: "Cleo Clickup", list: 1 });
  });
  afterAll(async () => {
    await t.close();
  });

  it("names lists by their space; a webhook request not signed with its secret changes nothing", async () => {
    const [workspace] = (await owner.client.get(`${base()}/clickup/destinations`)).body.data;
    expect(workspace.lists.map((list: { name: string }) => list.name)).toEqual([
      "Team Space / Feedback",
      "Team Space / Bugs",
    ]);
    const commentId = (await owner.client.post(`/api/versions/${versionId}/comments`, comment("Broken link")))
      .body.data.id;
    const made = await owner.client.post(`${base()}/clickup/cards`, { subject: "comment", id: commentId });
    expect(made.status).toBe(201);
    const [row] = await t.ctx.database.db
      .select()
      .from(projectIntegrations)
      .where(eq(projectIntegrations.projectId, projectId));
    const body = JSON.stringify({
      event: "taskStatusUpdated",
      task_id: made.body.data.externalId,
      history_items: [
        { field: "status", date: String(Date.now()), after: { status: "complete", type: "closed" } },
      ],
    });
    const { clickupSignature } = await import("@redline/stand-ins");
    await expectRefused(
      t,
      () =>
        fetch(`${t.url}/api/integrations/clickup/webhook/${row!.id}`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-signature": clickupSignature("guess", body) },
        }).then(async (response) => ({ status: response.status, body: await response.json() })),
      401,
      "invalid-signature",
    );
    const resolved = async () =>
      (await t.ctx.database.db.select().from(comments).where(eq(comments.id, commentId)))[0]!.isResolved;
    expect(await resolved()).toBe(false);
  });
});
