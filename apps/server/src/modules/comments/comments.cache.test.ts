import type { Comment } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, startTwoApps, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver, drivers } from "../../testing/test-db.ts";
import { CommentsCache, commentsCacheOf } from "./comments.cache.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const newComment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });
const list = (authorId: string): Comment[] => [{ thread: [{ userId: authorId }] }] as unknown as Comment[];

describe("the comments cache's bookkeeping", () => {
  it("keeps an answer per version and reader, and forgets a project's versions when it changes", () => {
    const cache = new CommentsCache();
    cache.keep("v1", "p1", list("u1"), "reader-a", Buffer.from("A"), cache.begin());
    cache.keep("v2", "p2", list("u1"), "reader-a", Buffer.from("B"), cache.begin());
    expect(cache.get("v1", "p1", "reader-a")?.answer?.toString()).toBe("A");
    expect(cache.get("v1", "p1", "reader-b")).toMatchObject({ answer: undefined });
    cache.heard("project:p1", null, undefined);
    expect(cache.get("v1", "p1", "reader-a")).toBeUndefined();
    expect(cache.get("v2", "p2", "reader-a")?.answer?.toString()).toBe("B");
  });

  it("does not keep a read that began before a change it depends on", () => {
    const cache = new CommentsCache();
    const began = cache.begin();
    cache.heard("project:p1", null, undefined);
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("stale"), began);
    expect(cache.size).toBe(0);
    const again = cache.begin();
    cache.forgetAuthor("u1");
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("stale"), again);
    expect(cache.size).toBe(0);
    cache.keep("v1", "p1", list("u2"), "r", Buffer.from("fresh"), again);
    expect(cache.get("v1", "p1", "r")?.answer?.toString()).toBe("fresh");
    cache.forgetAuthor("u2");
    expect(cache.size).toBe(0);
  });

  it("holds a project this process is writing until the database announces the write, or it expires", () => {
    const cache = new CommentsCache();
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("old"), cache.begin());
    cache.sent("project:p1", null, "write-1");
    expect(cache.get("v1", "p1", "r")).toBeUndefined();
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("mid"), cache.begin());
    expect(cache.size).toBe(0);
    // Another process's announcement does not end this process's write.
    cache.heard("project:p1", null, "someone-else");
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("mid"), cache.begin());
    expect(cache.size).toBe(0);
    cache.heard("project:p1", null, "write-1");
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("new"), cache.begin());
    expect(cache.get("v1", "p1", "r")?.answer?.toString()).toBe("new");
    // A write that rolled back is never heard: it stops holding after a while.
    cache.sent("project:p1", null, "rolled-back", Date.now() - 60_000);
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("later"), cache.begin());
    expect(cache.get("v1", "p1", "r")?.answer?.toString()).toBe("later");
  });

  it("keeps nothing while announcements may be missed, nor when the users' channel is lost", () => {
    const cache = new CommentsCache();
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("A"), cache.begin());
    cache.setListening(false);
    expect(cache.size).toBe(0);
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("A"), cache.begin());
    expect(cache.size).toBe(0);
    cache.setListening(true);
    cache.keep("v1", "p1", list("u1"), "r", Buffer.from("A"), cache.begin());
    expect(cache.size).toBe(1);
    const deaf = new CommentsCache(() => false);
    deaf.keep("v1", "p1", list("u1"), "r", Buffer.from("A"), deaf.begin());
    expect(deaf.size).toBe(0);
  });

  it("forgets the least recently read versions past its size", () => {
    // Each keeps its list and one answer: 60 characters.
    const cache = new CommentsCache(() => true, 150);
    cache.keep("v1", "p", list("u"), "r", Buffer.from("x".repeat(30)), cache.begin());
    cache.keep("v2", "p", list("u"), "r", Buffer.from("y".repeat(30)), cache.begin());
    cache.get("v1", "p", "r");
    cache.keep("v3", "p", list("u"), "r", Buffer.from("z".repeat(30)), cache.begin());
    expect(cache.get("v2", "p", "r")).toBeUndefined();
    expect(cache.get("v1", "p", "r")?.answer?.toString()).toBe("x".repeat(30));
    expect(cache.get("v3", "p", "r")?.answer?.toString()).toBe("z".repeat(30));
  });
});

