import type { Product, TeamAccess, TeamTheme } from "@redline/shared";
import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Teams (SPEC §3 Team): one product each, an owner, optional branding (theme) and a custom domain
 * (its status checked through DNS).
 */
export const teams = pgTable(
  "teams",
  {
    id: text("id").primaryKey(),
    product: text("product").$type<Product>().notNull(),
    name: text("name").notNull(),
    ownerId: belongsTo("owner_id", () => users.id),
    isDisabled: boolean("is_disabled").notNull().default(false),
    customBranding: boolean("custom_branding").notNull().default(false),
    theme: jsonb("theme").$type<TeamTheme>(),
    /** The team's custom domain, lower-case (one team per domain), its check state and its TXT token. */
    domain: text("domain"),
    domainStatus: text("domain_status").$type<"pending" | "verified" | "active" | "failed">(),
    domainToken: text("domain_token"),
    domainCheckedAt: timestamp("domain_checked_at", { withTimezone: true }),
    createdAt: createdAt(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("teams_owner_idx").on(table.ownerId), uniqueIndex("teams_domain_idx").on(table.domain)],
);

/**
 * A team's people besides its owner (SPEC §3 users and collaborators): a user id once known, or an
 * e-mail while the invitation waits for that person to sign up (claimed on verified sign-in, like
 * project_members). One row per team per user and per e-mail.
 */
export const teamMembers = pgTable(
  "team_members",
  {
    id: text("id").primaryKey(),
    teamId: belongsTo("team_id", () => teams.id),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    access: text("access").$type<TeamAccess>().notNull(),
    invitedBy: text("invited_by"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("team_members_user_idx").on(table.teamId, table.userId),
    uniqueIndex("team_members_email_idx").on(table.teamId, table.email),
    index("team_members_by_user_idx").on(table.userId),
    index("team_members_by_email_idx").on(table.email),
    check("team_members_user_or_email", sql`(${table.userId} is null) <> (${table.email} is null)`),
  ],
);

export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
