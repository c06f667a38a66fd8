/**
 * The instance admin (issue #34 item 6; SPEC is silent): what operators named in the server's configuration
 * (ADMIN_EMAILS) see at `/admin` and call under `/api/admin/*` — users, teams, usage from the analytics
 * events, the mail outbox and the job queue, and the audit of every admin action.
 */
import { z } from "zod";
import { PARTNER_PLANS, type PartnerPlan } from "./plans.ts";

export const ADMIN_PAGE_SIZE = 25;

/** `GET /api/admin/users?q=&page=`: e-mail or name contains `q` (case-insensitive); pages from 1. */
export const adminUserSearchSchema = z.strictObject({
  q: z.string().trim().max(200).default(""),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const adminTeamSearchSchema = adminUserSearchSchema;

export const ADMIN_PRIVILEGE_PLANS = ["team", "pro", "standard"] as const;
export const ADMIN_PARTNER_PLANS = Object.keys(PARTNER_PLANS).sort() as PartnerPlan[];

/**
 * What an operator hands a user (the grant CLI's kinds, without the link or code in between): a privilege
 * plan (or none, to take it back), a lifetime-deal tier, or a partner plan.
 */
export const adminGrantSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("privilege"), plan: z.enum(ADMIN_PRIVILEGE_PLANS).nullable() }),
  z.strictObject({ kind: z.literal("lifetime"), tier: z.union([z.literal(1), z.literal(2), z.literal(3)]) }),
  z.strictObject({ kind: z.literal("partner"), plan: z.enum(["A", "B", "C", "D"]) }),
]);
export type AdminGrantInput = z.infer<typeof adminGrantSchema>;

/** `GET /api/admin/usage?days=`: the last `days` days, today included (UTC days). */
export const adminUsageQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(365).default(30),
});

export interface AdminPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface AdminUser {
  id: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
  createdAt: string;
  disabledAt: string | null;
  privilege: string | null;
  partnerPlan: string | null;
  /** Lifetime-deal tiers held (e.g. `tier_2`), one per standing code. */
  lifetimeTiers: string[];
  /** Named in ADMIN_EMAILS: an operator cannot disable an operator. */
  isAdmin: boolean;
}

export interface AdminTeam {
  id: string;
  name: string;
  product: string;
  ownerId: string;
  ownerEmail: string;
  isDisabled: boolean;
  /** The owner's plan is paid now (a lapsed plan reads false: the team is free, SPEC §4). */
  isPaid: boolean;
  members: number;
  createdAt: string;
}

/** The series the usage chart draws, each an analytics event name (SPEC §7). */
export const ADMIN_USAGE_SERIES = [
  "SignUp",
  "NewComment",
  "UpgradeInitiated",
  "UpgradeCompleted",
  "UpgradeFailed",
] as const;
export type AdminUsageSeries = (typeof ADMIN_USAGE_SERIES)[number];

export interface AdminUsageDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  counts: Record<AdminUsageSeries, number>;
}

export interface AdminUsage {
  days: AdminUsageDay[];
  totals: Record<AdminUsageSeries, number>;
}

export interface AdminHealth {
  outbox: {
    /** Not delivered yet, still to be tried. */
    pending: number;
    /** Given up after the last attempt. */
    failed: number;
    recentFailures: {
      id: string;
      to: string;
      subject: string;
      attempts: number;
      lastError: string;
      createdAt: string;
    }[];
  };
  /** pg-boss jobs per queue and state (created, retry, active, completed, failed, cancelled). */
  queues: { name: string; state: string; count: number }[];
}

export const ADMIN_ACTIONS = [
  "users.disable",
  "users.enable",
  "users.grant",
  "teams.disable",
  "teams.enable",
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export interface AdminAuditEntry {
  id: string;
  adminEmail: string;
  action: AdminAction;
  targetKind: "user" | "team";
  targetId: string;
  /** What the target was called when it happened (e-mail or team name). */
  targetLabel: string;
  details: Record<string, unknown>;
  createdAt: string;
}

/** A day's label for the chart's axis and its accessible table (`2025-03-07` → `Mar 7`). */
export function usageDayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

/** The upgrade funnel of a period: started, completed, failed, and the share completed of those started. */
export function upgradeFunnel(totals: Record<AdminUsageSeries, number>) {
  const started = totals.UpgradeInitiated;
  return {
    started,
    completed: totals.UpgradeCompleted,
    failed: totals.UpgradeFailed,
    conversion: started === 0 ? null : Math.min(1, totals.UpgradeCompleted / started),
  };
}
