import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * A requested change of a user's e-mail address (SPEC §3 pendingEmail): the link mailed to the new
 * address carries a secret of which only the SHA-256 hash is kept; the row is deleted when the link is
 * used, cancelled or replaced, so a link works once. One row per user at most.
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("email_changes_new_email_idx").on(table.newEmail)],
);
