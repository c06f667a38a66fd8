import type { SupportMessageKind } from "@redline/shared";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * What people sent the installation's support address (Contact Us, requests for a managed plan): kept, so
 * nothing is lost while the mail server is down or the mail is misfiled, and mailed to SUPPORT_EMAIL.
 */
export const supportMessages = pgTable(
  "support_messages",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<SupportMessageKind>().notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The sender's name and address as they were when sent (the account may change or go). */
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index("support_messages_created_idx").on(table.createdAt)],
);
