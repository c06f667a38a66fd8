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

/** A page of a search: its items and where it stands among them. */
export const adminPageSchema = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  });

export const adminUserSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  privilege: z.string().nullable(),
  partnerPlan: z.string().nullable(),
  /** Lifetime-deal tiers held (e.g. `tier_2`), one per standing code. */
  lifetimeTiers: z.array(z.string()),
  /** Named in ADMIN_EMAILS: an operator cannot disable an operator. */
  isAdmin: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminTeamSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  product: z.string(),
  ownerId: z.string(),
  ownerEmail: z.string(),
  isDisabled: z.boolean(),
  /** The owner's plan is paid now (a lapsed plan reads false: the team is free, SPEC §4). */
  isPaid: z.boolean(),
  members: z.number().int(),
  createdAt: z.string(),
});
export type AdminTeam = z.infer<typeof adminTeamSchema>;

/** The series the usage chart draws, each an analytics event name (SPEC §7). */
export const ADMIN_USAGE_SERIES = [
  "SignUp",
  "NewComment",
  "UpgradeInitiated",
  "UpgradeCompleted",
  "UpgradeFailed",
] as const;
export type AdminUsageSeries = (typeof ADMIN_USAGE_SERIES)[number];

const usageCountsSchema = z.strictObject(
  Object.fromEntries(ADMIN_USAGE_SERIES.map((series) => [series, z.number().int()])) as Record<
    AdminUsageSeries,
    z.ZodNumber
  >,
);

export const adminUsageSchema = z.strictObject({
  days: z.array(
    z.strictObject({
      /** `YYYY-MM-DD` (UTC). */
      day: z.string(),
      counts: usageCountsSchema,
    }),
  ),
  totals: usageCountsSchema,
});
export type AdminUsage = z.infer<typeof adminUsageSchema>;
export type AdminUsageDay = AdminUsage["days"][number];

export const adminHealthSchema = z.strictObject({
  outbox: z.strictObject({
    /** Not delivered yet, still to be tried. */
    pending: z.number().int(),
    /** Given up after the last attempt. */
    failed: z.number().int(),
    recentFailures: z.array(
      z.strictObject({
        id: z.string(),
        to: z.string(),
        subject: z.string(),
        attempts: z.number().int(),
        lastError: z.string(),
        createdAt: z.string(),
      }),
    ),
  }),
  /** pg-boss jobs per queue and state (created, retry, active, completed, failed, cancelled). */
  queues: z.array(z.strictObject({ name: z.string(), state: z.string(), count: z.number().int() })),
});
export type AdminHealth = z.infer<typeof adminHealthSchema>;

export const ADMIN_ACTIONS = [
  "users.disable",
  "users.enable",
  "users.grant",
  "teams.disable",
  "teams.enable",
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const adminAuditEntrySchema = z.strictObject({
  id: z.string(),
  adminEmail: z.string(),
  action: z.enum(ADMIN_ACTIONS),
  targetKind: z.enum(["user", "team"]),
  targetId: z.string(),
  /** What the target was called when it happened (e-mail or team name). */
  targetLabel: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

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
