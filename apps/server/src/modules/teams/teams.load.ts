/** Reading teams: one with the reader's role, the reader's teams, a team's people; claiming invitations. */
import type { Product, TeamMember, TeamRole } from "@redline/shared";
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type TeamRow, teamMembers, teams, users } from "../../db/schema/index.ts";
import { recordEvent } from "../../lib/realtime.ts";
import type { TeamNotificationEvent } from "../notifications/notify-teams.ts";
import { type OwnerPlanSources, ownerPlanColumns } from "./team-plan.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface LoadedTeam {
  team: TeamRow;
  /** The reader's place in it; null when they are not in the team (the policy makes that a 404). */
  role: TeamRole | null;
  /** The owner's plan sources: the team's plan is theirs (team-plan.ts). */
  owner: OwnerPlanSources | null;
}

/** The team, the reader's role and its owner's plan in one query; null when no such team exists. */
export async function loadTeam(
  db: Database | Tx,
  userId: string,
  teamId: string,
): Promise<LoadedTeam | null> {
  const [row] = await db
    .select({ team: teams, access: teamMembers.access, owner: ownerPlanColumns })
    .from(teams)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
    .leftJoin(users, eq(users.id, teams.ownerId))
    .where(eq(teams.id, teamId));
  if (!row) return null;
  return {
    team: row.team,
    role: row.team.ownerId === userId ? "owner" : (row.access ?? null),
    owner: row.owner,
  };
}

/** The teams the user owns or has joined (invitations not yet claimed are not theirs yet), oldest first. */
export async function listTeamsOf(
  db: Database,
  userId: string,
  product?: Product,
): Promise<{ team: TeamRow; role: TeamRole; owner: OwnerPlanSources | null }[]> {
  const rows = await db
    .select({ team: teams, access: teamMembers.access, owner: ownerPlanColumns })
    .from(teams)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
    .leftJoin(users, eq(users.id, teams.ownerId))
    .where(
      and(
        or(eq(teams.ownerId, userId), eq(teamMembers.userId, userId)),
        product ? eq(teams.product, product) : undefined,
      ),
    )
    .orderBy(asc(teams.createdAt), asc(teams.id));
  return rows.map((row) => ({
    team: row.team,
    role: row.team.ownerId === userId ? ("owner" as const) : row.access!,
    owner: row.owner,
  }));
}

// Filled in for each reader by the teams policy (memberAbilities).
const NO_ABILITIES = { changeRole: false, remove: false, leave: false };

/** Owner first, then people in the order they were added; invitations show their e-mail. */
export async function listTeamPeople(db: Database | Tx, team: TeamRow): Promise<TeamMember[]> {
  const [owner] = await db.select().from(users).where(eq(users.id, team.ownerId));
  const rows = await db
    .select({ member: teamMembers, user: users })
    .from(teamMembers)
    .leftJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, team.id))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.id));
  const people: TeamMember[] = [];
  if (owner)
    people.push({
      id: null,
      uid: owner.id,
      email: owner.email,
      displayName: owner.displayName,
      photoURL: owner.photoURL,
      access: "owner",
      isPending: false,
      abilities: NO_ABILITIES,
    });
  for (const { member, user } of rows)
    people.push({
      id: member.id,
      uid: member.userId,
      email: user?.email ?? member.email ?? "",
      displayName: user?.displayName ?? member.email ?? "",
      photoURL: user?.photoURL ?? null,
      access: member.access,
      isPending: member.userId === null,
      abilities: NO_ABILITIES,
    });
  return people;
}

/** The signed-up people of a team (owner included): whose open screens hear that it changed. */
export async function teamUserIds(db: Database | Tx, teamId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), sql`${teamMembers.userId} is not null`));
  const [team] = await db.select({ ownerId: teams.ownerId }).from(teams).where(eq(teams.id, teamId));
  return [...new Set([...(team ? [team.ownerId] : []), ...rows.map((row) => row.userId!)])];
}

/**
 * Team invitations sent to an e-mail become that user's memberships once the e-mail is verified (the
 * same moment project invitations are claimed). A place the user already has in the team wins — owning
 * it, or a membership — and the invitation is then dropped.
 */
export async function claimTeamInvitations(db: Database, user: { id: string; email: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const email = user.email.toLowerCase();
    await tx.execute(sql`
      delete from ${teamMembers} invite
      where invite.email = ${email} and invite.user_id is null
        and (exists (select 1 from ${teamMembers} existing
                     where existing.team_id = invite.team_id and existing.user_id = ${user.id})
             or exists (select 1 from ${teams} team
                        where team.id = invite.team_id and team.owner_id = ${user.id}))`);
    const claimed = await tx
      .update(teamMembers)
      .set({ userId: user.id, email: null })
      .where(and(eq(teamMembers.email, email), isNull(teamMembers.userId)))
      .returning({ teamId: teamMembers.teamId });
    // Everyone in those teams sees the invitation become a person at once.
    for (const { teamId } of claimed) await teamChanged(tx, teamId);
  });
}

/**
 * Records that the team (or someone's place in it) changed: one event (teams.events.ts) telling its
 * people's open screens — and `extra`, who just left — and, with `about`, who is told in the bell.
 */
export async function teamChanged(
  tx: Tx,
  teamId: string,
  extra: (string | null)[] = [],
  about?: TeamNotificationEvent,
): Promise<void> {
  const people = new Set([...(await teamUserIds(tx, teamId)), ...extra]);
  const userIds = [...people].filter((userId): userId is string => userId !== null);
  await recordEvent(tx, { type: "team.changed", teamId, userIds, ...(about && { about }) });
}
