import {
  DEFAULT_EMAIL_PREFERENCES,
  type EmailPreferences,
  FREE_PLAN_LIMITS,
  type HeldSubscription,
  type Limits,
} from "@redline/shared";
import { boolean, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/**
 * The User record (SPEC §3). The auth library owns id, displayName (its `name`), email, emailVerified,
 * photoURL (its `image`) and the timestamps; the rest are ours and start at their spec defaults.
 */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull().default(""),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  photoURL: text("photo_url"),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  pendingEmail: text("pending_email"),
  phoneNumber: text("phone_number"),
  signupSource: text("signup_source"),
  /** When the welcome mail of a sign-up through Google was sent (taken once: it is sent once). */
  welcomedAt: timestamp("welcomed_at", { withTimezone: true }),
  onboarding: jsonb("onboarding").$type<Record<string, true>>().notNull().default({}),
  emailPreferences: jsonb("email_preferences")
    .$type<EmailPreferences>()
    .notNull()
    .default(DEFAULT_EMAIL_PREFERENCES),
  notificationSound: boolean("notification_sound").notNull().default(true),
  isDeleted: boolean("is_deleted").notNull().default(false),
  /** Set by an instance admin (modules/admin): no sign-in, no session, no API token while set. */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  isAnonymous: boolean("is_anonymous").notNull().default(false),
  privilege: text("privilege"),
  /** When the privilege ends (a referral reward's months); null: it lasts until taken back. */
  privilegeUntil: timestamp("privilege_until", { withTimezone: true }),
  /** The person's own referral code (Refer & Earn), made the first time they open it. */
  referralCode: text("referral_code").unique(),
  stripeCustomerId: text("stripe_customer_id"),
  lifetimeDeal: jsonb("lifetime_deal").$type<{
    isDisabled: boolean;
    /** One per redeemed code (`code` is the grant id in redeemed_grants). */
    invoices: { plan: string; code?: string }[];
  }>(),
  partnerPlan: text("partner_plan"),
  paypalSubscriptionId: text("paypal_subscription_id"),
  /** The user's subscriptions that hold a plan, as `subscriptions` last recorded them (same transaction). */
  heldSubscriptions: jsonb("held_subscriptions").$type<HeldSubscription[]>().notNull().default([]),
  slackConnected: boolean("slack_connected").notNull().default(false),
  trelloConnected: boolean("trello_connected").notNull().default(false),
  asanaConnected: boolean("asana_connected").notNull().default(false),
  limits: jsonb("limits").$type<Limits>().notNull().default(FREE_PLAN_LIMITS),
  projectsCount: integer("projects_count").notNull().default(0),
  projectPagesCount: integer("project_pages_count").notNull().default(0),
  projectShareCount: integer("project_share_count").notNull().default(0),
  projectEditorsCount: integer("project_editors_count").notNull().default(0),
  projectsEditors: integer("projects_editors").notNull().default(0),
  /**
   * Moves on in the same transaction as every write that changes what `GET /api/me` counts (projects,
   * pages, people, stored files of the user's projects; triggers of migration 0013), so counters cached
   * at one revision are never served at another (modules/users/counters.ts).
   */
  countersRevision: integer("counters_revision").notNull().default(0),
});

export type UserRow = typeof users.$inferSelect;
