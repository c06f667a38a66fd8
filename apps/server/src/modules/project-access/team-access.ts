/**
 * The team relation of a team project (SPEC §4, ADR 0012): every person of the project's team but its
 * collaborators edits; a collaborator comments once toggled into the project; the creator stays the owner.
 * One left join per relation, each matching at most one row, so project queries add them freely.
 */
import { type Product, TEAM_MESSAGES, TEAM_PROJECT_MESSAGES, type TeamRole } from "@redline/shared";
import { and, eq, type Placeholder } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { projectCollaborators, projects, teamMembers, teams } from "../../db/schema/index.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { loadTeam } from "../teams/teams.load.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The columns the joins below add to a project query. */
export const teamRelationColumns = {
  teamName: teams.name,
  teamOwnerId: teams.ownerId,
  teamAccess: teamMembers.access,
  toggledIn: projectCollaborators.userId,
};

export interface TeamRelationRow {
  project: { teamId: string | null };
  teamName: string | null;
  teamOwnerId: string | null;
  teamAccess: TeamRole | null;
  toggledIn: string | null;
}

/** Join conditions for the actor `userId` (a value or a placeholder). */
export const teamJoins = (userId: Placeholder | string) => ({
  team: eq(teams.id, projects.teamId),
  member: and(eq(teamMembers.teamId, projects.teamId), eq(teamMembers.userId, userId)),
  collaborator: and(eq(projectCollaborators.projectId, projects.id), eq(projectCollaborators.userId, userId)),
});

/** The actor's role in the project's team, as the project policy takes it (null: no team relation). */
export function teamRoleOf(row: TeamRelationRow, userId: string | null): TeamRole | null {
  if (!userId || !row.project.teamId || row.teamOwnerId === null) return null;
  if (row.teamOwnerId === userId) return "owner";
  if (row.teamAccess === "collaborator") return row.toggledIn ? "collaborator" : null;
  return row.teamAccess;
}

/** The team as a project shows it. */
export const projectTeamOf = (row: TeamRelationRow) =>
  row.project.teamId && row.teamName !== null ? { id: row.project.teamId, name: row.teamName } : null;

/**
 * The team a project is created in or moved to: the actor must be its owner, a manager or a member (not a
 * collaborator) of an enabled team of the project's product. Read in the writing transaction.
 */
export async function teamForProject(
  tx: Tx,
  userId: string,
  teamId: string,
  product: Product,
): Promise<{ id: string; name: string }> {
  // The actor's place in the team is held until the project is written: a removal waits for it.
  await tx
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .for("share");
  const loaded = await loadTeam(tx, userId, teamId);
  if (!loaded?.role) throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
  if (loaded.role === "collaborator")
    throw new ForbiddenError(TEAM_PROJECT_MESSAGES.notTeamMember, "team-collaborator");
  if (loaded.team.isDisabled) throw new ForbiddenError(TEAM_MESSAGES.disabled, "team-disabled");
  if (loaded.team.product !== product)
    throw new BadRequestError(TEAM_PROJECT_MESSAGES.wrongProduct, "team-wrong-product");
  return { id: loaded.team.id, name: loaded.team.name };
}
