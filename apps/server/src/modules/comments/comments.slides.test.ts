/**
 * Comments on slides (issue #32) against PostgreSQL: pinned to a point of a slide or to an object (whose
 * pin follows it when the object moves), with the same threads as a page's (replies, mentions, resolve),
 * live to the project's room, counted per slide, told with SPEC §3's illustration types and their mail
 * (leading to `?id=`); bad input and people without the right are refused with nothing stored.
 */
import type { RealtimeServerMessage } from "@redline/shared";
import { and, eq, isNotNull } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { comments, notifications, removedSlides } from "../../db/schema/index.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { openGuestSocket, openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

const stamp = Date.now().toString(36);
const address = (name: string) => `${name}-${stamp}@example.com`;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

let t: TestApp;
let owner: ApiClient;
let editor: ApiClient;
let commenter: ApiClient;
let viewer: ApiClient;
let stranger: ApiClient;
let projectId: string;
let commenterUid: string;
const doc = new Y.Doc();
const outbox: Uint8Array[] = [];
doc.on("update", (update: Uint8Array, origin: unknown) => {
  if (origin !== "remote") outbox.push(update);
});
const objects = (slideId: string) =>
  (doc.getMap("slides").get(slideId) as Y.Map<unknown>).get("objects") as Y.Map<Y.Map<unknown>>;

