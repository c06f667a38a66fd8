import type { AnchorStatus, Attachment, DeviceSize, Target, VideoStatus } from "@redline/shared";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { pages, projects, versions } from "./projects.ts";

/**
 * A pinned comment (SPEC §3 Comment). Its thread lives in `comment_entries`, one row per entry. It is on
 * exactly one place: a page's version (`pageId` and `versionId`), or a slide of an illustration project's
 * deck (`slideId` — the deck is one Yjs document, so this is its id, not a foreign key). Where on it the
 * comment points is `target` (shared/targets.ts), of the kind its content shows.
 *
 * The table still has the legacy target columns (`query_selector`, `anchor`, `dot_position`, `pdf_page`,
 * `object_id`) for the previous release, which reads and writes only them; triggers keep them and `target`
 * in step (migrations 0039 and 0040, ADR 0045). They are not columns of this table object, so no statement
 * of this release names them and the next release may drop them (`db/contract/legacy-targets.sql`); only
 * the migrations' own schema (`schema/migrations.ts`, what drizzle-kit compares) lists them.
 */
export const commentColumns = () => ({
  id: text("id").primaryKey(),
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  pageId: text("page_id").references(() => pages.id, { onDelete: "cascade" }),
  versionId: text("version_id").references(() => versions.id, { onDelete: "cascade" }),
  slideId: text("slide_id"),
  target: jsonb("target").$type<Target>().notNull(),
  anchorStatus: text("anchor_status").$type<AnchorStatus>(),
  deviceSize: text("device_size").$type<DeviceSize>().notNull(),
  deviceWidth: integer("device_width").notNull(),
  isResolved: boolean("is_resolved").notNull().default(false),
  resolvedBy: text("resolved_by"),
  copiedFromVersion: text("copied_from_version"),
  /** The comment this one was copied from, so a second copy skips what is already present. */
  copiedFromComment: text("copied_from_comment"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
});

export const comments = pgTable("comments", commentColumns(), (table) => [
  index("comments_version_idx").on(table.versionId),
  index("comments_project_idx").on(table.projectId),
  index("comments_slide_idx").on(table.projectId, table.slideId),
  // A slide's comment points at its own slide; a version's comment at no slide.
  check(
    "comments_target_on_its_place",
    sql`(${table.slideId} is null and ${table.target}->>'kind' <> 'slide') or (${table.target}->>'kind' = 'slide' and ${table.target}->>'slideId' = ${table.slideId})`,
  ),
]);

/**
 * A recorded video on a thread entry (shared/video.ts), comment or ticket: while it is processed,
 * `videoUpload` names its resumable upload and `videoStatus` is "processing"; once done, the stored video
 * and poster (`videoKey`, `videoPosterKey`, metered at `videoBytes`) and its measured duration; "failed"
 * keeps the entry.
 */
export const videoColumns = () => ({
  videoStatus: text("video_status").$type<VideoStatus>(),
  videoUpload: text("video_upload"),
  videoKey: text("video_key"),
  videoPosterKey: text("video_poster_key"),
  videoBytes: bigint("video_bytes", { mode: "number" }),
  videoDuration: real("video_duration"),
});

/**
 * One entry of a thread: the first is the comment itself, the rest are replies. Rows, not an array in
 * one record, so any number of people replying at once never overwrite each other.
 */
export const commentEntries = pgTable(
  "comment_entries",
  {
    id: text("id").primaryKey(),
    commentId: text("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    /** The author's user id; null for a guest (then `guestIdentity` says who). */
    userId: text("user_id"),
    guestIdentity: text("guest_identity"),
    body: text("body").notNull(),
    attachments: jsonb("attachments").$type<Attachment[]>().notNull().default([]),
    ...videoColumns(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (table) => [index("comment_entries_comment_idx").on(table.commentId, table.createdAt)],
);

export type CommentRow = typeof comments.$inferSelect;
export type CommentEntryRow = typeof commentEntries.$inferSelect;
