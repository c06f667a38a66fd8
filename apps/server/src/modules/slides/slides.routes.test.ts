/**
 * The deck of an illustration project against PostgreSQL (issue #32): editors' updates converge through
 * the project's realtime room, viewers and strangers are refused, malformed updates leave the stored deck
 * as it was, an editor who was offline merges on return, and images are refused past 5 MB or when not
 * images, nothing stored.
 */
import { blankSlideId, type RealtimeServerMessage } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { slideImages } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, startTwoApps, type TestApp, type TwoApps } from "../../testing/test-app.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

/** An editor as the web app holds one: a Yjs document that sends what it changes. */
class Editor {
  readonly doc = new Y.Doc();
  private outbox: Uint8Array[] = [];
  online = true;
  constructor(
    readonly client: ApiClient,
    readonly projectId: string,
  ) {
    this.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin !== "remote") this.outbox.push(update);
    });
  }
  get slides() {
    return this.doc.getMap<Y.Map<unknown>>("slides");
  }
  async load() {
    const { body } = await this.client.get(`/api/projects/${this.projectId}/deck`);
    Y.applyUpdate(this.doc, fromB64(body.data.update), "remote");
    return body.data as { update: string; canEdit: boolean };
  }
  receive(update: string) {
    Y.applyUpdate(this.doc, fromB64(update), "remote");
  }
  /** Sends what is waiting as one update. */
  async flush() {
    if (!this.online || this.outbox.length === 0) return null;
    const update = Y.mergeUpdates(this.outbox.splice(0));
    const sent = await this.client.post(`/api/projects/${this.projectId}/deck/updates`, {
      update: b64(update),
      clientId: this.doc.clientID,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent;
  }
  addSlide(id: string, position: number) {
    const slide = new Y.Map<unknown>();
    slide.set("id", id);
    slide.set("position", position);
    slide.set("createdAt", 1);
    slide.set("notes", "");
    slide.set("objects", new Y.Map());
    this.slides.set(id, slide);
  }
  addText(slideId: string, id: string, text: string) {
    const object = new Y.Map<unknown>();
    const fields = {
      id,
      kind: "text",
      text,
      x: 10,
      y: 10,
      width: 200,
      height: 40,
      rotation: 0,
      z: 1,
      fontFamily: "Inter",
      fontSize: 28,
      fontWeight: 400,
      italic: false,
      underline: false,
      fill: "#1f2933",
      align: "left",
    };
    for (const [key, value] of Object.entries(fields)) object.set(key, value);
    this.objects(slideId).set(id, object);
  }
  objects(slideId: string) {
    return (this.slides.get(slideId) as Y.Map<unknown>).get("objects") as Y.Map<Y.Map<unknown>>;
  }
  json() {
    return this.slides.toJSON();
  }
}

describe("the slide deck", () => {
  let t: TestApp;
  let owner: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const [editorEmail, viewerEmail] = [email("editor"), email("viewer")];
    [owner, editor, viewer, stranger] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner")),
      signUpVerified(t.url, t.inbox!, editorEmail),
      signUpVerified(t.url, t.inbox!, viewerEmail),
      signUpVerified(t.url, t.inbox!, email("stranger")),
    ]);
    projectId = (await owner.post("/api/projects", { title: "Deck", type: "illustration" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: editorEmail, access: "edit" });
    await owner.post(`/api/projects/${projectId}/members`, { email: viewerEmail, access: "view" });
  }, 60_000);
  afterAll(() => t.close());

  const deck = async (client: ApiClient = owner) => {
    const doc = new Y.Doc();
    const { body } = await client.get(`/api/projects/${projectId}/deck`);
    Y.applyUpdate(doc, fromB64(body.data.update));
    return doc.getMap("slides").toJSON();
  };

  it("two editors' interleaved edits of one slide converge, live through the room and after a reload", async () => {
    const a = new Editor(owner, projectId);
    const b = new Editor(editor, projectId);
    expect((await a.load()).canEdit).toBe(true);
    await b.load();
    const tab = await openSocket(t, editor);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");

    a.addSlide("s1", 1);
    a.addText("s1", "t1", "Hello");
    await a.flush();
    const heard = await tab.next((m) => m.type === "event" && m.event.type === "deck.updated");
    const event = (heard as Extract<RealtimeServerMessage, { type: "event" }>).event;
    expect(event).toMatchObject({ type: "deck.updated", projectId, clientId: a.doc.clientID });
    if (event.type === "deck.updated") b.receive(event.update);
    expect(b.json()).toEqual(a.json());

    // 250 rounds of concurrent edits of the same object and slide (a property each, some the same), each
    // editor sending before hearing the other: the deck compacts along the way (every 200 updates).
    for (let round = 0; round < 250; round++) {
      a.objects("s1").get("t1")?.set("x", round);
      a.objects("s1")
        .get("t1")
        ?.set("fontWeight", 100 * ((round % 9) + 1));
      b.objects("s1")
        .get("t1")
        ?.set("y", round * 2);
      b.objects("s1")
        .get("t1")
        ?.set("x", round + 1000);
      if (round % 50 === 0) b.addText("s1", `b${round}`, `From B ${round}`);
      const [sentA, sentB] = await Promise.all([a.flush(), b.flush()]);
      expect(sentA?.status).toBe(200);
      expect(sentB?.status).toBe(200);
    }
    // Each takes what the server holds (as a reload would) and all three agree.
    await Promise.all([a.load(), b.load()]);
    const stored = await deck();
    expect(a.json()).toEqual(stored);
    expect(b.json()).toEqual(stored);
    const text = (stored.s1 as { objects: Record<string, { y: number; fontWeight: number }> }).objects;
    expect(text.t1?.y).toBe(498);
    expect(Object.keys(text)).toHaveLength(6);
    tab.socket.close();
  }, 120_000);

  it("two editors deleting the last slide at once leave exactly one blank slide (the shared blank id)", async () => {
    const own = (await owner.post("/api/projects", { title: "One slide", type: "illustration" })).body.data
      .id;
    await owner.post(`/api/projects/${own}/members`, {
      email: (await editor.get("/api/me")).body.data.email,
      access: "edit",
    });
    const a = new Editor(owner, own);
    const b = new Editor(editor, own);
    await a.load();
    // A deck of one slide, held by both.
    a.addSlide("first", 1);
    a.addSlide("last", 2);
    a.slides.delete("first");
    await a.flush();
    await b.load();
    expect(Object.keys(b.json())).toEqual(["last"]);
    // Each deletes it and puts the empty deck's blank slide in its place, as the editor does, before
    // hearing of the other: both updates reach the server at the same time.
    const blanks = [a, b].map((e) => blankSlideId(e.slides._map.keys()));
    expect(blanks[1]).toBe(blanks[0]);
    for (const [i, e] of [a, b].entries()) {
      const blank = blanks[i] as string;
      e.doc.transact(() => {
        e.slides.delete("last");
        e.addSlide(blank, 1);
      });
    }
    await Promise.all([a.flush(), b.flush()]);
    const stored = (await owner.get(`/api/projects/${own}/deck`)).body.data.update as string;
    const json = new Y.Doc();
    Y.applyUpdate(json, fromB64(stored));
    const storedDeck = json.getMap("slides").toJSON();
    expect(Object.keys(storedDeck)).toEqual([blanks[0]]);
    expect(Object.keys(storedDeck)).toHaveLength(1);
    await Promise.all([a.load(), b.load()]);
    expect(a.json()).toEqual(storedDeck);
    expect(b.json()).toEqual(storedDeck);
  });

  it("refuses a viewer's and a stranger's update (403 / 404), the deck unchanged", async () => {
    const before = await deck();
    const intruder = new Y.Doc();
    Y.applyUpdate(intruder, fromB64((await viewer.get(`/api/projects/${projectId}/deck`)).body.data.update));
    expect((await viewer.get(`/api/projects/${projectId}/deck`)).body.data.canEdit).toBe(false);
    const change = () => {
      const slide = new Y.Map<unknown>();
      for (const [key, value] of Object.entries({ id: "v1", position: 9, createdAt: 1, notes: "" }))
        slide.set(key, value);
      slide.set("objects", new Y.Map());
      intruder.getMap("slides").set("v1", slide);
    };
    const update = b64(Y.encodeStateAsUpdate(intruder, Y.encodeStateVector(intruder)));
    change();
    const all = b64(Y.encodeStateAsUpdate(intruder));
    expect(update.length).toBeGreaterThan(0);
    expect((await viewer.post(`/api/projects/${projectId}/deck/updates`, { update: all })).status).toBe(403);
    expect((await stranger.post(`/api/projects/${projectId}/deck/updates`, { update: all })).status).toBe(
      404,
    );
    expect((await stranger.get(`/api/projects/${projectId}/deck`)).status).toBe(404);
    expect(await deck()).toEqual(before);
  });

  it("refuses a malformed update with a clear 400 and leaves the stored deck untouched", async () => {
    const before = await deck();
    const base = new Y.Doc();
    Y.applyUpdate(base, fromB64((await owner.get(`/api/projects/${projectId}/deck`)).body.data.update));
    const diffOf = (change: (doc: Y.Doc) => void) => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(base));
      const vector = Y.encodeStateVector(doc);
      change(doc);
      return b64(Y.encodeStateAsUpdate(doc, vector));
    };
    const slideWith = (fields: Record<string, unknown>) => (doc: Y.Doc) => {
      const slide = new Y.Map<unknown>();
      for (const [key, value] of Object.entries(fields)) slide.set(key, value);
      doc.getMap("slides").set(String(fields.id ?? "x"), slide);
    };
    const bad = [
      // Not a Yjs update at all.
      b64(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])),
      // A slide without its fields.
      diffOf(slideWith({ id: "m1" })),
      // A text with a weight SPEC does not have.
      diffOf((doc) => {
        const objects = (doc.getMap("slides").get("s1") as Y.Map<unknown>).get("objects") as Y.Map<unknown>;
        (objects.get("t1") as Y.Map<unknown>).set("fontWeight", 450);
      }),
      // Another project's image.
      diffOf((doc) => {
        const objects = (doc.getMap("slides").get("s1") as Y.Map<unknown>).get("objects") as Y.Map<unknown>;
        const image = new Y.Map<unknown>();
        const fields = { id: "i1", kind: "image", x: 0, y: 0, width: 10, height: 10, rotation: 0, z: 3 };
        for (const [key, value] of Object.entries(fields)) image.set(key, value);
        image.set("src", `/files/slides/other/${"a".repeat(64)}.png`);
        objects.set("i1", image);
      }),
      // Something beside the slides.
      diffOf((doc) => doc.getMap("elsewhere").set("x", 1)),
    ];
    for (const update of bad) {
      const refused = await owner.post(`/api/projects/${projectId}/deck/updates`, { update });
      expect(refused.status, update.slice(0, 40)).toBe(400);
      expect(refused.body.message).toMatch(/slide change/);
    }
    for (const body of [{}, { update: "not base64!" }, { update: "AAAA", extra: 1 }]) {
      expect((await owner.post(`/api/projects/${projectId}/deck/updates`, body)).status).toBe(400);
    }
    expect(await deck()).toEqual(before);
  });

  it("an editor who went offline keeps editing and merges when back", async () => {
    const a = new Editor(owner, projectId);
    const b = new Editor(editor, projectId);
    await Promise.all([a.load(), b.load()]);
    a.online = false;
    a.addSlide("offline", 50);
    a.objects("s1").get("t1")?.set("text", "Edited offline");
    b.objects("s1").get("t1")?.set("fill", "#ff0000");
    await b.flush();
    a.online = true;
    await a.flush();
    await Promise.all([a.load(), b.load()]);
    expect(a.json()).toEqual(b.json());
    const stored = (await deck()) as Record<
      string,
      { objects: Record<string, { text: string; fill: string }> }
    >;
    expect(stored.offline).toBeDefined();
    expect(stored.s1?.objects.t1).toMatchObject({ text: "Edited offline", fill: "#ff0000" });
  });

  it("has no deck on a project of another type (404)", async () => {
    const web = (await owner.post("/api/projects", { title: "Web" })).body.data.id;
    const answer = await owner.get(`/api/projects/${web}/deck`);
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe("not-slides");
  });

  it("stores an image of at most 5 MB; refuses a bigger one or one that is not an image, nothing stored", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#e5383b" } })
      .png()
      .toBuffer();
    const path = `/api/projects/${projectId}/slides/images`;
    const stored = await owner.upload(path, { name: "a.png", type: "image/png", bytes: png });
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ width: 40, height: 30 });
    expect(stored.body.data.src).toMatch(new RegExp(`^/files/slides/${projectId}/[a-f0-9]{64}\\.png$`));
    expect((await owner.get(stored.body.data.src)).status).toBe(200);
    const count = async () => (await t.ctx.database.db.select().from(slideImages)).length;
    const before = await count();
    const tooBig = await owner.upload(path, {
      name: "big.png",
      type: "image/png",
      bytes: Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe("Max file size is 5 MB.");
    const text = await owner.upload(path, { name: "a.txt", type: "text/plain", bytes: Buffer.from("hello") });
    expect(text.status).toBe(400);
    expect(text.body.message).toBe("Upload a JPEG, PNG, WebP or GIF image.");
    expect((await viewer.upload(path, { name: "a.png", type: "image/png", bytes: png })).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it("relays presence to the room without storing it — not even in the ledger", async () => {
    const tab = await openSocket(t, owner);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const selection = Array.from({ length: 60 }, (_, i) => `object-${i}-${"x".repeat(50)}`);
    const sent = await editor.post(`/api/projects/${projectId}/deck/presence`, {
      clientId: 7,
      slideId: "s1",
      selection,
    });
    expect(sent.status).toBe(200);
    const heard = await tab.next((m) => m.type === "event" && m.event.type === "deck.presence");
    expect(heard).toMatchObject({ event: { presence: { clientId: 7, slideId: "s1" } } });
    // A long selection is told by its first objects (what NOTIFY carries stays small).
    if (heard.type === "event" && heard.event.type === "deck.presence")
      expect(heard.event.presence.selection).toEqual(selection.slice(0, 40));
    // Presence repeats every 10 s per open editor: none of it is a durable record.
    await t.ctx.ledger.settled();
    const recorded = await t.ctx.database.executeSql(
      "select count(*)::int as n from domain_events where payload::text like '%deck.presence%'",
    );
    expect(recorded.rows).toEqual([{ n: 0 }]);
    tab.socket.close();
  });

  it("refuses presence from a stranger (404) and a malformed one (400), telling no one", async () => {
    const tab = await openSocket(t, owner);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const path = `/api/projects/${projectId}/deck/presence`;
    expect((await stranger.post(path, { clientId: 8, slideId: "s1", selection: [] })).status).toBe(404);
    expect((await editor.post(path, { clientId: -1, slideId: "s1", selection: [] })).status).toBe(400);
    expect((await editor.post(path, { clientId: 9, slideId: "s1", selection: [], extra: 1 })).status).toBe(
      400,
    );
    // The next presence the tab hears is the one sent after the refused ones.
    await editor.post(path, { clientId: 10, slideId: "s1", selection: [] });
    const heard = await tab.next((m) => m.type === "event" && m.event.type === "deck.presence");
    expect(heard).toMatchObject({ event: { presence: { clientId: 10 } } });
    tab.socket.close();
  });
});

describe("the slide deck across two processes", () => {
  let apps: TwoApps;
  afterAll(() => apps?.close());

  it("an update sent to one process reaches an editor whose socket is on the other", async () => {
    apps = await startTwoApps();
    const owner = await signUpVerified(apps.a.url, apps.a.inbox!, email("two"));
    const projectId = (await owner.post("/api/projects", { title: "Two", type: "illustration" })).body.data
      .id;
    const onB = await openSocket(apps.b, owner);
    onB.send({ type: "join", projectId });
    await onB.next((m) => m.type === "joined");
    const a = new Editor(owner, projectId);
    await a.load();
    a.addSlide("s1", 1);
    await a.flush();
    const heard = await onB.next((m) => m.type === "event" && m.event.type === "deck.updated");
    const b = new Y.Doc();
    if (heard.type === "event" && heard.event.type === "deck.updated")
      Y.applyUpdate(b, fromB64(heard.event.update));
    expect(b.getMap("slides").toJSON()).toEqual(a.json());

    // Presence sent to one process reaches the other's socket too (a NOTIFY, not the ledger).
    expect(
      (
        await owner.post(`/api/projects/${projectId}/deck/presence`, {
          clientId: 3,
          slideId: "s1",
          selection: [],
        })
      ).status,
    ).toBe(200);
    const presence = await onB.next((m) => m.type === "event" && m.event.type === "deck.presence");
    expect(presence).toMatchObject({ event: { projectId, presence: { clientId: 3, slideId: "s1" } } });
    onB.socket.close();
  }, 60_000);
});
