/**
 * The comments a public link shows, live on its guest's socket (`/api/realtime?guest`, `guest.join` with
 * `topic: "comments"`), on a real database: a guest on the link receives a member's new, resolved and
 * deleted comments as the guest list route presents them (the guest's abilities), follows a lowered link
 * access at once, and hears nothing more once the link is off; a guest of another project's link receives
 * nothing, and a project without a link refuses the join.
 */
import type { RealtimeServerMessage } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealtimeHub } from "../../lib/realtime.ts";
import { testComment } from "../../testing/anchors.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { type Person, signUpPerson } from "../../testing/people.ts";
import { openGuestSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { linkGuestView } from "./comments.guest.operations.ts";
import { guestCommentsRealtime } from "./comments.guest.realtime.ts";

const KEY = "g".repeat(40);
const newComment = testComment;

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const events = (tab: { received: RealtimeServerMessage[] }) => tab.received.filter((m) => m.type === "event");

describe.each(drivers())("guest comment realtime (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;
  let sam: Person;
  let projectId: string;
  let versionId: string;
  let otherProject: string;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [ada, sam] = await Promise.all([signUpPerson(t, "ada", "Ada Lovelace"), signUpPerson(t, "sam", "Sam")]);
    projectId = (await ada.client.post("/api/projects", { title: "Shared" })).body.data.id;
    ({ versionId } = (
      await ada.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/a" })
    ).body.data);
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true });
    otherProject = (await ada.client.post("/api/projects", { title: "Elsewhere" })).body.data.id;
    await ada.client.post(`/api/projects/${otherProject}/pages`, { url: "https://example.com/b" });
    await ada.client.patch(`/api/projects/${otherProject}/sharing`, { public: true, canComment: true });
  });
  afterAll(() => t.close());

  it("delivers a member's comments to the link's guest as the guest list reads them, until the link is off", async () => {
    const tab = await openGuestSocket(t);
    const elsewhere = await openGuestSocket(t);
    // A project without a public link refuses the join.
    const stranger = (await sam.client.post("/api/projects", { title: "Private" })).body.data.id;
    tab.send({ type: "guest.join", projectId: stranger, key: KEY, topic: "comments" });
    await tab.next((m) => m.type === "error" && m.code === "forbidden" && m.projectId === stranger);
    tab.send({ type: "guest.join", projectId, key: KEY, topic: "comments" });
    expect(await tab.next((m) => m.type === "guest.joined")).toEqual({
      type: "guest.joined",
      projectId,
      topic: "comments",
    });
    elsewhere.send({ type: "guest.join", projectId: otherProject, key: KEY, topic: "comments" });
    await elsewhere.next((m) => m.type === "guest.joined" && m.projectId === otherProject);

    // A member's new comment arrives with its data, presented as the guest list route presents it.
    const created = (await ada.client.post(`/api/versions/${versionId}/comments`, newComment("Hi guests")))
      .body.data;
    const event = await tab.next((m) => m.type === "event");
    const guest = new ApiClient(t.url);
    const listed = (await guest.get(`/api/share/${projectId}/versions/${versionId}/comments`)).body.data as {
      id: string;
    }[];
    expect(event).toEqual({
      type: "event",
      room: `guest:${projectId}`,
      event: {
        type: "comments.created",
        projectId,
        versionId,
        commentId: created.id,
        comment: listed.find((comment) => comment.id === created.id),
      },
    });
    expect(event).toMatchObject({
      event: {
        comment: {
          thread: [{ comment: "Hi guests", author: { displayName: "Ada Lovelace" } }],
          abilities: { reply: true, attach: false, resolve: false, move: false },
        },
      },
    });

    // Resolving changes it; the link's access lowered to viewing shows in the very next comment.
    await ada.client.patch(`/api/comments/${created.id}`, { isResolved: true });
    expect(await tab.next((m) => m.type === "event")).toMatchObject({
      event: { type: "comments.changed", commentId: created.id, comment: { isResolved: true } },
    });
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { canComment: false });
    await ada.client.patch(`/api/comments/${created.id}`, { isResolved: false });
    expect(await tab.next((m) => m.type === "event")).toMatchObject({
      event: { type: "comments.changed", comment: { isResolved: false, abilities: { reply: false } } },
    });
    const firstEntry = created.thread[0].id as string;
    await ada.client.request("DELETE", `/api/comments/${created.id}/entries/${firstEntry}`);
    expect(await tab.next((m) => m.type === "event")).toMatchObject({
      event: { type: "comments.deleted", commentId: created.id },
    });

    // The other project's guest heard none of it.
    await settle();
    expect(events(elsewhere)).toEqual([]);

    // The link turned off: the next comment is not delivered, and the socket is told it left.
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: false });
    await ada.client.post(`/api/versions/${versionId}/comments`, newComment("Members only"));
    expect(await tab.next((m) => m.type === "guest.left")).toEqual({
      type: "guest.left",
      projectId,
      topic: "comments",
    });
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: true });
    await ada.client.post(`/api/versions/${versionId}/comments`, newComment("Still not delivered"));
    await settle();
    expect(events(tab)).toEqual([]);
    expect(events(elsewhere)).toEqual([]);
    tab.socket.close();
    elsewhere.socket.close();
  });

  it("looks the link up once per event, however many guests follow it", async () => {
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true });
    const hub = startRealtimeHub(t.ctx.database.db, t.ctx.ledger);
    // The new hub reads from the oldest transaction still running: what it may hear of the writes above
    // is heard before anyone joins, so only the comment below is looked up.
    await t.settled();
    let lookups = 0;
    const loadView = (id: string) => {
      lookups++;
      return linkGuestView(t.ctx.database.db, t.ctx.config.plansEnabled, id);
    };
    const heard: RealtimeServerMessage[][] = Array.from({ length: 5 }, () => []);
    const guests = heard.map((messages) =>
      guestCommentsRealtime(t.ctx, hub, (message) => messages.push(message), loadView),
    );
    try {
      for (const guest of guests) guest.join(projectId);
      await expect
        .poll(() => heard.every((m) => m.some((x) => x.type === "guest.joined")), { timeout: 10_000 })
        .toBe(true);
      expect(lookups).toBe(5);
      await ada.client.post(`/api/versions/${versionId}/comments`, newComment("For everyone"));
      await expect
        .poll(() => heard.every((m) => m.some((x) => x.type === "event")), { timeout: 10_000 })
        .toBe(true);
      expect(lookups).toBe(6);
      for (const messages of heard)
        expect(messages.find((x) => x.type === "event")).toMatchObject({
          event: { type: "comments.created", comment: { thread: [{ comment: "For everyone" }] } },
        });
    } finally {
      for (const guest of guests) guest.close();
      await hub.stop();
    }
  });
});
