import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/** The embedded outbox: every mail, when no SMTP server is configured. */
export const mailboxMessages = pgTable("mailbox_messages", {
  id: uuid("id").primaryKey().defaultRandom(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: createdAt(),
});

/**
 * Every mail the app sends, kept until it is delivered (the durable outbox): written when a request asks
 * for it, delivered out of the request, retried by the job queue while the mail server fails. A row is
 * claimed for a short lease while one process delivers it, so two never send it twice.
 */
export const outgoingMails = pgTable(
  "outgoing_mails",
  {
    id: text("id").primaryKey(),
    mail: jsonb("mail").$type<{ to: string; subject: string; text: string; html?: string }>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (table) => [index("outgoing_mails_unsent_idx").on(table.createdAt).where(sql`${table.sentAt} is null`)],
);
