import type { HeldSubscription } from "@redline/shared";
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Subscriptions (SPEC §3) as last read from their payment provider. The provider is the source of
 * truth: every webhook and every visit to /billing re-reads the subscription and overwrites this row,
 * so events arriving twice or out of order settle on the provider's latest state. The user row keeps
 * the current ones in `held_subscriptions` (written in the same transaction) for the plan checks.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    provider: text("provider").$type<"card" | "second">().notNull(),
    customerId: text("customer_id"),
    planId: text("plan_id").notNull(),
    status: text("status").notNull(),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    pendingPlanId: text("pending_plan_id"),
    pendingExpiresAt: timestamp("pending_expires_at", { withTimezone: true }),
    paymentIssue: boolean("payment_issue").notNull().default(false),
    amount: integer("amount").notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("subscriptions_user_idx").on(table.userId)],
);

/** Webhook events already handled, by the provider's event id: a replay has no second effect. */
export const billingEvents = pgTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The embedded payment provider's own state (development and tests only): Stripe-shaped objects
 * (customers, checkout sessions, prices, subscriptions, invoices, payment intents, payment methods,
 * events) stored as JSON, keyed by their Stripe-style id.
 */
export const paymentProviderObjects = pgTable(
  "payment_provider_objects",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    customer: text("customer"),
    lookupKey: text("lookup_key"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("payment_provider_objects_type_customer_idx").on(table.type, table.customer),
    index("payment_provider_objects_lookup_idx").on(table.type, table.lookupKey),
  ],
);

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type HeldSubscriptions = HeldSubscription[];

/**
 * Single-use grants already taken: a privilege link's nonce or a lifetime-deal code, with who took it.
 * The primary key makes a second use fail in the same transaction that grants.
 */
export const redeemedGrants = pgTable("redeemed_grants", {
  id: text("id").primaryKey(),
  kind: text("kind").$type<"privilege" | "lifetime" | "partner">().notNull(),
  userId: belongsTo("user_id", () => users.id),
  plan: text("plan").notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  redeemedAt: timestamp("redeemed_at", { withTimezone: true }).notNull().defaultNow(),
});
