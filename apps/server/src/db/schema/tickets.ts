import type { Attachment, Target, TicketIntake, TicketReport } from "@redline/shared";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { videoColumns } from "./comments.ts";
import { projects } from "./projects.ts";
import { users } from "./users.ts";

/**
 * The bug-tracking board (SPEC §3 Browse list, Ticket). Lists and tickets are ordered by fractional keys
 * (`sort_key`, text that sorts between its neighbours), so moving a list or a card writes one row.
 */
export const browseLists = pgTable(
  "browse_lists",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    sortKey: text("sort_key").notNull(),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("browse_lists_project_idx").on(table.projectId, table.sortKey)],
);

/**
 * A ticket: a report (from the widget, or written on the board) with its thread in `ticket_entries`.
 * `list_id` null while it waits in triage (`intake`); a rejected or merged (duplicate) report keeps its
 * row, out of every list, so its reporter's history stays whole.
 */
export const tickets = pgTable(
  "tickets",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** Per project, from 1: what people call a ticket ("#12"). */
    number: integer("number").notNull(),
    listId: text("list_id").references(() => browseLists.id, { onDelete: "cascade" }),
    sortKey: text("sort_key").notNull(),
    intake: text("intake").$type<TicketIntake>().notNull(),
    duplicateOf: text("duplicate_of"),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    isResolved: boolean("is_resolved").notNull().default(false),
    resolvedBy: text("resolved_by"),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** A calendar date (YYYY-MM-DD), no time of day. */
    dueDate: text("due_date"),
    /** The reporter: a user, or a guest of the widget by name and e-mail. */
    reporterId: text("reporter_id").references(() => users.id, { onDelete: "set null" }),
    reporterName: text("reporter_name"),
    reporterEmail: text("reporter_email"),
    /** What the widget captured (page, element, environment, console, failed requests). */
    report: jsonb("report").$type<TicketReport>(),
    /**
     * The element the widget's reporter clicked, as a comment's target (shared/targets.ts, an element);
     * null for a dragged region or a ticket written on the board. `report.element` keeps what is shown.
     */
    target: jsonb("target").$type<Target>(),
    screenshotKey: text("screenshot_key"),
    screenshotBytes: bigint("screenshot_bytes", { mode: "number" }),
    replayKey: text("replay_key"),
    replayBytes: bigint("replay_bytes", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("tickets_project_idx").on(table.projectId, table.listId, table.sortKey),
    unique("tickets_project_number").on(table.projectId, table.number),
  ],
);

/** One entry of a ticket's thread (SPEC §3 Ticket thread): rows, so concurrent replies never collide. */
export const ticketEntries = pgTable(
  "ticket_entries",
  {
    id: text("id").primaryKey(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    /** The author's user id; null for a widget guest (then `guestName`). */
    userId: text("user_id"),
    guestName: text("guest_name"),
    body: text("body").notNull(),
    attachments: jsonb("attachments").$type<Attachment[]>().notNull().default([]),
    /** A recorded video, as a comment entry carries one (issue #33). */
    ...videoColumns(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (table) => [index("ticket_entries_ticket_idx").on(table.ticketId, table.createdAt)],
);

/**
 * A bug-tracking project's widget: the public key its `<script>` snippet carries and the origins allowed to
 * send reports with it.
 */
export const widgetSettings = pgTable("widget_settings", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  key: text("key").notNull().unique(),
  allowedOrigins: text("allowed_origins").array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
});

export type BrowseListRow = typeof browseLists.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type TicketEntryRow = typeof ticketEntries.$inferSelect;
