import { type Notification, notificationMessage, type RealtimeServerMessage } from "@redline/shared";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { domainEvents, notifications, users } from "../../db/schema/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { digest } from "../../testing/db-digest.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { notificationOf } from "./notifications.rules.ts";
import { deliverNotification } from "./notify.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const comment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });
const anchor = {
  v: 1,
  querySelector: "h1",
  selectors: { css: "h1", xpath: "/html/body/h1", idPath: null },
  fingerprint: { tag: "h1" },
  dot: null,
};
const style = (property: string, value: string) => ({
  changeType: "style",
  anchor,
  deviceWidth: 1280,
  property,
  value,
});

type Person = "owner" | "editor" | "commenter" | "viewer";

describe.each(routeDrivers())("notifications (%s)", (driver) => {
  let t: TestApp;
  let client: Record<Person, ApiClient>;
  let uid: Record<Person, string>;
  let mail: Record<Person, string>;
  let projectId: string;
  let pageId: string;
  let versionId: string;

  const list = async (who: Person, query = ""): Promise<Notification[]> => {
    await t.settled();
    const response = await client[who].get(`/api/notifications${query}`);
    expect(response.status).toBe(200);
    return response.body.data;
  };
  /** The person's notifications about one comment, as "type" strings. */
  const typesAbout = async (who: Person, commentId: string) =>
    (await list(who, "?limit=100")).filter((n) => n.commentId === commentId).map((n) => n.type);

  beforeAll(async () => {
    t = await startTestApp({ driver });
    const people: Person[] = ["owner", "editor", "commenter", "viewer"];
    const names = {
      owner: "Olivia Owner",
      editor: "Ed Editor",
      commenter: "Carl Commenter",
      viewer: "Vera Viewer",
    };
    mail = Object.fromEntries(people.map((p) => [p, email(p)])) as Record<Person, string>;
    const clients = await Promise.all(
      people.map((p) => signUpVerified(t.url, t.inbox!, mail[p], undefined, names[p])),
    );
    client = Object.fromEntries(people.map((p, i) => [p, clients[i]!])) as Record<Person, ApiClient>;
    uid = Object.fromEntries(
      await Promise.all(people.map(async (p) => [p, (await client[p].get("/api/me")).body.data.uid])),
    );
    projectId = (await client.owner.post("/api/projects", { title: "Notified project" })).body.data.id;
    for (const [who, access] of [
      ["editor", "edit"],
      ["commenter", "comment"],
      ["viewer", "view"],
    ] as const) {
      const added = await client.owner.post(`/api/projects/${projectId}/members`, {
        email: mail[who],
        access,
      });
      expect(added.status).toBe(201);
    }
    const page = (
      await client.owner.post(`/api/projects/${projectId}/pages`, {
        url: "https://example.com/a-long-page-title",
      })
    ).body.data;
    ({ pageId: pageId, versionId: versionId } = page);
  });
  afterAll(() => t.close());

  it("tells a person they were invited to a project, once, and never a pending invitation", async () => {
    // The page added after the invitation is told too (newest first): the invitation is the older one.
    const invite = (await list("viewer", `?projectId=${projectId}`)).find((n) => n.type === "project-share");
    expect(invite).toMatchObject({
      type: "project-share",
      projectId,
      pageId: null,
      actor: { uid: uid.owner, displayName: "Olivia Owner" },
      context: { projectTitle: "Notified project" },
      isSeen: false,
      isNotified: false,
    });
    expect(notificationMessage(invite!)).toBe("invited you to a project");
    // Changing the access of someone already in the project is not an invitation.
    await client.owner.post(`/api/projects/${projectId}/members`, { email: mail.viewer, access: "comment" });
    await client.owner.post(`/api/projects/${projectId}/members`, { email: mail.viewer, access: "view" });
    expect((await list("viewer")).filter((n) => n.type === "project-share")).toHaveLength(1);
    // An address without an account gets an e-mail only; the owner is never told of their own share.
    const before = (await t.ctx.database.db.select().from(notifications)).length;
    await client.owner.post(`/api/projects/${projectId}/members`, { email: email("nobody"), access: "view" });
    expect((await t.ctx.database.db.select().from(notifications)).length).toBe(before);
    expect((await list("owner")).filter((n) => n.type === "project-share")).toEqual([]);
  });

  it("tells the project's people of a new comment, mentioned ones that they were mentioned, never the author", async () => {
    const created = await client.commenter.post(
      `/api/versions/${versionId}/comments`,
      comment(`Look here {@${uid.viewer}}`),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(await typesAbout("owner", id)).toEqual(["web-comment"]);
    expect(await typesAbout("editor", id)).toEqual(["web-comment"]);
    expect(await typesAbout("viewer", id)).toEqual(["web-comment-mention"]);
    expect(await typesAbout("commenter", id)).toEqual([]);
    const [forOwner] = (await list("owner")).filter((n) => n.commentId === id);
    expect(forOwner).toMatchObject({
      projectId,
      pageId,
      versionId,
      actor: { uid: uid.commenter, displayName: "Carl Commenter" },
      context: { projectTitle: "Notified project", pageTitle: expect.any(String) },
      length: 1,
    });
  });

  it("tells of a comment on an uploaded file as SPEC §3's false-comment, worded as any comment on a page", async () => {
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#2a9d8f" } })
      .png()
      .toBuffer();
    const uploaded = await client.owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "Mockup.png",
      type: "image/png",
      bytes,
    });
    expect(uploaded.status).toBe(201);
    const created = await client.commenter.post(
      `/api/versions/${uploaded.body.data.versionId}/comments`,
      comment(`On the mockup {@${uid.viewer}}`),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(await typesAbout("owner", id)).toEqual(["false-comment"]);
    expect(await typesAbout("editor", id)).toEqual(["false-comment"]);
    // A mention is a mention, whatever the page is.
    expect(await typesAbout("viewer", id)).toEqual(["web-comment-mention"]);
    const [forOwner] = (await list("owner")).filter((n) => n.commentId === id);
    expect(notificationMessage(forOwner!)).toBe("commented on page");
  });

  it("makes no notification for a comment deleted before the consumer read its event", async () => {
    const posted = await client.owner.post(`/api/versions/${versionId}/comments`, comment("Taken back"));
    expect(posted.status).toBe(201);
    const { id, thread } = posted.body.data as { id: string; thread: { id: string }[] };
    expect((await client.owner.delete(`/api/comments/${id}/entries/${thread[0]!.id}`)).status).toBeLessThan(
      300,
    );
    await t.settled();
    // The consumer may have read the event before the delete or after it; after it is the case that
    // matters, so its work is done again here as it would be then.
    const { db } = t.ctx.database;
    const [recorded] = await db
      .select()
      .from(domainEvents)
      .where(
        and(eq(domainEvents.type, "comment.created"), sql`${domainEvents.payload}->'ref'->>'id' = ${id}`),
      );
    const about = notificationOf({ type: recorded!.type, ...(recorded!.payload as object) } as LedgerEvent);
    expect(about).toBeDefined();
    await db.transaction((tx) => deliverNotification(tx, about!, recorded!.createdAt));
    expect(await db.select().from(notifications).where(eq(notifications.commentId, id))).toEqual([]);
  });

  it("tells the earlier people of a thread of a reply, and of a resolve its author", async () => {
    const id = (await client.commenter.post(`/api/versions/${versionId}/comments`, comment("Thread"))).body
      .data.id as string;
    const replied = await client.editor.post(`/api/comments/${id}/replies`, {
      comment: `Agreed, {@${uid.owner}} please check`,
    });
    expect(replied.status).toBe(201);
    expect(await typesAbout("commenter", id)).toEqual(["web-comment-reply"]);
    expect(await typesAbout("owner", id)).toEqual(["web-comment-reply-mention", "web-comment"]);
    expect(await typesAbout("editor", id)).toEqual(["web-comment"]);
    expect(await typesAbout("viewer", id)).toEqual(["web-comment"]);

    // The commenter replying to their own thread tells the editor (earlier in it), not themselves.
    await client.commenter.post(`/api/comments/${id}/replies`, { comment: "Thanks" });
    expect(await typesAbout("editor", id)).toEqual(["web-comment-reply", "web-comment"]);
    expect((await typesAbout("commenter", id)).filter((type) => type === "web-comment-reply")).toHaveLength(
      1,
    );

    expect((await client.owner.patch(`/api/comments/${id}`, { isResolved: true })).status).toBe(200);
    expect((await typesAbout("commenter", id))[0]).toBe("web-comment-resolve");
    // Resolving again, or one's own comment, tells nobody.
    await client.owner.patch(`/api/comments/${id}`, { isResolved: true });
    await client.owner.patch(`/api/comments/${id}`, { isResolved: false });
    await client.commenter.patch(`/api/comments/${id}`, { isResolved: true });
    expect((await typesAbout("commenter", id)).filter((type) => type === "web-comment-resolve")).toHaveLength(
      1,
    );
  });

  it("tells the project's people of a page added and of its approval changing, and an approver they were made one", async () => {
    const added = await client.editor.post(`/api/projects/${projectId}/pages`, {
      url: "https://example.com/pricing",
    });
    expect(added.status).toBe(202);
    const newPage = added.body.data as { pageId: string; versionId: string };
    const about = async (who: Person, type: string) =>
      (await list(who, "?limit=100")).filter((n) => n.type === type && n.pageId === newPage.pageId);
    for (const who of ["owner", "commenter", "viewer"] as const)
      expect(await about(who, "web-page-add")).toEqual([
        expect.objectContaining({
          versionId: newPage.versionId,
          actor: expect.objectContaining({ uid: uid.editor }),
        }),
      ]);
    expect(await about("editor", "web-page-add")).toEqual([]);
    const [forOwner] = await about("owner", "web-page-add");
    expect(notificationMessage(forOwner!)).toBe("added page");

    const approve = (approved: boolean) =>
      client.owner.put(`/api/pages/${newPage.pageId}/approval`, { approved });
    expect((await approve(true)).status).toBe(200);
    await approve(true); // again: nothing new to tell
    expect(await about("editor", "page-approved")).toHaveLength(1);
    expect(await about("viewer", "page-approved")).toHaveLength(1);
    expect(await about("owner", "page-approved")).toEqual([]);
    expect(notificationMessage((await about("editor", "page-approved"))[0]!)).toBe("approved page");
    await approve(false);
    expect(await about("commenter", "page-unapproved")).toHaveLength(1);

    const made = await client.owner.put(`/api/projects/${projectId}/approvers/${uid.viewer}`, {
      isApprover: true,
    });
    expect(made.status).toBe(200);
    await client.owner.put(`/api/projects/${projectId}/approvers/${uid.viewer}`, { isApprover: true });
    const approverOf = async (who: Person) => (await list(who)).filter((n) => n.type === "make-approver");
    expect(await approverOf("viewer")).toEqual([
      expect.objectContaining({
        projectId,
        pageId: null,
        actor: expect.objectContaining({ uid: uid.owner }),
      }),
    ]);
    expect(notificationMessage((await approverOf("viewer"))[0]!)).toBe("made you an approver of");
    expect(await approverOf("editor")).toEqual([]);
    await client.owner.put(`/api/projects/${projectId}/approvers/${uid.viewer}`, { isApprover: false });
  });

  it("folds one person's approve/unapprove changes on a page into one notification telling where they ended", async () => {
    const page = (
      await client.editor.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/toggled" })
    ).body.data as { pageId: string };
    const approve = (who: Person, approved: boolean) =>
      client[who].put(`/api/pages/${page.pageId}/approval`, { approved });
    for (let i = 0; i < 10; i++) expect((await approve("owner", i % 2 === 0)).status).toBe(200);
    const approvals = async (who: Person) =>
      (await list(who, "?limit=100")).filter(
        (n) => n.pageId === page.pageId && (n.type === "page-approved" || n.type === "page-unapproved"),
      );
    const [told, ...more] = await approvals("viewer");
    expect(more).toEqual([]);
    expect(told).toMatchObject({ type: "page-unapproved", length: 10, actor: { uid: uid.owner } });
    expect(notificationMessage(told!)).toBe("unapproved page");

    await approve("owner", true);
    expect((await approvals("viewer")).map((n) => [n.type, n.length, notificationMessage(n)])).toEqual([
      ["page-approved", 11, "approved page"],
    ]);
    // Another person's change is theirs to tell.
    await approve("editor", false);
    expect((await approvals("viewer")).map((n) => [n.type, n.actor.uid])).toEqual([
      ["page-unapproved", uid.editor],
      ["page-approved", uid.owner],
    ]);
  });

  it("tells only the project's editors of suggested edits, with how many", async () => {
    const saved = await client.editor.post(`/api/versions/${versionId}/changes`, {
      changes: [style("color", "blue"), style("font-size", "40px")],
    });
    expect(saved.status).toBe(200);
    const inspects = async (who: Person) => (await list(who)).filter((n) => n.type === "web-inspect");
    const [forOwner] = await inspects("owner");
    expect(forOwner).toMatchObject({ versionId, actor: { uid: uid.editor }, context: { editsCount: 2 } });
    expect(notificationMessage(forOwner!)).toBe("suggested 2 edits on page");
    expect(await inspects("editor")).toEqual([]);
    expect(await inspects("commenter")).toEqual([]);
    expect(await inspects("viewer")).toEqual([]);
  });

  it("folds repeats by one person on one page into one notification, until it is seen", async () => {
    const page = (
      await client.owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/folded" })
    ).body.data as { pageId: string; versionId: string };
    for (let i = 0; i < 5; i++) {
      const saved = await client.editor.post(`/api/versions/${page.versionId}/changes`, {
        changes: [style("color", `#00000${i}`)],
      });
      expect(saved.status).toBe(200);
    }
    const about = async (who: Person, type: string) =>
      (await list(who, "?limit=100")).filter((n) => n.pageId === page.pageId && n.type === type);
    const [edits, ...more] = await about("owner", "web-inspect");
    expect(more).toEqual([]);
    expect(edits).toMatchObject({ length: 5, context: { editsCount: 5 }, isSeen: false });
    expect(notificationMessage(edits!)).toBe("suggested 5 edits on page");

    // Comments by one person fold too, pointing at the newest; another person's stay apart.
    const ids: string[] = [];
    for (const text of ["One", "Two", "Three"])
      ids.push(
        (await client.commenter.post(`/api/versions/${page.versionId}/comments`, comment(text))).body.data.id,
      );
    await client.editor.post(`/api/versions/${page.versionId}/comments`, comment("Mine"));
    const comments = await about("owner", "web-comment");
    expect(comments.map((n) => [n.actor.uid, n.length])).toEqual([
      [uid.editor, 1],
      [uid.commenter, 3],
    ]);
    expect(comments[1]!.commentId).toBe(ids[2]);
    expect(notificationMessage(comments[1]!)).toBe("left 3 comments on page");

    // Seen: the next save starts a notification of its own.
    expect((await client.owner.patch(`/api/notifications/${edits!.id}`, { isSeen: true })).status).toBe(200);
    await client.editor.post(`/api/versions/${page.versionId}/changes`, { changes: [style("color", "red")] });
    expect((await about("owner", "web-inspect")).map((n) => [n.length, n.isSeen])).toEqual([
      [1, false],
      [5, true],
    ]);
    await client.owner.patch(`/api/notifications/${edits!.id}`, { isSeen: false });
  });

  it("names a guest of the public link as the actor; guests and deleted users are never recipients", async () => {
    await client.owner.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true });
    await t.ctx.database.db.update(users).set({ isDeleted: true }).where(eq(users.id, uid.viewer));
    const guest = new ApiClient(t.url);
    const created = await guest.request(
      "POST",
      `/api/share/${projectId}/versions/${versionId}/comments`,
      comment("Hi"),
      {
        "x-redline-guest": "guest__2__Gail__gail@example.com",
      },
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const [forOwner] = (await list("owner")).filter((n) => n.commentId === id);
    expect(forOwner).toMatchObject({
      type: "web-comment",
      actor: { uid: null, displayName: "Gail", photoURL: "avatar-share-2" },
    });
    expect(await typesAbout("commenter", id)).toEqual(["web-comment"]);
    expect(await typesAbout("viewer", id)).toEqual([]);
    const rows = await t.ctx.database.db.select().from(notifications).where(eq(notifications.commentId, id));
    expect(rows.map((row) => row.userId).sort()).toEqual([uid.owner, uid.editor, uid.commenter].sort());
    await t.ctx.database.db.update(users).set({ isDeleted: false }).where(eq(users.id, uid.viewer));
    await client.owner.patch(`/api/projects/${projectId}/sharing`, { public: false });
  });

  it("counts, marks notified when the panel opens, toggles seen and clears all — one's own rows only", async () => {
    const counts = async (who: Person) => {
      await t.settled();
      return (await client[who].get("/api/notifications/counts")).body.data;
    };
    const start = await counts("owner");
    expect(start.unseen).toBeGreaterThan(1);
    expect(start.notNotified).toBe(start.unseen);

    expect((await client.owner.post("/api/notifications/notified")).body.data.updated).toBe(
      start.notNotified,
    );
    expect(await counts("owner")).toEqual({ unseen: start.unseen, notNotified: 0 });
    expect((await counts("editor")).notNotified).toBeGreaterThan(0);

    const [first] = await list("owner");
    const seen = await client.owner.patch(`/api/notifications/${first!.id}`, { isSeen: true });
    expect(seen.body.data).toMatchObject({ id: first!.id, isSeen: true });
    expect((await counts("owner")).unseen).toBe(start.unseen - 1);
    await client.owner.patch(`/api/notifications/${first!.id}`, { isSeen: false });
    expect((await counts("owner")).unseen).toBe(start.unseen);

    // Someone else's notification does not exist for them, and nothing changes.
    const before = await digest(t.ctx);
    expect((await client.editor.patch(`/api/notifications/${first!.id}`, { isSeen: true })).status).toBe(404);
    expect((await client.editor.patch("/api/notifications/no-such-id", { isSeen: true })).status).toBe(404);
    expect(await digest(t.ctx)).toEqual(before);
    expect((await new ApiClient(t.url).get("/api/notifications")).status).toBe(401);

    expect((await client.owner.post("/api/notifications/seen")).body.data.updated).toBe(start.unseen);
    expect(await counts("owner")).toEqual({ unseen: 0, notNotified: 0 });
    expect((await counts("editor")).unseen).toBeGreaterThan(0);
  });

  it("lists newest first, by project, page by page", async () => {
    const otherProject = (await client.editor.post("/api/projects", { title: "Another" })).body.data.id;
    await client.editor.post(`/api/projects/${otherProject}/members`, {
      email: mail.commenter,
      access: "comment",
    });
    const all = await list("commenter", "?limit=100");
    const times = all.map((n) => n.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(all[0]).toMatchObject({ type: "project-share", projectId: otherProject });

    const filtered = await list("commenter", `?projectId=${projectId}&limit=100`);
    expect(filtered.length).toBe(all.length - 1);
    expect(filtered.every((n) => n.projectId === projectId)).toBe(true);
    const page = (await client.commenter.get("/api/notifications?limit=2")).body;
    expect(page.projects).toEqual([
      { id: otherProject, title: "Another" },
      { id: projectId, title: "Notified project" },
    ]);

    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: { data: Notification[]; nextCursor: string | null } } =
        await client.commenter.get(
          `/api/notifications?limit=2${cursor ? `&before=${encodeURIComponent(cursor)}` : ""}`,
        );
      walked.push(...response.body.data.map((n) => n.id));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.map((n) => n.id));
  });

  it("refuses bad input with a clear 400 and changes nothing", async () => {
    const [one] = await list("editor");
    const before = await digest(t.ctx);
    for (const [path, expected] of [
      ["/api/notifications?limit=0", "The limit must be at least 1."],
      ["/api/notifications?limit=1000", "The limit must be at most"],
      ["/api/notifications?before=yesterday", "Expected a cursor from a previous page"],
      ["/api/notifications?colour=red", "The request has a field it does not take: colour."],
    ] as const) {
      const response = await client.editor.get(path);
      expect(response.status, path).toBe(400);
      expect(response.body).toMatchObject({ code: "validation", message: expect.stringContaining(expected) });
    }
    for (const body of [{}, { isSeen: "yes" }, { isSeen: true, isNotified: true }]) {
      const response = await client.editor.patch(`/api/notifications/${one!.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("validation");
    }
    expect((await client.editor.post("/api/notifications/seen", { projectId: 5 })).status).toBe(400);
    expect((await client.editor.post("/api/notifications/notified", { all: true })).status).toBe(400);
    expect(await digest(t.ctx)).toEqual(before);
  });

  it("pushes a new notification to the recipient's open sockets, and only theirs", async () => {
    const open = async (who: Person) => {
      const socket = new WebSocket(`${t.url.replace("http", "ws")}/api/realtime`, {
        headers: { origin: t.url, cookie: client[who].cookieHeader() },
      });
      const received: RealtimeServerMessage[] = [];
      socket.on("message", (data) => received.push(JSON.parse(data.toString())));
      await new Promise((resolve) => socket.once("open", resolve));
      await expect.poll(() => received.some((m) => m.type === "ready")).toBe(true);
      return { socket, received };
    };
    const [editorTab, commenterTab] = await Promise.all([open("editor"), open("commenter")]);
    const id = (await client.owner.post(`/api/versions/${versionId}/comments`, comment("Live"))).body.data.id;
    await expect
      .poll(() =>
        editorTab.received.find((m) => m.type === "event" && m.event.type === "notifications.created"),
      )
      .toMatchObject({
        room: `user:${uid.editor}`,
        event: { projectId, notification: { type: "web-comment", commentId: id, actor: { uid: uid.owner } } },
      });
    await expect
      .poll(
        () =>
          commenterTab.received.filter((m) => m.type === "event" && m.event.type === "notifications.created")
            .length,
      )
      .toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = [...editorTab.received, ...commenterTab.received].filter((m) => m.type === "event");
    expect(events.every((m) => m.type === "event" && m.room !== `user:${uid.owner}`)).toBe(true);
    editorTab.socket.close();
    commenterTab.socket.close();
  });
});
