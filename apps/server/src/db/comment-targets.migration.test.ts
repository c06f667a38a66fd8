/**
 * Migration 0039_comment_targets (issue #29 item 1, ADR 0045) on a copy of real rows: a database at the
 * level before it, holding comments of every kind as the previous release wrote them (an element with its
 * anchor, a legacy bare selector, an anchor whose selector was kept apart, points on an image and a
 * screenshot, PDF pages, slide pins with and without their object) and widget tickets, is migrated. Each
 * comment's target is then what `targetFromLegacy` says its old columns meant, and turns back into exactly
 * those columns — nothing lost; each ticket's is `ticketTargetOf` its report. The previous release keeps
 * writing during the rollout (ADR 0031): its inserts and pin moves, which name only the legacy columns,
 * still leave a right target; and this release's, which name only the target, leave the legacy columns it
 * reads right (migration 0040).
 */
import { PGlite } from "@electric-sql/pglite";
import {
  type AnchorData,
  type LegacyTargetColumns,
  legacyFromTarget,
  type Target,
  type TicketReport,
  targetContentOf,
  targetFromLegacy,
  targetSchema,
  ticketTargetOf,
  type VersionKind,
} from "@redline/shared";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { presentComment } from "../modules/comments/comments.presenter.ts";
import { emptyPostgres } from "../ops/empty-postgres.ts";
import { journal, migrationsUpTo } from "../ops/migrations.ts";
import { testAnchor } from "../testing/anchors.ts";
import { drivers } from "../testing/test-db.ts";
import { migrationsFolder } from "./index.ts";
import type { CommentRow } from "./schema/index.ts";

type Query = <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;

const BEFORE = journal().findIndex((entry) => entry.tag === "0039_comment_targets");

const anchor = testAnchor("#hero > h1", "Welcome") as AnchorData;
const undotted: AnchorData = { ...anchor, querySelector: "main > h2", dot: null };

/** Comments as the previous release stored them: the version's kind (or a slide) and the legacy columns. */
const OLD_COMMENTS: { id: string; on: VersionKind | "slide"; columns: LegacyTargetColumns }[] = [
  { id: "c-anchor", on: "snapshot", columns: legacy({ anchor, querySelector: "#hero > h1" }) },
  { id: "c-bare", on: "snapshot", columns: legacy({ querySelector: "div.old > p:nth-child(2)" }) },
  { id: "c-apart", on: "snapshot", columns: legacy({ anchor, querySelector: "main h1" }) },
  { id: "c-point", on: "snapshot", columns: legacy({}) },
  { id: "c-image", on: "image", columns: legacy({ dotPosition: { x: 0.1, y: 0.9 } }) },
  { id: "c-screenshot", on: "screenshot", columns: legacy({ dotPosition: { x: 0, y: 1 } }) },
  { id: "c-pdf", on: "pdf", columns: legacy({ pdfPage: 4, dotPosition: { x: 0.5, y: 0.125 } }) },
  { id: "c-pdf-unpaged", on: "pdf", columns: legacy({ dotPosition: { x: 0.3, y: 0.3 } }) },
  { id: "c-object", on: "slide", columns: legacy({ slideId: "s-1", objectId: "o-title" }) },
  { id: "c-slide", on: "slide", columns: legacy({ slideId: "s-2", dotPosition: { x: 0.75, y: 0.25 } }) },
];

function legacy(columns: Partial<LegacyTargetColumns>): LegacyTargetColumns {
  return {
    querySelector: null,
    anchor: null,
    dotPosition: { x: 0.25, y: 0.5 },
    pdfPage: null,
    slideId: null,
    objectId: null,
    ...columns,
  };
}

const contentOf = (on: VersionKind | "slide") => (on === "slide" ? "slides" : targetContentOf(on));

const report = (element: TicketReport["element"]): TicketReport => ({
  pageUrl: "https://shop.example.com/cart",
  pageTitle: "Cart",
  element,
  region: element ? null : { x: 10, y: 20, width: 100, height: 50 },
  viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
  userAgent: "Firefox",
  browser: "Firefox 140",
  os: "Linux",
  console: [],
  failedRequests: [],
});

const OLD_TICKETS: { id: string; report: TicketReport | null }[] = [
  { id: "t-anchor", report: report({ selector: "#hero > h1", text: "Welcome", tag: "h1", anchor }) },
  { id: "t-bare", report: report({ selector: "button.pay", text: "Pay", tag: "button", anchor: null }) },
  { id: "t-undotted", report: report({ selector: "h2", text: "Sale", tag: "h2", anchor: undotted }) },
  { id: "t-region", report: report(null) },
  { id: "t-board", report: null },
];

