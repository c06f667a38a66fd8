import type { AnchorData, ChangeType, DeviceSize, InspectProperty, RichText } from "@redline/shared";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { versionScope } from "./projects.ts";

/**
 * Suggested visual edits of a version (SPEC §3 Inspect change): one row per element × property × device
 * size. The unique key is the merge key (§4): a new edit of the same key updates its row and counts.
 */
export const inspectChanges = pgTable(
  "inspect_changes",
  {
    id: text("id").primaryKey(),
    ...versionScope(),
    changeType: text("change_type").$type<ChangeType>().notNull(),
    querySelector: text("query_selector").notNull(),
    anchor: jsonb("anchor").$type<AnchorData>().notNull(),
    /** A CSS property for style changes, "text" for text and "src" for image changes. */
    property: text("property").$type<InspectProperty>().notNull(),
    /** Style: the CSS value; image: the uploaded image's content-origin path; text: null. */
    value: text("value"),
    before: text("before"),
    after: jsonb("after").$type<RichText>(),
    imageDimensions: jsonb("image_dimensions").$type<{ width: number; height: number }>(),
    deviceSize: text("device_size").$type<DeviceSize>().notNull(),
    count: integer("count").notNull().default(1),
    isHidden: boolean("is_hidden").notNull().default(false),
    isResolved: boolean("is_resolved").notNull().default(false),
    resolvedBy: text("resolved_by"),
    /** Who made the latest edit (no foreign key: a deleted user's suggestions stay). */
    userId: text("user_id"),
    createdAt: createdAt(),
    /** When the save that last edited it happened: the activity panel groups changes by save. */
    groupCreatedAt: timestamp("group_created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("inspect_changes_key").on(
      table.versionId,
      table.querySelector,
      table.property,
      table.deviceSize,
    ),
    index("inspect_changes_project_idx").on(table.projectId),
  ],
);

export type InspectChangeRow = typeof inspectChanges.$inferSelect;
export type NewInspectChangeRow = typeof inspectChanges.$inferInsert;
