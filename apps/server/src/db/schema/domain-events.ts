import { sql } from "drizzle-orm";
import { bigint, bigserial, customType, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/**
 * A transaction id (PostgreSQL `xid8`), read and written as its decimal text: 64 bits that never wrap,
 * ordered as the transactions started.
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The ledger (lib/ledger.ts): what happened, recorded by each write in its own transaction. `tx` is that
 * transaction's id: a consumer reads in (tx, id) order below the oldest transaction still running, so it
 * never passes an event that commits later with a smaller id. Kept for the configured retention, and
 * never before every durable consumer has read it.
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tx: xid8("tx").notNull().default(sql`pg_current_xact_id()`),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("domain_events_order_idx").on(table.tx, table.id),
    index("domain_events_created_idx").on(table.createdAt),
  ],
);

/** Where each durable consumer has read to: the (tx, id) of the last event it finished. */
export const eventCursors = pgTable("event_cursors", {
  consumer: text("consumer").primaryKey(),
  tx: xid8("tx").notNull().default(sql`'0'::xid8`),
  eventId: bigint("event_id", { mode: "number" }).notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type DomainEventRow = typeof domainEvents.$inferSelect;
