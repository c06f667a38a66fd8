import type { Comment } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { commentsCacheOf, MAX_FIRST_COMMENTS } from "./comments.cache.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const newComment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });
const texts = (list: Comment[]) => list.map((comment) => comment.thread[0]!.comment);

describe.each(drivers())("GET /api/versions/:id/comments?first= (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let viewer: ApiClient;
  let projectId: string;
  let versionId: string;
  const path = (query = "") => `/api/versions/${versionId}/comments${query}`;
  const firstPage = async (client: ApiClient, first: number) => {
    const answer = await client.get(path(`?first=${first}`));
    expect(answer.status).toBe(200);
    return answer.body as { data: Comment[]; total: number };
  };

  beforeAll(async () => {
    t = await startTestApp({ driver });
    const viewerAddress = email("viewer");
    [owner, viewer] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner"), undefined, "Olivia Owner"),
      signUpVerified(t.url, t.inbox!, viewerAddress, undefined, "Vera Viewer"),
    ]);
    projectId = (await owner.post("/api/projects", { title: "First page" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: viewerAddress, access: "view" });
    versionId = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/f" })).body
      .data.versionId;
    for (const text of ["One", "Two", "Three", "Four", "Five"])
      expect((await owner.post(path(), newComment(text))).status).toBe(201);
    await owner.post(`/api/comments/${(await owner.get(path())).body.data[1].id}/replies`, {
      comment: "Reply",
    });
    await t.settled();
    commentsCacheOf(t.ctx.database.db)?.clear();
  });
  afterAll(() => t.close());

  it("answers the first comments in creation order with the version's total, read or kept the same", async () => {
    // Nothing kept yet: the LIMITed query.
    const cold = await firstPage(owner, 2);
    expect(commentsCacheOf(t.ctx.database.db)!.size).toBe(0);
    expect(texts(cold.data)).toEqual(["One", "Two"]);
    expect(cold.total).toBe(5);
    expect(cold.data[1]!.thread.map((entry) => entry.comment)).toEqual(["Two", "Reply"]);
    expect(cold.data[1]!.thread[0]!.author).toMatchObject({ displayName: "Olivia Owner" });

    // The whole list as before (no total), then kept: a first page is its head.
    const whole = await owner.get(path());
    expect(whole.body).toEqual({ data: expect.any(Array) });
    expect(texts(whole.body.data)).toEqual(["One", "Two", "Three", "Four", "Five"]);
    expect(cold.data).toEqual(whole.body.data.slice(0, 2));
    expect(commentsCacheOf(t.ctx.database.db)!.size).toBe(1);
    expect(await firstPage(owner, 2)).toEqual(cold);
    expect(await firstPage(owner, MAX_FIRST_COMMENTS)).toEqual({ data: whole.body.data, total: 5 });
  });

  it("gives each reader their own abilities, kept or not", async () => {
    commentsCacheOf(t.ctx.database.db)?.clear();
    const cold = await firstPage(viewer, 3);
    expect(cold.data[0]!.abilities).toEqual({ reply: false, attach: false, resolve: false, move: false });
    const whole = (await viewer.get(path())).body.data as Comment[];
    expect(cold).toEqual({ data: whole.slice(0, 3), total: 5 });
    expect(await firstPage(viewer, 3)).toEqual(cold);
    expect((await firstPage(owner, 1)).data[0]!.abilities).toMatchObject({ resolve: true, move: true });
  });

  it("answers an empty version with no comments and a total of 0", async () => {
    const other = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/g" }))
      .body.data.versionId as string;
    const answer = await owner.get(`/api/versions/${other}/comments?first=10`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: [], total: 0 });
  });

  it("refuses whom the list refuses: a stranger gets 404, no session 401", async () => {
    const stranger = await signUpVerified(t.url, t.inbox!, email("stranger"));
    expect((await stranger.get(path("?first=2"))).status).toBe(404);
    expect((await stranger.get(path())).status).toBe(404);
    expect((await fetch(`${t.url}${path("?first=2")}`)).status).toBe(401);
  });

  it("refuses a first that is not a whole number from 1 to the most a page holds with 400", async () => {
    for (const bad of ["0", "-1", "abc", "1.5", "", String(MAX_FIRST_COMMENTS + 1), "1&first=2"]) {
      const answer = await owner.get(path(`?first=${bad}`));
      expect(answer.status, `first=${bad}`).toBe(400);
      expect(answer.body.message).toEqual(expect.any(String));
    }
    // Other parameters are ignored, as they were.
    expect((await owner.get(path("?other=1"))).status).toBe(200);
  });
});
