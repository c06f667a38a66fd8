import type { NotificationContext, NotificationType } from "@redline/shared";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { comments } from "./comments.ts";
import { pages, projects, versions } from "./projects.ts";
import { teams } from "./teams.ts";
import { users } from "./users.ts";

/**
 * In-app notifications (SPEC §3 Notification): one row per recipient, so marking one seen is that
 * person's own row. The actor's name and photo are read when listed (like comment authors); the
 * titles are kept as they were when it happened.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    type: text("type").$type<NotificationType>().notNull(),
    /** Null for a team's notification (team-member-*), which names its team instead. */
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    pageId: text("page_id").references(() => pages.id, { onDelete: "cascade" }),
    versionId: text("version_id").references(() => versions.id, { onDelete: "cascade" }),
    commentId: text("comment_id").references(() => comments.id, { onDelete: "cascade" }),
    /** Who did it; null for a guest of the public link (then the context holds their name). */
    actorId: text("actor_id"),
    context: jsonb("context").$type<NotificationContext>().notNull(),
    /** Grouped count (SPEC §3 length). */
    length: integer("length").notNull().default(1),
    createdAt: createdAt(),
    isSeen: boolean("is_seen").notNull().default(false),
    isNotified: boolean("is_notified").notNull().default(false),
    /** Handed to the mail job (sent, or not mailed by the recipient's e-mail preferences). */
    emailSent: boolean("email_sent").notNull().default(false),
  },
  (table) => [
    index("notifications_user_idx").on(table.userId, table.createdAt),
    index("notifications_project_idx").on(table.projectId),
    index("notifications_team_idx").on(table.teamId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = typeof notifications.$inferInsert;
