import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/**
 * What a stored-files row's holder is: the table and column (or jsonb list) that names the file.
 * modules/files/stored-files.ts reads the record; migration 0022 keeps it, by triggers on each holder's
 * table, in the transaction that writes or deletes the holder (cascades included).
 */
export const HOLDER_KINDS = [
  "version_snapshot",
  "version_screenshot",
  "version_file",
  "version_asset",
  "page_thumbnail",
  "project_thumbnail",
  "user_photo",
  "team_logo",
  "team_icon",
  "asset_untracked",
  "inspect_image",
  "comment_attachment",
  "comment_video",
  "comment_video_poster",
  "ticket_screenshot",
  "ticket_replay",
  "ticket_attachment",
  "ticket_video",
  "ticket_video_poster",
  "conversation_attachment",
  "support_screenshot",
  "slide_image",
] as const;
export type HolderKind = (typeof HOLDER_KINDS)[number];

/**
 * The one record of stored files (ADR 0022): a row per file a row holds, naming its holder. `bytes` is
 * the size counted against the project owner's storage (SPEC §9) — null for files that are not metered
 * (snapshots, thumbnails, avatars…); `project_id` is the project whose owner it counts against (null
 * outside projects). The owner is read through the project, so a transfer moves usage with it.
 */
export const storedFiles = pgTable(
  "stored_files",
  {
    key: text("key").notNull(),
    bytes: bigint("bytes", { mode: "number" }),
    projectId: text("project_id"),
    holderKind: text("holder_kind").$type<HolderKind>().notNull(),
    holderId: text("holder_id").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.holderKind, table.holderId, table.key] }),
    index("stored_files_key_idx").on(table.key),
    index("stored_files_project_idx").on(table.projectId),
  ],
);