async function seedPreviousRelease(query: Query) {
  await query(`INSERT INTO users (id, email) VALUES ('u-1', 'owner@example.com')`);
  await query(
    `INSERT INTO projects (id, title, type, owner_id) VALUES
       ('p-web', 'Site', 'web', 'u-1'), ('p-deck', 'Deck', 'illustration', 'u-1'), ('p-board', 'Board', 'browse', 'u-1')`,
  );
  for (const kind of ["snapshot", "image", "screenshot", "pdf"]) {
    await query(`INSERT INTO pages (id, project_id, url, title) VALUES ($1, 'p-web', $2, $3)`, [
      `page-${kind}`,
      `https://example.com/${kind}`,
      kind,
    ]);
    await query(
      `INSERT INTO versions (id, page_id, project_id, number, title, kind, status)
       VALUES ($1, $2, 'p-web', 1, 'Version 1', $3, 'ready')`,
      [`v-${kind}`, `page-${kind}`, kind],
    );
  }
  for (const { id, on, columns } of OLD_COMMENTS) {
    const onSlide = on === "slide";
    await query(
      `INSERT INTO comments (id, project_id, page_id, version_id, slide_id, object_id, query_selector, anchor,
         anchor_status, dot_position, pdf_page, device_size, device_width)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'default', 1280)`,
      [
        id,
        onSlide ? "p-deck" : "p-web",
        onSlide ? null : `page-${on}`,
        onSlide ? null : `v-${on}`,
        columns.slideId,
        columns.objectId,
        columns.querySelector,
        columns.anchor && JSON.stringify(columns.anchor),
        columns.anchor ? "fuzzy" : null,
        JSON.stringify(columns.dotPosition),
        columns.pdfPage,
      ],
    );
    await query(`INSERT INTO comment_entries (id, comment_id, user_id, body) VALUES ($1, $2, 'u-1', $3)`, [
      `e-${id}`,
      id,
      `About ${id}`,
    ]);
  }
  for (const [i, { id, report }] of OLD_TICKETS.entries()) {
    await query(
      `INSERT INTO tickets (id, project_id, number, sort_key, intake, title, report)
       VALUES ($1, 'p-board', $2, $3, 'triage', $4, $5)`,
      [id, i + 1, `a${i}`, `Ticket ${id}`, report && JSON.stringify(report)],
    );
  }
}

interface MigratedComment {
  id: string;
  target: Target;
  query_selector: string | null;
  anchor: AnchorData | null;
  dot_position: { x: number; y: number };
  pdf_page: number | null;
  object_id: string | null;
  anchor_status: string | null;
}

