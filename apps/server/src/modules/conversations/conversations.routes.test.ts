/**
 * The messages area end to end on a real database: a guest of the public link and the project's people
 * exchange messages with an attachment, unread counts follow, realtime reaches the members' sockets and
 * the guest's own (and nothing of another conversation), the support conversation mails the support
 * address; outsiders, forbidden files and bad input are refused and change nothing.
 */
import { CONVERSATION_TEXTS, GUEST_KEY_HEADER } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { openGuestSocket, openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { storedKeys } from "../files/stored-files.ts";

const SUPPORT = `help-${Date.now().toString(36)}@redline.example`;
const GAIL = { "x-redline-guest": "guest__2__Gail__gail@example.com", [GUEST_KEY_HEADER]: "k".repeat(40) };
const OTHER_GUEST = { "x-redline-guest": "public", [GUEST_KEY_HEADER]: "o".repeat(40) };

describe.each(routeDrivers())("conversations (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;
  let bob: Person;
  let sam: Person;
  let guest: ApiClient;
  let projectId: string;
  let conversationId: string;
  const asGuest = (method: string, path: string, body?: unknown, headers = GAIL) =>
    guest.request(method, `/api/share/${projectId}/conversation${path}`, body, headers);

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { supportEmail: SUPPORT } });
    [ada, bob, sam] = await Promise.all([
      signUpPerson(t, "ada", "Ada Lovelace"),
      signUpPerson(t, "bob", "Bob Babbage"),
      signUpPerson(t, "sam", "Sam Stranger"),
    ]);
    projectId = (await ada.client.post("/api/projects", { title: "Messages" })).body.data.id;
    await ada.client.post(`/api/projects/${projectId}/members`, { email: bob.address, access: "comment" });
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true });
    guest = new ApiClient(t.url);
  });
  afterAll(() => t.close());

  it("lets a guest and the project's people exchange messages, with unread counts and realtime", async () => {
    const socket = await openSocket(t, ada.client);
    await socket.next((m) => m.type === "ready");
    expect((await asGuest("GET", "")).body.data).toBeNull();
    const opened = await asGuest("POST", "");
    expect(opened.status).toBe(201);
    conversationId = opened.body.data.id;
    expect(opened.body.data).toMatchObject({
      title: "Ada, Bob & You",
      preview: CONVERSATION_TEXTS.beginning,
      unread: 0,
      abilities: { send: true, attach: true },
    });
    expect((await asGuest("POST", "")).body.data.id).toBe(conversationId);

    expect((await asGuest("POST", "/messages", { message: "Hello from Gail" })).status).toBe(201);
    const event = await socket.next((m) => m.type === "event" && m.event.type === "conversations.message");
    expect(event).toMatchObject({ event: { conversationId, message: { message: "Hello from Gail" } } });
    socket.socket.close();

    const [mine] = (await ada.client.get("/api/conversations")).body.data;
    expect(mine).toMatchObject({ id: conversationId, title: "Gail", preview: "Hello from Gail", unread: 1 });
    expect((await ada.client.get("/api/conversations/unread")).body.data.unread).toBe(1);

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const uploaded = await ada.client.upload(`/api/conversations/${conversationId}/attachments`, {
      name: "shot.png",
      type: "image/png",
      bytes: png,
    });
    expect(uploaded.status).toBe(201);
    const sent = await ada.client.post(`/api/conversations/${conversationId}/messages`, {
      attachments: [uploaded.body.data],
    });
    expect(sent.status).toBe(201);
    // The file collector keeps what a message holds.
    expect(await storedKeys(t.ctx.database.db)).toContain(uploaded.body.data.path);
    // Sending reads the conversation; the guest has one unread, shown as 'Sent an attachment'.
    expect((await ada.client.get("/api/conversations/unread")).body.data.unread).toBe(0);
    expect((await bob.client.get("/api/conversations/unread")).body.data.unread).toBe(2);
    const seen = (await asGuest("GET", "")).body.data;
    expect(seen).toMatchObject({ unread: 1, preview: CONVERSATION_TEXTS.sentAttachment });
    const messages = (await asGuest("GET", "/messages")).body;
    expect(messages.data.map((m: { message: string }) => m.message)).toEqual(["Hello from Gail", ""]);
    expect(messages.hasMore).toBe(false);
    const download = await asGuest("GET", `/attachments/${uploaded.body.data.id}?name=shot.png`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");

    await asGuest("POST", "/read");
    expect((await asGuest("GET", "")).body.data.unread).toBe(0);
    await bob.client.post(`/api/conversations/${conversationId}/read`);
    expect((await bob.client.get("/api/conversations/unread")).body.data.unread).toBe(0);

    const older = await ada.client.get(`/api/conversations/${conversationId}/messages?limit=1`);
    expect(older.body).toMatchObject({ hasMore: true });
    expect(older.body.data).toHaveLength(1);
  });

  it("delivers the guest's own conversation to its socket, and nothing of another's", async () => {
    // Gail's key also has a conversation in another shared project, and another guest one in this project.
    const otherProject = (await ada.client.post("/api/projects", { title: "Elsewhere" })).body.data.id;
    await ada.client.patch(`/api/projects/${otherProject}/sharing`, { public: true, canComment: true });
    const elsewhere = (path: string, body?: unknown) =>
      guest.request("POST", `/api/share/${otherProject}/conversation${path}`, body, GAIL);
    const gailElsewhere = (await elsewhere("")).body.data.id as string;
    await elsewhere("/messages", { message: "Gail, elsewhere" });
    const third = { "x-redline-guest": "guest__1__Tom__tom@example.com", [GUEST_KEY_HEADER]: "t".repeat(40) };
    const otherGuest = (await asGuest("POST", "", undefined, third)).body.data.id as string;
    await asGuest("POST", "/messages", { message: "Someone else" }, third);

    // What was written before is delivered before the socket opens: it hears only what follows.
    await t.settled();
    const tab = await openGuestSocket(t);
    // A project room, another guest's key and a project with no conversation of this key are refused.
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "error" && m.code === "forbidden" && m.projectId === projectId);
    const stranger = (await sam.client.post("/api/projects", { title: "Private" })).body.data.id;
    tab.send({ type: "guest.join", projectId: stranger, key: GAIL[GUEST_KEY_HEADER] });
    await tab.next((m) => m.type === "error" && m.code === "forbidden" && m.projectId === stranger);
    tab.send({ type: "guest.join", projectId, key: GAIL[GUEST_KEY_HEADER] });
    expect(await tab.next((m) => m.type === "guest.joined")).toEqual({ type: "guest.joined", projectId });

    // Messages in other conversations (another guest's here, Gail's in the other project) do not arrive.
    await ada.client.post(`/api/conversations/${otherGuest}/messages`, { message: "Not for Gail" });
    await ada.client.post(`/api/conversations/${gailElsewhere}/messages`, { message: "Not here either" });
    await ada.client.post(`/api/conversations/${conversationId}/messages`, { message: "Hi Gail!" });
    const event = await tab.next((m) => m.type === "event");
    expect(event).toMatchObject({
      room: `guest:${projectId}`,
      event: { type: "conversations.message", conversationId, message: { message: "Hi Gail!" } },
    });
    expect((await asGuest("GET", "")).body.data.unread).toBe(1);
    // Reading (in another tab) is told too, so every tab's count follows.
    await asGuest("POST", "/read");
    await tab.next((m) => m.type === "event" && m.event.type === "conversations.read");
    expect(tab.received.filter((m) => m.type === "event")).toEqual([]);

    // The link turned off: the next message is not delivered, and the socket is told it left.
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: false });
    await ada.client.post(`/api/conversations/${conversationId}/messages`, { message: "Link is off" });
    expect(await tab.next((m) => m.type === "guest.left")).toEqual({ type: "guest.left", projectId });
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tab.received.filter((m) => m.type === "event")).toEqual([]);
    tab.socket.close();
    for (const id of [conversationId, otherGuest]) await bob.client.post(`/api/conversations/${id}/read`);
    // Without `?guest`, a socket without a session is still refused.
    expect(await (await openSocket(t, null)).closed).toBe(4401);
  });

  it("counts message attachments towards the project owner's storage on /api/me, once sent", async () => {
    const used = async () => (await ada.client.get("/api/me")).body.data.storage.web.used as number;
    const start = await used();
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    // The guest sends it: it is the project owner's storage all the same.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "mockup.png");
    const uploaded = await asGuest("POST", "/attachments", form);
    expect(uploaded.status).toBe(201);
    // Uploaded but in no message yet: nothing holds it (the file collector may remove it).
    expect(await used()).toBe(start);
    expect((await asGuest("POST", "/messages", { attachments: [uploaded.body.data] })).status).toBe(201);
    // Another person's write (the guest's): the owner's kept figures move when the database announces it,
    // milliseconds after the commit (ADR 0013).
    await expect.poll(used).toBe(start + bytes.length);
    // The same file sent again is stored once, so counted once.
    const again = await ada.client.upload(`/api/conversations/${conversationId}/attachments`, {
      name: "mockup-again.png",
      type: "image/png",
      bytes,
    });
    await ada.client.post(`/api/conversations/${conversationId}/messages`, {
      attachments: [again.body.data],
    });
    expect(await used()).toBe(start + bytes.length);
    // A member's storage does not move: the files are the project owner's.
    expect((await bob.client.get("/api/me")).body.data.storage.web.used).toBe(0);
    await bob.client.post(`/api/conversations/${conversationId}/read`);
    await asGuest("POST", "/read");
  });

  it("keeps one conversation per set of people, among the project's people only", async () => {
    const people = (await ada.client.get(`/api/conversations/people?projectId=${projectId}`)).body.data;
    expect(people).toEqual([{ uid: bob.uid, displayName: "Bob Babbage", photoURL: null }]);
    await expectRefused(t, () => sam.client.get(`/api/conversations/people?projectId=${projectId}`), 404);
    const started = await ada.client.post("/api/conversations", { projectId, participantIds: [bob.uid] });
    expect(started.status).toBe(201);
    expect(started.body.data.title).toBe("Bob Babbage");
    const again = await bob.client.post("/api/conversations", { projectId, participantIds: [ada.uid] });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(started.body.data.id);
    await expectRefused(
      t,
      () => ada.client.post("/api/conversations", { projectId, participantIds: [sam.uid] }),
      400,
      "not-project-people",
    );
  });

  it("refuses outsiders, forbidden files and bad input, storing nothing", async () => {
    const path = `/api/conversations/${conversationId}`;
    await expectRefused(t, () => sam.client.get(path), 404, "conversation-not-found");
    await expectRefused(t, () => sam.client.post(`${path}/messages`, { message: "Hi" }), 404);
    await expectRefused(
      t,
      () => sam.client.post("/api/conversations", { projectId, participantIds: [ada.uid] }),
      404,
    );
    await expectRefused(t, () => asGuest("GET", "/messages", undefined, OTHER_GUEST), 404);
    await expectRefused(t, () => asGuest("POST", "/messages", { message: "Hi" }, OTHER_GUEST), 404);
    await expectRefused(
      t,
      () =>
        ada.client.upload(`${path}/attachments`, {
          name: "setup.exe",
          type: "application/octet-stream",
          bytes: Buffer.from("MZ"),
        }),
      400,
      "forbidden-file-type",
    );
    await expectRefused(
      t,
      () =>
        asGuest(
          "POST",
          "/attachments",
          (() => {
            const form = new FormData();
            form.append("file", new Blob(["<script>"], { type: "text/html" }), "page.html");
            return form;
          })(),
        ),
      400,
      "forbidden-file-type",
    );
    await expectRefused(t, () => ada.client.post(`${path}/messages`, { message: "   " }), 400);
    await expectRefused(
      t,
      () =>
        ada.client.post(`${path}/messages`, {
          attachments: [
            {
              id: "f".repeat(64),
              path: `conversations/${conversationId}/${"f".repeat(64)}`,
              name: "a",
              size: 1,
              type: "",
            },
          ],
        }),
      400,
      "attachment-not-found",
    );
    await expectRefused(
      t,
      () => asGuest("POST", "/messages", { message: "Hi" }, { ...GAIL, [GUEST_KEY_HEADER]: "x" }),
      400,
    );
    // With the link off, the guest's conversation is out of reach.
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: false });
    await expectRefused(t, () => asGuest("POST", "/messages", { message: "Still there?" }), 404);
    await ada.client.patch(`/api/projects/${projectId}/sharing`, { public: true });
  });

  it("mails each 'Need help?' message to the support address, and its account answers", async () => {
    const sue = await signUpVerified(t.url, t.inbox!, SUPPORT, undefined, "Sue Support");
    const opened = await bob.client.post("/api/conversations/support");
    expect(opened.status).toBe(201);
    expect(opened.body.data).toMatchObject({ kind: "support", title: "Support", projectId: null });
    const id = opened.body.data.id;
    expect((await bob.client.post("/api/conversations/support")).body.data.id).toBe(id);
    await bob.client.post(`/api/conversations/${id}/messages`, { message: "I cannot find my invoices." });
    const mail = await t.inbox!.waitFor((m) => m.to.includes(SUPPORT) && m.subject.includes("Need help?"));
    expect(mail.text).toContain("I cannot find my invoices.");
    expect(mail.text).toContain(`Need help? message from Bob Babbage <${bob.address}>`);
    expect(mail.html).toContain(`Need help? message from Bob Babbage &lt;${bob.address}&gt;`);
    expect(mail.html).toContain("I cannot find my invoices.");
    expect(mail.headers["reply-to"]).toContain(bob.address);

    const [asSupport] = (await sue.get("/api/conversations")).body.data;
    expect(asSupport).toMatchObject({ id, title: "Bob Babbage", unread: 1 });
    await sue.post(`/api/conversations/${id}/messages`, { message: "Under My Plan → Invoices." });
    expect((await bob.client.get("/api/conversations/unread")).body.data.unread).toBe(1);
    await expectRefused(t, () => sam.client.get(`/api/conversations/${id}`), 404);
  });
});
