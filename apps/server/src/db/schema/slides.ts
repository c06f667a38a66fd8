import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { projects } from "./projects.ts";

/**
 * The slide deck of an illustration project (issue #32, ADR 0037): a Yjs document kept as a snapshot
 * (`decks`, every update up to `through_id` merged into one) and the updates since, appended one row each
 * (`deck_updates`). Reading the deck merges the snapshot and the updates after it; a write compacts them
 * into a new snapshot now and then, under the deck row's lock.
 */
export const decks = pgTable("decks", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** The merged Yjs update (base64) of every update up to `throughId`; empty for a new deck. */
  snapshot: text("snapshot").notNull().default(""),
  throughId: bigint("through_id", { mode: "number" }).notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const deckUpdates = pgTable(
  "deck_updates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    /** One Yjs update (base64) as an editor sent it, validated against the deck's schema first. */
    update: text("update").notNull(),
    /** Who sent it (no foreign key: a deleted user's edits stay). */
    userId: text("user_id"),
    createdAt: createdAt(),
  },
  (table) => [index("deck_updates_project_idx").on(table.projectId, table.id)],
);

/** An image uploaded to a deck: the stored file its slides name (held for the project's life, ADR 0022). */
export const slideImages = pgTable(
  "slide_images",
  {
    id: text("id").primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    key: text("key").notNull(),
    bytes: integer("bytes").notNull(),
    userId: text("user_id"),
    createdAt: createdAt(),
  },
  (table) => [index("slide_images_project_idx").on(table.projectId)],
);

/**
 * A slide an accepted update removed from the deck, and when (ADR 0044): what hangs on it (its comments)
 * is kept out of sight, not deleted, so an editor's undo that brings the slide back (the same id set again)
 * brings it back too; the row goes when the slide comes back, and a day after the removal the next write of
 * the deck purges what hangs on it for good.
 */
export const removedSlides = pgTable(
  "removed_slides",
  {
    projectId: belongsTo("project_id", () => projects.id),
    slideId: text("slide_id").notNull(),
    removedAt: timestamp("removed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.slideId] })],
);
