import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** The embedded outbox: every mail, when no SMTP server is configured. */
export const mailboxMessages = pgTable("mailbox_messages", {
  id: uuid("id").primaryKey().defaultRandom(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
