/** Teams as the API shows them: each with the reader's role and abilities, each person with theirs. */
import type { Team, TeamDetail, TeamMember, TeamPlan, TeamRole } from "@redline/shared";
import type { TeamRow } from "../../db/schema/index.ts";
import { memberAbilities, teamAbilities, teamActor } from "./teams.policy.ts";

export function presentTeam(team: TeamRow, role: TeamRole, readerId: string, plan: TeamPlan): Team {
  return {
    id: team.id,
    product: team.product,
    name: team.name,
    ownerId: team.ownerId,
    isDisabled: team.isDisabled,
    customBranding: team.customBranding,
    theme: team.theme ?? null,
    domain: team.domain ?? null,
    createdAt: team.createdAt.toISOString(),
    modifiedAt: team.modifiedAt.toISOString(),
    plan,
    role,
    abilities: teamAbilities(teamActor(readerId, role), { isDisabled: team.isDisabled }),
  };
}

/** The team with its people: owner, managers and members in `members`, collaborators apart (SPEC §3). */
export function presentTeamDetail(
  team: TeamRow,
  role: TeamRole,
  readerId: string,
  plan: TeamPlan,
  people: TeamMember[],
): TeamDetail {
  const reader = teamActor(readerId, role);
  const withAbilities = people.map((person) => ({
    ...person,
    abilities: memberAbilities(reader, team, person),
  }));
  return {
    ...presentTeam(team, role, readerId, plan),
    members: withAbilities.filter((person) => person.access !== "collaborator"),
    collaborators: withAbilities.filter((person) => person.access === "collaborator"),
  };
}