describe.each(drivers())("a version's comments read from the cache (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let member: ApiClient;
  let projectId: string;
  let versionId: string;
  const read = async (client: ApiClient) => {
    const answer = await client.get(`/api/versions/${versionId}/comments`);
    expect(answer.status).toBe(200);
    return answer.body.data as Comment[];
  };

  beforeAll(async () => {
    t = await startTestApp({ driver });
    const memberAddress = email("member");
    [owner, member] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner"), undefined, "Olivia Owner"),
      signUpVerified(t.url, t.inbox!, memberAddress, undefined, "Carl Commenter"),
    ]);
    projectId = (await owner.post("/api/projects", { title: "Cached" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: memberAddress, access: "comment" });
    versionId = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/c" })).body
      .data.versionId;
    await member.post(`/api/versions/${versionId}/comments`, newComment("First"));
    // What these writes announce is heard before the tests read (a late announcement empties the cache).
    await t.settled();
  });
  afterAll(() => t.close());

  it("answers each reader with their own abilities, and follows a change of their access", async () => {
    const [asOwner, asMember] = [await read(owner), await read(member)];
    expect(commentsCacheOf(t.ctx.database.db)!.size).toBe(1);
    expect(asOwner[0]!.abilities).toMatchObject({ resolve: true, move: true });
    expect(asOwner[0]!.thread[0]!.abilities).toEqual({ edit: false, delete: true });
    expect(asMember[0]!.abilities).toMatchObject({ reply: true, resolve: true });
    expect(asMember[0]!.thread[0]!.abilities).toEqual({ edit: true, delete: true });
    // Read again: the same answers, from the cache.
    expect(await read(owner)).toEqual(asOwner);
    expect(await read(member)).toEqual(asMember);

    const people = (await owner.get(`/api/projects/${projectId}/members`)).body.data as {
      id: string;
      userId: string | null;
      access: string;
    }[];
    const entry = people.find((person) => person.access === "comment")!;
    expect(
      (await owner.patch(`/api/projects/${projectId}/members/${entry.id}`, { access: "view" })).status,
    ).toBe(200);
    const asViewer = await read(member);
    expect(asViewer[0]!.abilities).toEqual({ reply: false, attach: false, resolve: false, move: false });
    expect(asViewer[0]!.thread[0]!.abilities).toEqual({ edit: true, delete: true });
    await owner.patch(`/api/projects/${projectId}/members/${entry.id}`, { access: "comment" });
  });

  it("lets a tab holding the same answer revalidate it: 304 with no body, until it changes", async () => {
    const path = `/api/versions/${versionId}/comments`;
    const first = await member.get(path);
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const again = await member.request("GET", path, undefined, { "if-none-match": tag });
    expect(again.status).toBe(304);
    expect(again.body).toBeFalsy();
    expect(again.headers.get("etag")).toBe(tag);
    // Weakly compared, in a list.
    const listed = await member.request("GET", path, undefined, { "if-none-match": `"other", W/${tag}` });
    expect(listed.status).toBe(304);
    // Another reader's answer carries other abilities: the member's tag does not fit it.
    const asOwner = await owner.request("GET", path, undefined, { "if-none-match": tag });
    expect(asOwner.status).toBe(200);
    expect(asOwner.headers.get("etag")).not.toBe(tag);
    // A new comment changes the answer: sent in full, with a new tag.
    await owner.post(path, newComment("Changed"));
    const changed = await member.request("GET", path, undefined, { "if-none-match": tag });
    expect(changed.status).toBe(200);
    expect((changed.body.data as Comment[]).map((comment) => comment.thread[0]!.comment)).toContain(
      "Changed",
    );
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("sends the list compressed to a client that accepts it, each encoding with its own tag", async () => {
    const path = `/api/versions/${versionId}/comments`;
    for (let i = 0; i < 5; i++) await owner.post(path, newComment(`Long enough to compress ${i}`));
    const plain = await member.request("GET", path, undefined, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toMatch(/accept-encoding/i);
    const plainLength = Number(plain.headers.get("content-length"));
    const plainTag = plain.headers.get("etag")!;

    const brotli = await member.request("GET", path, undefined, { "accept-encoding": "gzip, deflate, br" });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(Number(brotli.headers.get("content-length"))).toBeLessThan(plainLength / 3);
    expect(brotli.body).toEqual(plain.body);
    const brotliTag = brotli.headers.get("etag")!;
    expect(brotliTag).not.toBe(plainTag);

    const gzipped = await member.request("GET", path, undefined, { "accept-encoding": "gzip, br;q=0" });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.body).toEqual(plain.body);

    // A browser revalidates the representation it holds; the other encoding's tag does not fit it.
    const same = { "accept-encoding": "gzip, deflate, br", "if-none-match": brotliTag };
    expect((await member.request("GET", path, undefined, same)).status).toBe(304);
    const other = { "accept-encoding": "gzip, deflate, br", "if-none-match": plainTag };
    expect((await member.request("GET", path, undefined, other)).status).toBe(200);
  });

  it("shows a write to the writer's next read at once, in the same process", async () => {
    await read(owner);
    const created = (await owner.post(`/api/versions/${versionId}/comments`, newComment("Second"))).body.data;
    expect((await read(owner)).map((comment) => comment.id)).toContain(created.id);
    await member.post(`/api/comments/${created.id}/replies`, { comment: "A reply", attachments: [] });
    expect((await read(owner)).find((comment) => comment.id === created.id)!.thread).toHaveLength(2);
    expect((await owner.patch(`/api/comments/${created.id}`, { isResolved: true })).status).toBe(200);
    expect((await read(member)).find((comment) => comment.id === created.id)!.isResolved).toBe(true);
    const entryId = (await read(owner)).find((comment) => comment.id === created.id)!.thread[0]!.id;
    await owner.delete(`/api/comments/${created.id}/entries/${entryId}`);
    expect((await read(member)).map((comment) => comment.id)).not.toContain(created.id);
  });

  it("shows an author's new name, and 'Deleted User' once they leave the project", async () => {
    await read(owner);
    expect((await member.patch("/api/me", { displayName: "Carla Renamed" })).status).toBe(200);
    expect((await read(owner))[0]!.thread[0]!.author.displayName).toBe("Carla Renamed");
    const people = (await owner.get(`/api/projects/${projectId}/members`)).body.data as {
      id: string;
      access: string;
    }[];
    const entry = people.find((person) => person.access === "comment")!;
    expect((await owner.delete(`/api/projects/${projectId}/members/${entry.id}`)).status).toBe(200);
    expect((await read(owner))[0]!.thread[0]!.author.displayName).toBe("Deleted User");
  });
});

