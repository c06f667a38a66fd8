import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Product analytics, kept in the installation's own database (no third party by default). A caller whose
 * browser sends Global Privacy Control or Do Not Track is recorded without a user and without properties:
 * the count survives, the person does not.
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: text("id").primaryKey(),
    /** An event name from SPEC §7, or "user-event" for the free-text log. */
    name: text("name").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    properties: jsonb("properties").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index("analytics_events_name_created_idx").on(table.name, table.createdAt)],
);
