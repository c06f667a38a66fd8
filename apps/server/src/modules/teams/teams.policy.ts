/**
 * Who may do what with a team and its people (SPEC §2, §4, §6). Every team user reads it; the owner
 * and managers of an enabled team rename it, add people ('+ Add members'), change roles and remove
 * members or collaborators — never the owner's place, nor their own (they leave instead); anyone but
 * the owner may leave, even a disabled team. Routes authorize through `authorizeTeam`; presenters send
 * the same answers as each team's and each person's abilities.
 */
import {
  TEAM_MESSAGES,
  type TeamAbilities,
  type TeamMember,
  type TeamMemberAbilities,
  type TeamRole,
} from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { allows, type PolicyActor, type PolicyTable } from "../../lib/policy.ts";

export type TeamAction =
  | "teams.read"
  | "teams.rename"
  | "teams.addMembers"
  | "teams.changeRole"
  | "teams.removeMember"
  | "teams.removeCollaborator"
  | "teams.leave"
  | "teams.brand"
  | "teams.domain";

export type TeamActor = PolicyActor<TeamRole>;

/** The team an action is on, and the person it is about (none for team-level questions). */
export interface TeamResource {
  isDisabled: boolean;
  member?: { userId: string | null; isOwner: boolean };
}

const EVERY_ROLE: readonly TeamRole[] = ["owner", "manager", "member", "collaborator"];
const ADMINS: readonly TeamRole[] = ["owner", "manager"];
const NOT_OWNER: readonly TeamRole[] = ["manager", "member", "collaborator"];

const enabled = (_actor: TeamActor, team: TeamResource) => !team.isDisabled;
/** Enabled, and the person is neither the owner nor the actor (they leave instead). */
const someoneElse = (actor: TeamActor, team: TeamResource) =>
  enabled(actor, team) &&
  !team.member?.isOwner &&
  (team.member === undefined || team.member.userId !== actor.userId);

export const TEAM_POLICY: PolicyTable<TeamAction, TeamResource, TeamRole> = {
  "teams.read": [{ access: EVERY_ROLE }],
  "teams.rename": [{ access: ADMINS, when: enabled }],
  "teams.addMembers": [{ access: ADMINS, when: enabled }],
  "teams.changeRole": [{ access: ADMINS, when: someoneElse }],
  "teams.removeMember": [{ access: ADMINS, when: someoneElse }],
  "teams.removeCollaborator": [{ access: ADMINS, when: someoneElse }],
  // SPEC §4: any member can leave a team (a disabled one too); its owner cannot.
  "teams.leave": [{ access: NOT_OWNER }],
  // The team's theme and logo, and its custom domain (plan-gated on the owner's plan by the routes).
  "teams.brand": [{ access: ADMINS, when: enabled }],
  "teams.domain": [{ access: ADMINS, when: enabled }],
};

export const teamActor = (userId: string, role: TeamRole | null): TeamActor => ({
  userId,
  access: role,
  isGuest: false,
});

export function canTeam(actor: TeamActor, action: TeamAction, team: TeamResource): boolean {
  return allows(TEAM_POLICY, actor, action, team);
}

/**
 * 404 for people outside the team (its existence is not theirs to know), 403 for team users who may
 * not do this — saying so when only the team being disabled stands in the way, or when its owner
 * tries to leave.
 */
export function authorizeTeam(actor: TeamActor, action: TeamAction, team: TeamResource): void {
  if (!canTeam(actor, "teams.read", team))
    throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
  if (canTeam(actor, action, team)) return;
  if (action === "teams.leave" && actor.access === "owner")
    throw new ForbiddenError(TEAM_MESSAGES.ownerCannotLeave, "team-owner-cannot-leave");
  if (team.isDisabled && canTeam(actor, action, { ...team, isDisabled: false }))
    throw new ForbiddenError(TEAM_MESSAGES.disabled, "team-disabled");
  // Allowed to do this to others, but not to this person: the owner, or oneself.
  if (team.member && canTeam(actor, action, { isDisabled: team.isDisabled })) {
    if (team.member.isOwner) throw new ForbiddenError(TEAM_MESSAGES.ownerUntouchable, "team-owner");
    throw new ForbiddenError(TEAM_MESSAGES.notSelf, "team-self");
  }
  throw new ForbiddenError();
}

export function teamAbilities(actor: TeamActor, team: TeamResource): TeamAbilities {
  return {
    rename: canTeam(actor, "teams.rename", team),
    addMembers: canTeam(actor, "teams.addMembers", team),
    changeRoles: canTeam(actor, "teams.changeRole", team),
    removeMembers: canTeam(actor, "teams.removeMember", team),
    removeCollaborators: canTeam(actor, "teams.removeCollaborator", team),
    leave: canTeam(actor, "teams.leave", team),
    brand: canTeam(actor, "teams.brand", team),
    setDomain: canTeam(actor, "teams.domain", team),
  };
}

/** What the reader may do about one person: change their role, remove them, or (themselves) leave. */
export function memberAbilities(
  actor: TeamActor,
  team: { isDisabled: boolean },
  member: Pick<TeamMember, "uid" | "access">,
): TeamMemberAbilities {
  const resource: TeamResource = {
    isDisabled: team.isDisabled,
    member: { userId: member.uid, isOwner: member.access === "owner" },
  };
  const isSelf = member.uid !== null && member.uid === actor.userId;
  return {
    changeRole: canTeam(actor, "teams.changeRole", resource),
    remove: canTeam(
      actor,
      member.access === "collaborator" ? "teams.removeCollaborator" : "teams.removeMember",
      resource,
    ),
    leave: isSelf && canTeam(actor, "teams.leave", resource),
  };
}