describe.each(drivers())("migration 0039_comment_targets on real rows (%s)", (driver) => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 60_000);

  /** A database at the level before the migration, filled by `seed`, then migrated to the latest. */
  async function migratedDatabase(): Promise<Query> {
    const before = migrationsUpTo(BEFORE);
    cleanups.push(() => before.dispose());
    if (driver === "pglite") {
      const database = new PGlite();
      cleanups.push(() => database.close());
      const query: Query = async (text, values) => (await database.query(text, values)).rows as never;
      await migratePglite(drizzlePglite(database), { migrationsFolder: before.folder });
      await seedPreviousRelease(query);
      await migratePglite(drizzlePglite(database), { migrationsFolder });
      return query;
    }
    const empty = await emptyPostgres();
    cleanups.push(() => empty.drop());
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    cleanups.push(() => client.end());
    const query: Query = async (text, values) => (await client.query(text, values)).rows;
    await migratePg(drizzlePg(client), { migrationsFolder: before.folder });
    await seedPreviousRelease(query);
    await migratePg(drizzlePg(client), { migrationsFolder });
    return query;
  }

  it("gives every comment and ticket the target its old columns meant, losing nothing", async () => {
    expect(BEFORE).toBeGreaterThan(0);
    const query = await migratedDatabase();
    const rows = await query<MigratedComment>(`SELECT * FROM comments ORDER BY id`);
    expect(rows.map((row) => row.id).sort()).toEqual(OLD_COMMENTS.map((c) => c.id).sort());
    for (const old of OLD_COMMENTS) {
      const row = rows.find((r) => r.id === old.id)!;
      const expected = targetFromLegacy(old.columns, contentOf(old.on));
      expect(row.target, old.id).toEqual(expected);
      expect(targetSchema.parse(row.target), old.id).toEqual(row.target);
      // No loss: the target says every old column again (a PDF's comment stored without its page, which
      // no page of the viewer showed, is on the first page).
      expect(legacyFromTarget(row.target), old.id).toEqual(
        old.id === "c-pdf-unpaged" ? { ...old.columns, pdfPage: 1 } : old.columns,
      );
      // The legacy columns are still there for the previous release, as they were.
      expect([row.query_selector, row.anchor, row.dot_position, row.pdf_page, row.object_id], old.id).toEqual(
        [
          old.columns.querySelector,
          old.columns.anchor,
          old.columns.dotPosition,
          old.columns.pdfPage,
          old.columns.objectId,
        ],
      );
    }
    const kinds = Object.fromEntries(rows.map((row) => [row.id, row.target.kind]));
    expect(kinds).toEqual({
      "c-anchor": "element",
      "c-apart": "element",
      "c-bare": "element",
      "c-image": "image-point",
      "c-object": "slide",
      "c-pdf": "pdf-point",
      "c-pdf-unpaged": "pdf-point",
      "c-point": "element",
      "c-screenshot": "image-point",
      "c-slide": "slide",
    });
    expect(rows.find((row) => row.id === "c-bare")!.target).toEqual({
      kind: "element",
      anchor: null,
      selector: "div.old > p:nth-child(2)",
      point: { x: 0.25, y: 0.5 },
    });
    expect(rows.find((row) => row.id === "c-object")!.target).toEqual({
      kind: "slide",
      slideId: "s-1",
      objectId: "o-title",
      point: { x: 0.25, y: 0.5 },
    });

    // The API still answers the fields callers read (SPEC §3 Comment), now said by the target.
    const [anchored] = await query<MigratedComment>(`SELECT * FROM comments WHERE id = 'c-apart'`);
    const presented = presentComment(
      {
        ...(anchored as unknown as CommentRow),
        projectId: "p-web",
        anchorStatus: "fuzzy",
        createdAt: new Date(),
        modifiedAt: new Date(),
      } as CommentRow,
      [],
      new Map(),
    );
    expect(presented).toMatchObject({
      querySelector: "main h1",
      anchor,
      dotPosition: { x: 0.25, y: 0.5 },
      pdfPage: null,
      target: { kind: "element", anchor, selector: "main h1", point: { x: 0.25, y: 0.5 } },
    });

    const tickets = await query<{ id: string; target: Target | null }>(`SELECT id, target FROM tickets`);
    for (const old of OLD_TICKETS)
      expect(tickets.find((t) => t.id === old.id)!.target, old.id).toEqual(ticketTargetOf(old.report));
    expect(tickets.find((t) => t.id === "t-anchor")!.target).toEqual({
      kind: "element",
      anchor,
      point: { x: 0.25, y: 0.5 },
    });
    expect(tickets.find((t) => t.id === "t-bare")!.target).toEqual({
      kind: "element",
      anchor: null,
      selector: "button.pay",
      point: { x: 0.5, y: 0.5 },
    });
  }, 120_000);

  it("keeps the target and the legacy columns in step, whichever release writes", async () => {
    const query = await migratedDatabase();
    const targetOf = async (id: string) =>
      (await query<{ target: Target }>(`SELECT target FROM comments WHERE id = $1`, [id]))[0]!.target;

    // The previous release pins a comment: its insert names no target.
    await query(
      `INSERT INTO comments (id, project_id, page_id, version_id, query_selector, anchor, anchor_status,
         dot_position, device_size, device_width)
       VALUES ('c-new', 'p-web', 'page-snapshot', 'v-snapshot', '#hero > h1', $1, 'exact', '{"x":0.5,"y":0.5}',
         'default', 1280)`,
      [JSON.stringify(anchor)],
    );
    expect(await targetOf("c-new")).toEqual({ kind: "element", anchor, point: { x: 0.5, y: 0.5 } });
    await query(
      `INSERT INTO comments (id, project_id, page_id, version_id, dot_position, pdf_page, device_size, device_width)
       VALUES ('c-new-pdf', 'p-web', 'page-pdf', 'v-pdf', '{"x":0.1,"y":0.2}', 2, 'default', 1280)`,
    );
    expect(await targetOf("c-new-pdf")).toEqual({ kind: "pdf-point", page: 2, point: { x: 0.1, y: 0.2 } });

    // It moves a pin and re-anchors a legacy row: the target follows.
    await query(`UPDATE comments SET dot_position = '{"x":0.9,"y":0.1}' WHERE id = 'c-image'`);
    expect(await targetOf("c-image")).toEqual({ kind: "image-point", point: { x: 0.9, y: 0.1 } });
    await query(`UPDATE comments SET anchor = $1, query_selector = '#hero > h1' WHERE id = 'c-bare'`, [
      JSON.stringify(anchor),
    ]);
    expect(await targetOf("c-bare")).toEqual({ kind: "element", anchor, point: { x: 0.25, y: 0.5 } });
    // A resolve touches no target.
    await query(`UPDATE comments SET is_resolved = true WHERE id = 'c-pdf'`);
    expect(await targetOf("c-pdf")).toEqual({ kind: "pdf-point", page: 4, point: { x: 0.5, y: 0.125 } });

    // This release writes only the target (migration 0040): what it writes is kept, and the legacy
    // columns the previous release reads follow it, as legacyFromTarget says, on insert and on a move.
    const legacyOf = async (id: string) => {
      const [row] = await query<MigratedComment & { slide_id: string | null }>(
        `SELECT * FROM comments WHERE id = $1`,
        [id],
      );
      return {
        querySelector: row!.query_selector,
        anchor: row!.anchor,
        dotPosition: row!.dot_position,
        pdfPage: row!.pdf_page,
        slideId: row!.slide_id,
        objectId: row!.object_id,
      };
    };
    const written: { id: string; on: VersionKind | "slide"; target: Target }[] = [
      { id: "n-anchor", on: "snapshot", target: { kind: "element", anchor, point: { x: 0.1, y: 0.2 } } },
      {
        id: "n-apart",
        on: "snapshot",
        target: { kind: "element", anchor, selector: "main h1", point: { x: 0.3, y: 0.4 } },
      },
      { id: "n-bare", on: "snapshot", target: { kind: "element", anchor: null, point: { x: 1, y: 0 } } },
      { id: "n-image", on: "image", target: { kind: "image-point", point: { x: 0.6, y: 0.7 } } },
      { id: "n-pdf", on: "pdf", target: { kind: "pdf-point", page: 3, point: { x: 0.2, y: 0.8 } } },
      {
        id: "n-object",
        on: "slide",
        target: { kind: "slide", slideId: "s-1", objectId: "o-logo", point: { x: 0.4, y: 0.6 } },
      },
      { id: "n-slide", on: "slide", target: { kind: "slide", slideId: "s-2", point: { x: 0.9, y: 0.9 } } },
      { id: "n-video", on: "image", target: { kind: "video", time: 12.5 } },
      {
        id: "n-region",
        on: "image",
        target: { kind: "video", time: 3, region: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 } },
      },
    ];
    for (const { id, on, target } of written) {
      const onSlide = on === "slide";
      await query(
        `INSERT INTO comments (id, project_id, page_id, version_id, slide_id, target, device_size, device_width)
         VALUES ($1, $2, $3, $4, $5, $6, 'default', 1280)`,
        [
          id,
          onSlide ? "p-deck" : "p-web",
          onSlide ? null : `page-${on}`,
          onSlide ? null : `v-${on}`,
          onSlide && target.kind === "slide" ? target.slideId : null,
          JSON.stringify(target),
        ],
      );
      expect(await targetOf(id), id).toEqual(target);
      expect(await legacyOf(id), id).toEqual(legacyFromTarget(target));
    }
    const moved: Target = { kind: "pdf-point", page: 5, point: { x: 0.5, y: 0.5 } };
    await query(`UPDATE comments SET target = $1 WHERE id = 'c-pdf'`, [JSON.stringify(moved)]);
    expect(await targetOf("c-pdf")).toEqual(moved);
    expect(await legacyOf("c-pdf")).toEqual(legacyFromTarget(moved));
    const reanchored: Target = { kind: "element", anchor: undotted, point: { x: 0.5, y: 0.5 } };
    await query(`UPDATE comments SET target = $1 WHERE id = 'c-apart'`, [JSON.stringify(reanchored)]);
    expect(await legacyOf("c-apart")).toEqual(legacyFromTarget(reanchored));

    // A slide comment's target stays on its own slide.
    await expect(
      query(
        `UPDATE comments SET target = '{"kind":"slide","slideId":"s-9","point":{"x":0,"y":0}}' WHERE id = 'c-slide'`,
      ),
    ).rejects.toThrow(/comments_target_on_its_place/);

    // The previous release's widget intake stores a report and no target.
    await query(
      `INSERT INTO tickets (id, project_id, number, sort_key, intake, title, report)
       VALUES ('t-new', 'p-board', 9, 'a9', 'triage', 'New', $1)`,
      [JSON.stringify(OLD_TICKETS[0]!.report)],
    );
    const [ticket] = await query<{ target: Target }>(`SELECT target FROM tickets WHERE id = 't-new'`);
    expect(ticket!.target).toEqual(ticketTargetOf(OLD_TICKETS[0]!.report));
  }, 120_000);
});
