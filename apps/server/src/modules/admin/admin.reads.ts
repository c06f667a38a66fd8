/**
 * The instance admin's reads: users and teams found by a few letters, usage per day from the analytics
 * events, the mail outbox and the job queue's health, and the audit. Each answers one page or one summary.
 */
import {
  ADMIN_PAGE_SIZE,
  ADMIN_USAGE_SERIES,
  type AdminHealth,
  type AdminUsage,
  type AdminUsageSeries,
} from "@redline/shared";
import { and, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  adminAudit,
  analyticsEvents,
  outgoingMails,
  teamMembers,
  teams,
  users,
} from "../../db/schema/index.ts";
import { MAX_ATTEMPTS } from "../../lib/mail/durable-mailer.ts";
import { ownerPlanColumns, teamPlanFor } from "../teams/team-plan.ts";
import { type LoadedAdminTeam, presentAdminUser, presentAuditEntry } from "./admin.presenter.ts";

/** `q` as a literal `ilike` pattern: its own `%`, `_` and `\` match themselves. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const offsetOf = (page: number) => (page - 1) * ADMIN_PAGE_SIZE;

export async function searchUsers(db: Database, adminEmails: readonly string[], q: string, page: number) {
  const where = q
    ? or(ilike(users.email, containing(q)), ilike(users.displayName, containing(q)))
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), users.id)
      .limit(ADMIN_PAGE_SIZE)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    items: rows.map((row) => presentAdminUser(row, adminEmails)),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

const memberCount = sql<number>`(select count(*)::int from ${teamMembers} where ${teamMembers.teamId} = ${teams.id} and ${teamMembers.userId} is not null)`;

function teamsQuery(db: Database) {
  return db
    .select({ team: teams, owner: ownerPlanColumns, ownerEmail: users.email, members: memberCount })
    .from(teams)
    .innerJoin(users, eq(users.id, teams.ownerId));
}

type TeamRowWithOwner = Awaited<ReturnType<ReturnType<typeof teamsQuery>["execute"]>>[number];

function loadedTeam(row: TeamRowWithOwner, plansEnabled: boolean): LoadedAdminTeam {
  return {
    id: row.team.id,
    name: row.team.name,
    product: row.team.product,
    ownerId: row.team.ownerId,
    ownerEmail: row.ownerEmail,
    isDisabled: row.team.isDisabled,
    // The owner's plan as it is now: a lapsed plan makes the team free (SPEC §4), with nothing to store.
    isPaid: teamPlanFor({ ...row.team, isDisabled: false }, row.owner, plansEnabled).isPaid,
    members: Number(row.members) + 1,
    createdAt: row.team.createdAt,
  };
}

export async function searchTeams(db: Database, plansEnabled: boolean, q: string, page: number) {
  const where = q ? or(ilike(teams.name, containing(q)), ilike(users.email, containing(q))) : undefined;
  const [rows, [total]] = await Promise.all([
    teamsQuery(db)
      .where(where)
      .orderBy(desc(teams.createdAt), teams.id)
      .limit(ADMIN_PAGE_SIZE)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(teams).innerJoin(users, eq(users.id, teams.ownerId)).where(where),
  ]);
  return {
    items: rows.map((row) => loadedTeam(row, plansEnabled)),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

export async function loadAdminTeam(db: Database, teamId: string, plansEnabled: boolean) {
  const [row] = await teamsQuery(db).where(eq(teams.id, teamId));
  return row ? loadedTeam(row, plansEnabled) : null;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Events per UTC day for the last `days` days (today included), every day present, zeros included. */
export async function usage(db: Database, days: number, now = new Date()): Promise<AdminUsage> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const since = new Date(today.getTime() - (days - 1) * 86_400_000);
  const day = sql<string>`to_char(${analyticsEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, name: analyticsEvents.name, n: count() })
    .from(analyticsEvents)
    .where(and(inArray(analyticsEvents.name, [...ADMIN_USAGE_SERIES]), gte(analyticsEvents.createdAt, since)))
    .groupBy(day, analyticsEvents.name);
  const zeros = () =>
    Object.fromEntries(ADMIN_USAGE_SERIES.map((name) => [name, 0])) as Record<AdminUsageSeries, number>;
  const byDay = new Map<string, Record<AdminUsageSeries, number>>();
  for (let i = 0; i < days; i++) byDay.set(dayOf(new Date(since.getTime() + i * 86_400_000)), zeros());
  const totals = zeros();
  for (const row of rows) {
    const counts = byDay.get(row.day);
    const name = row.name as AdminUsageSeries;
    if (!counts) continue;
    counts[name] += Number(row.n);
    totals[name] += Number(row.n);
  }
  return { days: [...byDay].map(([dayKey, counts]) => ({ day: dayKey, counts })), totals };
}

export async function health(db: Database): Promise<AdminHealth> {
  const unsent = isNull(outgoingMails.sentAt);
  const [[outbox], failures, queueRows] = await Promise.all([
    db
      .select({
        pending: sql<number>`count(*) filter (where ${outgoingMails.attempts} < ${MAX_ATTEMPTS})::int`,
        failed: sql<number>`count(*) filter (where ${outgoingMails.attempts} >= ${MAX_ATTEMPTS})::int`,
      })
      .from(outgoingMails)
      .where(unsent),
    db
      .select()
      .from(outgoingMails)
      .where(and(unsent, isNotNull(outgoingMails.lastError)))
      .orderBy(desc(outgoingMails.createdAt))
      .limit(10),
    db.execute(
      sql`select name, state::text as state, count(*)::int as count from pgboss.job group by name, state order by name, state`,
    ) as unknown as Promise<{ rows: { name: string; state: string; count: number | string }[] }>,
  ]);
  return {
    outbox: {
      pending: Number(outbox?.pending ?? 0),
      failed: Number(outbox?.failed ?? 0),
      recentFailures: failures.map((row) => ({
        id: row.id,
        to: row.mail.to,
        subject: row.mail.subject,
        attempts: row.attempts,
        lastError: row.lastError ?? "",
        createdAt: row.createdAt.toISOString(),
      })),
    },
    queues: queueRows.rows.map((row) => ({ name: row.name, state: row.state, count: Number(row.count) })),
  };
}

export async function auditPage(db: Database, page: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(adminAudit)
      .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(adminAudit),
  ]);
  return { items: rows.map(presentAuditEntry), page, pageSize: ADMIN_PAGE_SIZE, total: total?.n ?? 0 };
}