/** The owner's editor sends what it changed. */
async function flush() {
  const sent = await owner.post(`/api/projects/${projectId}/deck/updates`, {
    update: b64(Y.mergeUpdates(outbox.splice(0))),
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
}

function addSlide(id: string, position: number) {
  const slide = new Y.Map<unknown>();
  for (const [key, value] of Object.entries({ id, position, createdAt: 1, notes: "" })) slide.set(key, value);
  slide.set("objects", new Y.Map());
  doc.getMap("slides").set(id, slide);
}

const slideComments = async (client: ApiClient = owner) => {
  const answer = await client.get(`/api/projects/${projectId}/slide-comments`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as {
    comments: { id: string; slideId: string; objectId: string | null; thread: { comment: string }[] }[];
    pins: Record<string, { x: number; y: number } | null>;
    noOfComments: Record<string, number>;
  };
};
const storedComments = async () =>
  (await t.ctx.database.db.select().from(comments).where(eq(comments.projectId, projectId))).length;

beforeAll(async () => {
  t = await startTestApp({ config: { mailBatchWindowMs: 2000 } });
  [owner, editor, commenter, viewer, stranger] = await Promise.all([
    signUpVerified(t.url, t.inbox!, address("owner"), undefined, "Olivia Owner"),
    signUpVerified(t.url, t.inbox!, address("editor"), undefined, "Ed Editor"),
    signUpVerified(t.url, t.inbox!, address("commenter"), undefined, "Carl Commenter"),
    signUpVerified(t.url, t.inbox!, address("viewer"), undefined, "Vera Viewer"),
    signUpVerified(t.url, t.inbox!, address("stranger")),
  ]);
  projectId = (await owner.post("/api/projects", { title: "Deck", type: "illustration" })).body.data.id;
  for (const [who, access] of [
    ["editor", "edit"],
    ["commenter", "comment"],
    ["viewer", "view"],
  ] as const)
    await owner.post(`/api/projects/${projectId}/members`, { email: address(who), access });
  commenterUid = (await commenter.get("/api/me")).body.data.uid;
  Y.applyUpdate(
    doc,
    fromB64((await owner.get(`/api/projects/${projectId}/deck`)).body.data.update),
    "remote",
  );
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();
  const uploaded = await owner.upload(`/api/projects/${projectId}/slides/images`, {
    name: "a.png",
    type: "image/png",
    bytes: png,
  });
  addSlide("s1", 1);
  addSlide("s2", 2);
  const image = new Y.Map<unknown>();
  const fields = { id: "img", kind: "image", x: 100, y: 50, width: 200, height: 100, rotation: 0, z: 1 };
  for (const [key, value] of Object.entries(fields)) image.set(key, value);
  image.set("src", uploaded.body.data.src);
  objects("s1").set("img", image);
  await flush();
}, 120_000);
afterAll(() => t?.close());

describe("comments on slides", () => {
  let pointId: string;
  let objectCommentId: string;

  it("pins a comment to a point of a slide and one to an object, live to the room, counted per slide", async () => {
    const tab = await openSocket(t, editor);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const point = await commenter.post(`/api/projects/${projectId}/slides/s1/comments`, {
      dotPosition: { x: 0.5, y: 0.25 },
      comment: "The title is too close to the edge",
    });
    expect(point.status, JSON.stringify(point.body)).toBe(201);
    expect(point.body.data).toMatchObject({
      projectId,
      slideId: "s1",
      objectId: null,
      pageId: null,
      versionId: null,
      abilities: { reply: true, resolve: true },
    });
    pointId = point.body.data.id;
    const heard = (await tab.next(
      (m) => m.type === "event" && m.event.type === "comments.created" && m.event.commentId === pointId,
    )) as Extract<RealtimeServerMessage, { type: "event" }>;
    expect(heard.event).toMatchObject({ slideId: "s1", versionId: null, comment: { id: pointId } });
    tab.socket.close();

    // The web sends the target (the one target type); the point above came in the older fields.
    const onObject = await owner.post(`/api/projects/${projectId}/slides/s1/comments`, {
      target: { kind: "slide", slideId: "s1", objectId: "img", point: { x: 0.5, y: 0.5 } },
      comment: `Brighter, {@${commenterUid}}?`,
    });
    expect(onObject.status, JSON.stringify(onObject.body)).toBe(201);
    objectCommentId = onObject.body.data.id;
    // Both carry the one target type (issue #29): their slide, the object, the point.
    expect(point.body.data.target).toEqual({ kind: "slide", slideId: "s1", point: { x: 0.5, y: 0.25 } });
    expect(onObject.body.data.target).toEqual({
      kind: "slide",
      slideId: "s1",
      objectId: "img",
      point: { x: 0.5, y: 0.5 },
    });

    const listed = await slideComments(viewer);
    expect(listed.comments.map((comment) => comment.id)).toEqual([pointId, objectCommentId]);
    expect(listed.pins[pointId]).toEqual({ x: 500, y: 175 });
    expect(listed.pins[objectCommentId]).toEqual({ x: 200, y: 100 });
    expect(listed.noOfComments).toEqual({ s1: 2 });
  });

  it("moves an object comment's pin with its object", async () => {
    objects("s1").get("img")?.set("x", 400);
    objects("s1").get("img")?.set("y", 300);
    await flush();
    const listed = await slideComments(editor);
    expect(listed.pins[objectCommentId]).toEqual({ x: 500, y: 350 });
    // The point's pin stays where it was.
    expect(listed.pins[pointId]).toEqual({ x: 500, y: 175 });
  });

  it("threads like a page's comment: reply, resolve, and the pin moved, never anchored to a page", async () => {
    const replied = await owner.post(`/api/comments/${pointId}/replies`, { comment: "Fixed, have a look" });
    expect(replied.status).toBe(201);
    expect(replied.body.data.thread.map((entry: { comment: string }) => entry.comment)).toEqual([
      "The title is too close to the edge",
      "Fixed, have a look",
    ]);
    const resolved = await editor.patch(`/api/comments/${pointId}`, { isResolved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.isResolved).toBe(true);
    const moved = await editor.patch(`/api/comments/${pointId}`, { dotPosition: { x: 0.1, y: 0.1 } });
    expect(moved.status).toBe(200);
    expect((await slideComments()).pins[pointId]).toEqual({ x: 100, y: 70 });
    // A slide's comment has no page element to anchor to.
    const anchored = await editor.patch(`/api/comments/${pointId}`, { anchorStatus: "exact" });
    expect(anchored.status).toBe(400);
    expect(anchored.body.message).toBe("A slide's comment is not anchored to a page's element.");
    // Its target moves on its own slide only, and is never another kind.
    const retargeted = await editor.patch(`/api/comments/${pointId}`, {
      target: { kind: "slide", slideId: "s1", point: { x: 0.2, y: 0.2 } },
    });
    expect(retargeted.body.data.dotPosition).toEqual({ x: 0.2, y: 0.2 });
    for (const [target, message] of [
      [
        { kind: "slide", slideId: "s2", point: { x: 0, y: 0 } },
        "A slide's comment stays on its slide and its object; only its point moves.",
      ],
      [
        { kind: "image-point", point: { x: 0, y: 0 } },
        "This comment points at a point on an image, but this version shows slides.",
      ],
    ] as const) {
      const refused = await editor.patch(`/api/comments/${pointId}`, { target });
      expect([refused.status, refused.body.message]).toEqual([400, message]);
    }
    expect((await slideComments()).pins[pointId]).toEqual({ x: 200, y: 140 });
  });

  it("tells the project's people with the illustration types, mentions as mentions, and mails them", {
    timeout: 90_000,
  }, async () => {
    const ownerUid = (await owner.get("/api/me")).body.data.uid;
    const typesOf = async (userId: string) =>
      (
        await t.ctx.database.db
          .select({ type: notifications.type, commentId: notifications.commentId })
          .from(notifications)
          .where(and(eq(notifications.userId, userId), isNotNull(notifications.commentId)))
      )
        .map((row) => `${row.type}:${row.commentId === pointId ? "point" : "object"}`)
        .sort();
    await expect
      .poll(() => typesOf(commenterUid), { timeout: 30_000, interval: 250 })
      .toEqual([
        "illustration-comment-mention:object",
        "illustration-comment-reply:point",
        "web-comment-resolve:point",
      ]);
    await expect
      .poll(() => typesOf(ownerUid), { timeout: 30_000, interval: 250 })
      .toEqual(["illustration-comment:point"]);
    // The mail leads to the slide editor with the comment open (SPEC §2 `?id=`).
    await expect
      .poll(
        () =>
          t.inbox!.mails.some(
            (mail) => mail.to.includes(address("commenter")) && mail.subject.includes("mentioned you"),
          ),
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
    const mail = t.inbox!.mails.find(
      (m) => m.to.includes(address("commenter")) && m.subject.includes("mentioned you"),
    )!;
    expect(mail.subject).toBe("Olivia Owner mentioned you in a comment on “Deck”");
    expect(mail.text).toContain(`/project/${projectId}?id=${objectCommentId}`);
  });

  it("refuses bad input with a clear message and stores nothing", async () => {
    const before = await storedComments();
    const path = `/api/projects/${projectId}/slides`;
    const noSlide = await owner.post(`${path}/gone/comments`, { dotPosition: { x: 0, y: 0 }, comment: "Hi" });
    expect(noSlide.status).toBe(400);
    expect(noSlide.body.message).toBe("This slide does not exist any more.");
    const noObject = await owner.post(`${path}/s2/comments`, {
      objectId: "img",
      dotPosition: { x: 0, y: 0 },
      comment: "Hi",
    });
    expect(noObject.status).toBe(400);
    expect(noObject.body.message).toBe("The object you commented on is no longer on this slide.");
    for (const [body, message] of [
      [
        { target: { kind: "slide", slideId: "s2", point: { x: 0, y: 0 } }, comment: "Hi" },
        "The comment's target is on another slide than the one it is posted to.",
      ],
      [
        { target: { kind: "image-point", point: { x: 0, y: 0 } }, comment: "Hi" },
        "This comment points at a point on an image, but this version shows slides.",
      ],
      [
        {
          target: { kind: "slide", slideId: "s1", point: { x: 0, y: 0 } },
          dotPosition: { x: 0, y: 0 },
          comment: "Hi",
        },
        "Send the comment's target or its dotPosition and objectId — not both.",
      ],
      [
        { target: { kind: "slide", slideId: "s2", objectId: "img", point: { x: 0, y: 0 } }, comment: "Hi" },
        "The comment's target is on another slide than the one it is posted to.",
      ],
    ] as const) {
      const refused = await owner.post(`${path}/s1/comments`, body);
      expect([refused.status, refused.body.message]).toEqual([400, message]);
    }
    const objectGone = await owner.post(`${path}/s2/comments`, {
      target: { kind: "slide", slideId: "s2", objectId: "img", point: { x: 0, y: 0 } },
      comment: "Hi",
    });
    expect(objectGone.body.message).toBe("The object you commented on is no longer on this slide.");
    for (const body of [
      { dotPosition: { x: 2, y: 0 }, comment: "Off the slide" },
      { dotPosition: { x: 0, y: 0 }, comment: "   " },
      { dotPosition: { x: 0, y: 0 }, comment: "Hi", deviceWidth: 1280 },
      { comment: "No place" },
    ]) {
      const refused = await owner.post(`${path}/s1/comments`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toBeTruthy();
    }
    expect(await storedComments()).toBe(before);
  });

  it("refuses a viewer's and an outsider's comment, and a web project has no slide comments", async () => {
    const before = await storedComments();
    const body = { dotPosition: { x: 0.2, y: 0.2 }, comment: "Let me in" };
    expect((await viewer.post(`/api/projects/${projectId}/slides/s1/comments`, body)).status).toBe(403);
    expect((await viewer.post(`/api/comments/${pointId}/replies`, { comment: "Me too" })).status).toBe(403);
    expect((await stranger.post(`/api/projects/${projectId}/slides/s1/comments`, body)).status).toBe(404);
    expect((await stranger.get(`/api/projects/${projectId}/slide-comments`)).status).toBe(404);
    expect(await storedComments()).toBe(before);
    // A viewer can read the comments but never change the slide.
    expect((await slideComments(viewer)).comments).toHaveLength(2);
    const web = (await owner.post("/api/projects", { title: "Web" })).body.data.id;
    const none = await owner.get(`/api/projects/${web}/slide-comments`);
    expect(none.status).toBe(404);
    expect(none.body.code).toBe("not-slides");
  });
});

describe("a deleted slide's comments", () => {
  it("go out of sight with the slide, come back with an undo, and are deleted a day after the removal", async () => {
    addSlide("s3", 3);
    await flush();
    const pinned = await commenter.post(`/api/projects/${projectId}/slides/s3/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      comment: "On a slide about to go",
    });
    expect(pinned.status).toBe(201);
    const commentId = pinned.body.data.id as string;
    await commenter.post(`/api/comments/${commentId}/replies`, { comment: "A reply" });
    const before = (await slideComments()).comments.map((c) => c.id);
    const others = before.filter((id) => id !== commentId);
    const stored = await storedComments();
    const told = () =>
      t.ctx.database.db.select().from(notifications).where(eq(notifications.commentId, commentId));
    // The project's people were told of the new comment and the reply (the mail consumer's work).
    await expect.poll(async () => (await told()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const toldBefore = (await told()).length;
    const tab = await openSocket(t, editor);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    // The editor's own undo history, as the slide editor keeps one (Ctrl/Cmd+Z).
    const undo = new Y.UndoManager(doc.getMap("slides"), { captureTimeout: 0 });

    doc.getMap("slides").delete("s3");
    await flush();
    expect(await tab.next((m) => m.type === "event" && m.event.type === "comments.deleted")).toMatchObject({
      event: { type: "comments.deleted", projectId, slideId: "s3", commentId },
    });
    let listed = await slideComments();
    expect(listed.comments.map((c) => c.id)).toEqual(others);
    expect(listed.noOfComments.s3).toBeUndefined();
    expect(await storedComments()).toBe(stored);

    // Undo brings the slide back, and its comment with its thread — live to the room, in the list again.
    undo.undo();
    expect(doc.getMap("slides").has("s3")).toBe(true);
    await flush();
    const back = await tab.next((m) => m.type === "event" && m.event.type === "comments.created");
    expect(back).toMatchObject({ event: { type: "comments.created", slideId: "s3", commentId } });
    const event = (back as Extract<RealtimeServerMessage, { type: "event" }>).event;
    expect(event.type === "comments.created" && event.comment?.thread.map((e) => e.comment)).toEqual([
      "On a slide about to go",
      "A reply",
    ]);
    listed = await slideComments();
    expect(listed.comments.map((c) => c.id)).toEqual(before);
    expect(listed.noOfComments.s3).toBe(1);
    // Nobody is told of it again: it was not made anew (the room heard of it, the notifications did not).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await told()).length).toBe(toldBefore);

    // Deleted again, and a day passes: the next write of the deck deletes the comment for good.
    doc.getMap("slides").delete("s3");
    await flush();
    await tab.next((m) => m.type === "event" && m.event.type === "comments.deleted");
    await t.ctx.database.db
      .update(removedSlides)
      .set({ removedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(removedSlides.projectId, projectId));
    (doc.getMap("slides").get("s1") as Y.Map<unknown>).set("notes", "A day later");
    await flush();
    expect(await storedComments()).toBe(stored - 1);
    // Undoing the note, then the deletion, brings the slide back without it.
    undo.undo();
    undo.undo();
    await flush();
    expect(doc.getMap("slides").has("s3")).toBe(true);
    expect((await slideComments()).comments.map((c) => c.id)).toEqual(others);
    undo.destroy();
    doc.getMap("slides").delete("s3");
    await flush();
    tab.socket.close();
  });
});

describe("the deck and its comments through the public link (link guests)", () => {
  const GAIL = { "x-redline-guest": "guest__2__Gail__gail@example.com" };
  const guest = () => new ApiClient(t.url);
  const share = (sharing: Record<string, boolean>) =>
    owner.patch(`/api/projects/${projectId}/sharing`, sharing);

  it("shows a guest the deck read-only and refuses every write to it", async () => {
    const visitor = guest();
    expect((await visitor.get(`/api/share/${projectId}/deck`)).status).toBe(404);
    expect((await share({ public: true, canComment: true })).status).toBe(200);

    const read = await visitor.get(`/api/share/${projectId}/deck`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data.canEdit).toBe(false);
    const seen = new Y.Doc();
    Y.applyUpdate(seen, fromB64(read.body.data.update));
    expect([...seen.getMap("slides").keys()].sort()).toEqual(["s1", "s2"]);

    // No route changes a deck for a guest: the members' ones want a session, whatever the guest sends.
    const deckBefore = (await owner.get(`/api/projects/${projectId}/deck`)).body.data.update;
    const extra = new Y.Doc();
    Y.applyUpdate(extra, fromB64(deckBefore));
    extra.getMap("slides").delete("s2");
    const update = b64(Y.encodeStateAsUpdate(extra, Y.encodeStateVector(seen)));
    const refused = [
      await visitor.request("POST", `/api/projects/${projectId}/deck/updates`, { update }, GAIL),
      await visitor.request(
        "POST",
        `/api/projects/${projectId}/deck/presence`,
        { clientId: 1, slideId: "s1", selection: [] },
        GAIL,
      ),
      await visitor.request("POST", `/api/share/${projectId}/deck/updates`, { update }, GAIL),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([401, 401, 404]);
    expect((await owner.get(`/api/projects/${projectId}/deck`)).body.data.update).toBe(deckBefore);

    // A web project's link has no deck.
    const web = (await owner.post("/api/projects", { title: "Web guest" })).body.data.id;
    await owner.patch(`/api/projects/${web}/sharing`, { public: true });
    const none = await visitor.get(`/api/share/${web}/deck`);
    expect(none.status).toBe(404);
    expect(none.body.code).toBe("not-slides");
    expect((await visitor.get(`/api/share/${web}/slide-comments`)).status).toBe(404);
  });

  it("hands a guest's socket the slide comments members write, as the guest list reads them, and the deck's changes", async () => {
    await share({ public: true, canComment: true });
    const tab = await openGuestSocket(t);
    tab.send({ type: "guest.join", projectId, key: "g".repeat(40), topic: "comments" });
    await tab.next((m) => m.type === "guest.joined");
    const created = await commenter.post(`/api/projects/${projectId}/slides/s2/comments`, {
      dotPosition: { x: 0.1, y: 0.1 },
      comment: "Live to guests",
    });
    expect(created.status).toBe(201);
    const heard = await tab.next((m) => m.type === "event" && m.event.type === "comments.created");
    expect(heard).toMatchObject({
      room: `guest:${projectId}`,
      event: {
        slideId: "s2",
        commentId: created.body.data.id,
        comment: { thread: [{ comment: "Live to guests" }], abilities: { reply: true, resolve: false } },
      },
    });
    // The deck's changes follow, so the guest's read-only deck (as read before them) moves with its editors.
    const seen = new Y.Doc();
    const before = await new ApiClient(t.url).get(`/api/share/${projectId}/deck`);
    Y.applyUpdate(seen, fromB64(before.body.data.update));
    (doc.getMap("slides").get("s2") as Y.Map<unknown>).set("notes", "Said to guests");
    await flush();
    const changed = await tab.next((m) => m.type === "event" && m.event.type === "deck.updated");
    expect(changed).toMatchObject({ room: `guest:${projectId}`, event: { type: "deck.updated", projectId } });
    if (changed.type === "event" && changed.event.type === "deck.updated")
      Y.applyUpdate(seen, fromB64(changed.event.update));
    expect((seen.getMap("slides").get("s2") as Y.Map<unknown>).get("notes")).toBe("Said to guests");
    tab.socket.close();
  });

  it("puts a guest of the link in the deck's presence: members see them, and they see the members", async () => {
    await share({ public: true, canComment: false });
    const guestTab = await openGuestSocket(t);
    guestTab.send({ type: "guest.join", projectId, key: "p".repeat(40), topic: "comments" });
    await guestTab.next((m) => m.type === "guest.joined");
    const memberTab = await openSocket(t, editor);
    memberTab.send({ type: "join", projectId });
    await memberTab.next((m) => m.type === "joined");
    const isPresence = (m: RealtimeServerMessage) => m.type === "event" && m.event.type === "deck.presence";

    // The guest says where they are: the member hears it under the guest's name, never their e-mail.
    const said = await guest().request(
      "POST",
      `/api/share/${projectId}/deck/presence`,
      { clientId: 4242, slideId: "s2", selection: ["img"] },
      GAIL,
    );
    expect(said.status, JSON.stringify(said.body)).toBe(200);
    const heard = await memberTab.next(isPresence);
    expect(heard).toMatchObject({
      event: {
        type: "deck.presence",
        projectId,
        presence: {
          clientId: 4242,
          slideId: "s2",
          selection: ["img"],
          name: "Gail",
          userId: null,
          isGuest: true,
        },
      },
    });
    expect(JSON.stringify(heard)).not.toContain("gail@example.com");
    // The guest hears their own (and skips it by its client id), then the member's.
    await guestTab.next(isPresence);
    const member = await editor.post(`/api/projects/${projectId}/deck/presence`, {
      clientId: 99,
      slideId: "s1",
      selection: [],
    });
    expect(member.status).toBe(200);
    expect(await guestTab.next(isPresence)).toMatchObject({
      room: `guest:${projectId}`,
      event: { presence: { clientId: 99, slideId: "s1", name: "Ed Editor" } },
    });

    // Bad input is a 400; a link turned off takes the guest's presence away (404), and nothing is heard.
    const bad = await guest().request(
      "POST",
      `/api/share/${projectId}/deck/presence`,
      { clientId: -1, slideId: "s1", selection: "all" },
      GAIL,
    );
    expect(bad.status).toBe(400);
    await share({ public: false });
    const off = await guest().request(
      "POST",
      `/api/share/${projectId}/deck/presence`,
      { clientId: 4242, slideId: "s1", selection: [] },
      GAIL,
    );
    expect(off.status).toBe(404);
    await share({ public: true, canComment: true });
    guestTab.socket.close();
    memberTab.socket.close();
  });

  it("lets a guest read and add slide comments while the link allows comments, as on a page", async () => {
    const visitor = guest();
    await share({ public: true, canComment: true });
    const path = `/api/share/${projectId}/slides/s1/comments`;
    const body = { dotPosition: { x: 0.3, y: 0.6 }, comment: "Lovely colours" };

    const listed = await visitor.get(`/api/share/${projectId}/slide-comments`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.comments.length).toBeGreaterThan(0);
    const before = (await slideComments(owner)).noOfComments.s1 ?? 0;
    // Guests may neither resolve nor move what others wrote.
    expect(listed.body.data.comments[0].abilities).toMatchObject({
      reply: true,
      resolve: false,
      move: false,
    });

    const created = await visitor.request("POST", path, body, GAIL);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ slideId: "s1", objectId: null, versionId: null });
    expect(created.body.data.thread[0].author).toMatchObject({ displayName: "Gail", isGuest: true });
    // The owner sees it among the slide's comments.
    const mine = (await slideComments(owner)).comments.find((c) => c.id === created.body.data.id);
    expect(mine?.thread[0]?.comment).toBe("Lovely colours");
    expect((await slideComments(owner)).noOfComments.s1).toBe(before + 1);

    const reply = await visitor.request(
      "POST",
      `/api/share/${projectId}/comments/${created.body.data.id}/replies`,
      { comment: "And the fonts" },
      { "x-redline-guest": "public" },
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data.thread.map((entry: { comment: string }) => entry.comment)).toEqual([
      "Lovely colours",
      "And the fonts",
    ]);

    // Refused with nothing stored: no name, a slide that is not there, a link without comments, a link off.
    const stored = await storedComments();
    expect((await visitor.post(path, body)).body.code).toBe("guest-identity");
    const missing = await visitor.request("POST", `/api/share/${projectId}/slides/nope/comments`, body, GAIL);
    expect([missing.status, missing.body.code]).toEqual([400, "slide-not-found"]);
    await share({ canComment: false });
    const off = await visitor.request("POST", path, body, GAIL);
    expect([off.status, off.body.code]).toEqual([403, "link-comments-off"]);
    const noReply = await visitor.request(
      "POST",
      `/api/share/${projectId}/comments/${created.body.data.id}/replies`,
      { comment: "Again" },
      GAIL,
    );
    expect(noReply.status).toBe(403);
    // Still readable while the link is on.
    expect((await visitor.get(`/api/share/${projectId}/slide-comments`)).status).toBe(200);
    await share({ public: false });
    expect((await visitor.get(`/api/share/${projectId}/slide-comments`)).status).toBe(404);
    expect((await visitor.request("POST", path, body, GAIL)).status).toBe(404);
    expect(await storedComments()).toBe(stored);
  });
});
