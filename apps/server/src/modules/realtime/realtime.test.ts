import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, startTwoApps, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const comment = { dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: "Live!" };

describe("realtime", () => {
  let t: TestApp;
  let owner: ApiClient;
  let member: ApiClient;
  let stranger: ApiClient;
  let projectId: string;
  let versionId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const memberEmail = email("member");
    [owner, member, stranger] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner")),
      signUpVerified(t.url, t.inbox!, memberEmail),
      signUpVerified(t.url, t.inbox!, email("stranger")),
    ]);
    projectId = (await owner.post("/api/projects", { title: "Live" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: memberEmail, access: "comment" });
    versionId = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/live" }))
      .body.data.versionId;
  });
  afterAll(() => t.close());

  it("brings every comment change to another reviewer's socket", async () => {
    const tab = await openSocket(t, member);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");

    const created = (await owner.post(`/api/versions/${versionId}/comments`, comment)).body.data;
    const event = await tab.next((m) => m.type === "event" && m.event.type === "comments.created");
    // The event carries the comment exactly as this reviewer's own list presents it — with this
    // reviewer's abilities, not the author's — so nobody needs to refetch.
    expect(event).toMatchObject({
      room: `project:${projectId}`,
      event: { commentId: created.id, versionId },
    });
    const asMemberSees = async (id: string) =>
      (await member.get(`/api/versions/${versionId}/comments`)).body.data.find(
        (c: { id: string }) => c.id === id,
      );
    const received =
      event.type === "event" && event.event.type === "comments.created" ? event.event.comment : null;
    expect(received).toEqual(await asMemberSees(created.id));
    expect(created.thread[0].abilities).toEqual({ edit: true, delete: true });
    expect(received?.thread[0]?.abilities).toEqual({ edit: false, delete: false });
    expect(received?.abilities).toEqual({ reply: true, attach: true, resolve: true, move: true });

    const replied = (await owner.post(`/api/comments/${created.id}/replies`, { comment: "And a reply" })).body
      .data;
    const changed = await tab.next(
      (m) => m.type === "event" && m.event.type === "comments.changed" && m.event.commentId === created.id,
    );
    expect(
      changed.type === "event" && changed.event.type === "comments.changed" && changed.event.comment,
    ).toEqual(await asMemberSees(created.id));
    expect(replied.thread).toHaveLength(2);
    await owner.patch(`/api/comments/${created.id}`, { isResolved: true });
    const resolved = await tab.next((m) => m.type === "event" && m.event.type === "comments.changed");
    expect(resolved).toMatchObject({ event: { comment: { id: created.id, isResolved: true } } });
    await owner.delete(`/api/comments/${created.id}/entries/${created.thread[0].id}`);
    await tab.next(
      (m) => m.type === "event" && m.event.type === "comments.deleted" && m.event.commentId === created.id,
    );

    tab.send({ type: "leave", projectId });
    await tab.next((m) => m.type === "left");
    await owner.post(`/api/versions/${versionId}/comments`, comment);
    // Out of the project's room; the member's own notification of it still arrives in their user room.
    await expect(
      tab.next((m) => m.type === "event" && m.room === `project:${projectId}`, 700),
    ).rejects.toThrow();
    await tab.next((m) => m.type === "event" && m.event.type === "notifications.created");
    tab.socket.close();
  });

  it("presents later comments with the reviewer's new abilities after their access changes", async () => {
    const readerEmail = email("reader");
    const reader = await signUpVerified(t.url, t.inbox!, readerEmail);
    await owner.post(`/api/projects/${projectId}/members`, { email: readerEmail, access: "comment" });
    const tab = await openSocket(t, reader);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const entries = (await owner.get(`/api/projects/${projectId}/members`)).body.data as {
      id: string;
      email: string;
    }[];
    const entry = entries.find((m) => m.email === readerEmail)!;
    await owner.patch(`/api/projects/${projectId}/members/${entry.id}`, { access: "view" });
    await owner.post(`/api/versions/${versionId}/comments`, comment);
    const event = await tab.next((m) => m.type === "event" && m.event.type === "comments.created");
    expect(
      event.type === "event" && event.event.type === "comments.created" && event.event.comment?.abilities,
    ).toEqual({ reply: false, attach: false, resolve: false, move: false });
    tab.socket.close();
  });

  it("brings a new notification with its reader's counts, read once it was stored", async () => {
    // Earlier tests' notifications are delivered first: the tab hears only this one.
    await t.settled();
    const tab = await openSocket(t, member);
    const before = (await member.get("/api/notifications/counts")).body.data as { unseen: number };
    // A page added: a notification of its own (comments on one page fold into one).
    await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/counted" });
    const message = await tab.next((m) => m.type === "event" && m.event.type === "notifications.created");
    const counts = (await member.get("/api/notifications/counts")).body.data;
    // What the badge shows after the event is what a read now answers: the notification counted once.
    expect(
      message.type === "event" && message.event.type === "notifications.created" && message.event.counts,
    ).toEqual(counts);
    expect(counts.unseen).toBe(before.unseen + 1);
    // What happened is kept once: the notification's one ledger record is what its mail reads and what
    // reached the tab (no second, realtime-only record of it).
    const notificationId =
      message.type === "event" && message.event.type === "notifications.created"
        ? message.event.notificationId
        : "";
    const recorded = await t.ctx.database.executeSql(
      "select type from domain_events where payload->>'notificationId' = $1 or payload->'event'->>'notificationId' = $1",
      [notificationId],
    );
    expect(recorded.rows).toEqual([{ type: "notification.created" }]);
    tab.socket.close();
  });

  it("lets a socket join only a room its user may read", async () => {
    const tab = await openSocket(t, stranger);
    tab.send({ type: "join", projectId });
    expect(await tab.next((m) => m.type === "error")).toEqual({
      type: "error",
      code: "forbidden",
      projectId,
    });
    await owner.post(`/api/versions/${versionId}/comments`, comment);
    await expect(tab.next((m) => m.type === "event", 700)).rejects.toThrow();
    tab.send({ type: "shout" });
    expect(await tab.next((m) => m.type === "error")).toEqual({ type: "error", code: "bad-message" });
    tab.socket.close();
  });

  it("drops a removed member's sockets from the room, and everyone's when the project is deleted", async () => {
    const leaverEmail = email("leaver");
    const leaver = await signUpVerified(t.url, t.inbox!, leaverEmail);
    await owner.post(`/api/projects/${projectId}/members`, { email: leaverEmail, access: "comment" });
    const [leaverTab, ownerTab] = await Promise.all([openSocket(t, leaver), openSocket(t, owner)]);
    for (const tab of [leaverTab, ownerTab]) {
      tab.send({ type: "join", projectId });
      await tab.next((m) => m.type === "joined");
    }
    const members = (await owner.get(`/api/projects/${projectId}/members`)).body.data as {
      id: string;
      email: string;
    }[];
    const entry = members.find((m) => m.email === leaverEmail)!;
    expect((await owner.delete(`/api/projects/${projectId}/members/${entry.id}`)).status).toBe(200);
    expect(await leaverTab.next((m) => m.type === "left")).toEqual({ type: "left", projectId });
    // Their own room is told, so their project lists refetch.
    const told = await leaverTab.next((m) => m.type === "event" && m.event.type === "projects.changed");
    expect(told).toMatchObject({ event: { type: "projects.changed", projectId } });

    // The owner still hears a new comment; the removed member's socket hears nothing more of the project.
    await owner.post(`/api/versions/${versionId}/comments`, comment);
    await ownerTab.next((m) => m.type === "event");
    await expect(
      leaverTab.next((m) => m.type === "event" && m.room === `project:${projectId}`, 500),
    ).rejects.toThrow("no matching message");

    const doomed = (await owner.post("/api/projects", { title: "Doomed" })).body.data.id as string;
    ownerTab.send({ type: "join", projectId: doomed });
    await ownerTab.next((m) => m.type === "joined" && m.projectId === doomed);
    expect((await owner.delete(`/api/projects/${doomed}`)).status).toBe(200);
    expect(await ownerTab.next((m) => m.type === "left")).toEqual({ type: "left", projectId: doomed });
    leaverTab.socket.close();
    ownerTab.socket.close();
  });

  it("refuses sockets without a session or from another origin", async () => {
    expect(await (await openSocket(t, null)).closed).toBe(4401);
    expect(await (await openSocket(t, member, "https://evil.example")).closed).toBe(4403);
  });
});

describe.runIf(defaultDriver() === "postgres")("realtime across two server processes", () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // Two apps on one database, as two processes behind a load balancer (each has its own LISTEN).
    ({ a, b, close } = await startTwoApps());
  });
  afterAll(() => close());

  it("delivers a write made on one process to a socket on the other", async () => {
    const ownerOnA = await signUpVerified(a.url, a.inbox!, email("cross"));
    const projectId = (await ownerOnA.post("/api/projects", { title: "Cross" })).body.data.id;
    const versionId = (
      await ownerOnA.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/x" })
    ).body.data.versionId;
    // The same session cookie is valid on B: sessions live in the shared database.
    const sessionOnB = Object.assign(Object.create(Object.getPrototypeOf(ownerOnA)), ownerOnA, {
      baseUrl: b.url,
    }) as ApiClient;
    const tab = await openSocket(b, sessionOnB);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const created = (await ownerOnA.post(`/api/versions/${versionId}/comments`, comment)).body.data;
    expect(await tab.next((m) => m.type === "event")).toMatchObject({
      event: { type: "comments.created", commentId: created.id },
    });
    tab.socket.close();
  });
});
