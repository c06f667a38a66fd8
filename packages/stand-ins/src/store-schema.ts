/**
 * The tables the stand-ins read and write in the host's database, defined here so the package needs no
 * import from the app. The migrations that create them stay with the app (apps/server/drizzle), whose
 * schema (apps/server/src/db/schema) defines the same tables: a change to one is made to both.
 */
import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** The embedded payment providers' objects (Stripe- and PayPal-shaped), one JSON document per row. */
export const paymentProviderObjects = pgTable(
  "payment_provider_objects",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    customer: text("customer"),
    lookupKey: text("lookup_key"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("payment_provider_objects_type_customer_idx").on(table.type, table.customer),
    index("payment_provider_objects_lookup_idx").on(table.type, table.lookupKey),
  ],
);

/** The columns of the app's `teams` the DNS page reads (read only): each custom domain and its token. */
export const teams = pgTable("teams", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  domain: text("domain"),
  domainStatus: text("domain_status").$type<"pending" | "verified" | "active" | "failed">(),
  domainToken: text("domain_token"),
});
