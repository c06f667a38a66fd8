/**
 * The next release may drop the legacy target columns (ADR 0045) while this release still runs: on a
 * database where the contract migration it will ship (`contract/legacy-targets.sql`) has been applied,
 * this release's comment operations — pin on a page (by target, and by the older fields), move, re-anchor,
 * resolve, list, copy to a new version, pin on a slide — all still work and answer the same fields. A
 * statement of this release naming `query_selector`, `anchor`, `dot_position`, `pdf_page` or `object_id`
 * fails here.
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testAnchor, testComment } from "../testing/anchors.ts";
import { addBlankSlides } from "../testing/decks.ts";
import { type ApiClient, signUpVerified } from "../testing/http-client.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const CONTRACT = readFileSync(new URL("./contract/legacy-targets.sql", import.meta.url), "utf8");

describe("this release on the contracted schema of the next (ADR 0045)", () => {
  let t: TestApp;
  let owner: ApiClient;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpVerified(t.url, t.inbox!, `contract-${Date.now().toString(36)}@example.com`);
    for (const statement of CONTRACT.split("--> statement-breakpoint"))
      await t.ctx.database.db.execute(sql.raw(statement));
  }, 120_000);
  afterAll(() => t?.close());

  it("has dropped the legacy columns", async () => {
    const { rows } = (await t.ctx.database.db.execute(
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'comments'`,
    )) as unknown as { rows: { column_name: string }[] };
    const columns = rows.map((row) => row.column_name);
    expect(columns).toContain("target");
    for (const legacy of ["query_selector", "anchor", "dot_position", "pdf_page", "object_id"])
      expect(columns).not.toContain(legacy);
  });

  it("pins, moves, re-anchors, resolves, lists and copies a page's comments", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Contract" })).body.data.id;
    const v1 = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/contract" }))
      .body.data;
    const path = `/api/versions/${v1.versionId}/comments`;

    const legacy = await owner.post(path, testComment("By the older fields"));
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(201);
    expect(legacy.body.data).toMatchObject({
      querySelector: "h1",
      anchor: testAnchor(),
      dotPosition: { x: 0.25, y: 0.5 },
      target: { kind: "element", anchor: testAnchor(), point: { x: 0.25, y: 0.5 } },
    });
    const byTarget = await owner.post(path, {
      target: { kind: "element", anchor: testAnchor("main > p", "Text"), point: { x: 0.1, y: 0.9 } },
      deviceWidth: 1280,
      comment: "By its target",
    });
    expect(byTarget.status, JSON.stringify(byTarget.body)).toBe(201);
    const id = byTarget.body.data.id;

    const moved = await owner.patch(`/api/comments/${id}`, { dotPosition: { x: 0.5, y: 0.5 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const reanchored = await owner.patch(`/api/comments/${id}`, {
      anchor: testAnchor("h2", "Sub"),
      dotPosition: { x: 0.2, y: 0.2 },
      anchorStatus: "exact",
    });
    expect(reanchored.status, JSON.stringify(reanchored.body)).toBe(200);
    expect((await owner.patch(`/api/comments/${legacy.body.data.id}`, { isResolved: true })).status).toBe(
      200,
    );

    const listed = (await owner.get(path)).body.data as { id: string; querySelector: string | null }[];
    expect(listed.find((comment) => comment.id === id)).toMatchObject({
      querySelector: "h2",
      dotPosition: { x: 0.2, y: 0.2 },
      target: { kind: "element", anchor: testAnchor("h2", "Sub"), point: { x: 0.2, y: 0.2 } },
    });

    const v2 = (await owner.post(`/api/pages/${v1.pageId}/versions`, {})).body.data;
    const copy = await owner.post(`/api/versions/${v2.id}/comments/copy-unresolved`);
    expect(copy.body.data?.copied, JSON.stringify(copy.body)).toBe(1);
    expect((await owner.get(`/api/versions/${v2.id}/comments`)).body.data).toMatchObject([
      { querySelector: "h2", target: { kind: "element", point: { x: 0.2, y: 0.2 } } },
    ]);
  });

  it("pins a comment on a slide and moves it", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Deck", type: "illustration" })).body.data
      .id;
    await addBlankSlides(owner, projectId, ["s1"]);
    const pinned = await owner.post(`/api/projects/${projectId}/slides/s1/comments`, {
      dotPosition: { x: 0.5, y: 0.25 },
      comment: "On the slide",
    });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(201);
    expect(pinned.body.data).toMatchObject({ slideId: "s1", objectId: null });
    const moved = await owner.patch(`/api/comments/${pinned.body.data.id}`, {
      dotPosition: { x: 0.1, y: 0.1 },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.target).toEqual({ kind: "slide", slideId: "s1", point: { x: 0.1, y: 0.1 } });
  });
});
