/**
 * The schema the migrations are generated from (drizzle.config.ts): the app's schema, except that
 * `comments` still has the legacy target columns — in the database until the next release's contract
 * migration (ADR 0045, `db/contract/legacy-targets.sql`), and no column of the table the app queries, so
 * no statement of this release names them. Drop them here (and the check's `object_id`) in that migration.
 */
import type { AnchorData } from "@redline/shared";
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { commentColumns } from "./comments.ts";

export * from "./index.ts";

export const comments = pgTable(
  "comments",
  {
    ...commentColumns(),
    objectId: text("object_id"),
    querySelector: text("query_selector"),
    anchor: jsonb("anchor").$type<AnchorData>(),
    dotPosition: jsonb("dot_position").$type<{ x: number; y: number }>().notNull(),
    pdfPage: integer("pdf_page"),
  },
  (table) => [
    index("comments_version_idx").on(table.versionId),
    index("comments_project_idx").on(table.projectId),
    index("comments_slide_idx").on(table.projectId, table.slideId),
    check(
      "comments_one_target",
      sql`(${table.versionId} is not null and ${table.pageId} is not null and ${table.slideId} is null and ${table.objectId} is null) or (${table.versionId} is null and ${table.pageId} is null and ${table.slideId} is not null)`,
    ),
    check(
      "comments_target_on_its_place",
      sql`(${table.slideId} is null and ${table.target}->>'kind' <> 'slide') or (${table.target}->>'kind' = 'slide' and ${table.target}->>'slideId' = ${table.slideId})`,
    ),
  ],
);
