/** The instance admin's views of users, teams and audit rows (packages/shared admin.ts). */
import type { AdminAction, AdminAuditEntry, AdminTeam, AdminUser } from "@redline/shared";
import type { AdminAuditRow, UserRow } from "../../db/schema/index.ts";
import { isAdminEmail } from "./admin.policy.ts";

type AdminUserColumns = Pick<
  UserRow,
  | "id"
  | "email"
  | "displayName"
  | "emailVerified"
  | "createdAt"
  | "disabledAt"
  | "privilege"
  | "partnerPlan"
  | "lifetimeDeal"
>;

export function presentAdminUser(user: AdminUserColumns, adminEmails: readonly string[]): AdminUser {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
    disabledAt: user.disabledAt?.toISOString() ?? null,
    privilege: user.privilege,
    partnerPlan: user.partnerPlan,
    lifetimeTiers: (user.lifetimeDeal?.invoices ?? []).map((invoice) => invoice.plan),
    isAdmin: isAdminEmail(adminEmails, user.email),
  };
}

/** A team as the admin's search reads it: the API's shape, with the database's date. */
export type LoadedAdminTeam = Omit<AdminTeam, "createdAt"> & { createdAt: Date };

export function presentAdminTeam(team: LoadedAdminTeam): AdminTeam {
  return { ...team, createdAt: team.createdAt.toISOString() };
}

export function presentAuditEntry(row: AdminAuditRow): AdminAuditEntry {
  return {
    id: row.id,
    adminEmail: row.adminEmail,
    action: row.action as AdminAction,
    targetKind: row.targetKind,
    targetId: row.targetId,
    targetLabel: row.targetLabel,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  };
}