describe.runIf(defaultDriver() === "postgres")("the comments cache across two server processes", () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, close } = await startTwoApps());
  });
  afterAll(() => close());

  it("serves a write made on one process to a tab told of it and reading from the other", async () => {
    const onA = await signUpVerified(a.url, a.inbox!, email("cross"), undefined, "Alex A");
    const projectId = (await onA.post("/api/projects", { title: "Cross" })).body.data.id;
    const versionId = (await onA.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/x" }))
      .body.data.versionId;
    await onA.post(`/api/versions/${versionId}/comments`, newComment("One"));
    await Promise.all([a.settled(), b.settled()]);
    const onB = Object.assign(Object.create(Object.getPrototypeOf(onA)), onA, {
      baseUrl: b.url,
    }) as ApiClient;
    const readOnB = async () => (await onB.get(`/api/versions/${versionId}/comments`)).body.data as Comment[];
    expect(await readOnB()).toHaveLength(1);
    expect(commentsCacheOf(b.ctx.database.db)!.size).toBeGreaterThan(0);
    const tab = await openSocket(b, onB);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");

    // Each write on A; B's tab hears it and refetches from B at once: the cache forgot before telling.
    const created = (await onA.post(`/api/versions/${versionId}/comments`, newComment("Two"))).body.data;
    await tab.next((m) => m.type === "event");
    expect((await readOnB()).map((comment) => comment.id)).toContain(created.id);
    await onA.patch(`/api/comments/${created.id}`, { isResolved: true });
    await tab.next((m) => m.type === "event");
    expect((await readOnB()).find((comment) => comment.id === created.id)!.isResolved).toBe(true);
    const entryId = (await readOnB()).find((comment) => comment.id === created.id)!.thread[0]!.id;
    await onA.patch(`/api/comments/${created.id}/entries/${entryId}`, { comment: "Two, edited" });
    await tab.next((m) => m.type === "event");
    expect((await readOnB()).find((comment) => comment.id === created.id)!.thread[0]!.comment).toBe(
      "Two, edited",
    );
    tab.socket.close();

    // A change with no socket event (the author's name) reaches B as the database announces it.
    await onA.patch("/api/me", { displayName: "Alex Renamed" });
    await expect
      .poll(async () => (await readOnB())[0]!.thread[0]!.author.displayName, { timeout: 2000 })
      .toBe("Alex Renamed");
  });
});
