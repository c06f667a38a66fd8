/**
 * Teams (SPEC §1, §3 Team, §4, §6): the API contract and the team's pure rules. A team has an owner,
 * managers, members and collaborators (who only comment); people are matched by user id, or by e-mail
 * while their invitation waits for them to sign up.
 */
import { z } from "zod";
import { PRODUCTS } from "./limits.ts";

/** What a team user other than the owner can hold (SPEC §6; collaborators comment only). */
export const TEAM_ACCESS = ["manager", "member", "collaborator"] as const;
export type TeamAccess = (typeof TEAM_ACCESS)[number];
/** A person's place in a team: its owner, or one of the team accesses. */
export const teamRoleSchema = z.enum(["owner", ...TEAM_ACCESS]);
export type TeamRole = z.infer<typeof teamRoleSchema>;

/** SPEC §3 theme: the team's branding colours and assets (null: the shipped defaults). */
export const teamThemeSchema = z.strictObject({
  primaryColor: z.string(),
  secondaryColor: z.string(),
  textHighlightColor: z.string(),
  logoURL: z.string().nullable(),
  iconURL: z.string().nullable(),
});
export type TeamTheme = z.infer<typeof teamThemeSchema>;

/** What the reader may do with the team: the web shows a control only when its ability says so. */
export const teamAbilitiesSchema = z.strictObject({
  rename: z.boolean(),
  /** '+ Add members' (SPEC §2): the owner or a manager of an enabled team. */
  addMembers: z.boolean(),
  changeRoles: z.boolean(),
  removeMembers: z.boolean(),
  removeCollaborators: z.boolean(),
  leave: z.boolean(),
  /** Set the theme, logo and icon: the owner or a manager of an enabled team. */
  brand: z.boolean(),
  /** Add, re-check or remove the custom domain: the owner or a manager of an enabled team. */
  setDomain: z.boolean(),
});
export type TeamAbilities = z.infer<typeof teamAbilitiesSchema>;

/**
 * What the team owner's plan gives the team (SPEC §6: custom domain and branding are plan-gated): the
 * one rule behind branding, the custom domain, the host lookup and the screens — a plan's features end
 * together with the plan, for every person of the team. On a disabled team nothing is on.
 */
export const teamPlanSchema = z.strictObject({
  /** The owner holds a paid plan (SPEC §4: its members have "an enabled team"). */
  isPaid: z.boolean(),
  branding: z.boolean(),
  customDomain: z.boolean(),
});
export type TeamPlan = z.infer<typeof teamPlanSchema>;

export const NO_TEAM_PLAN: TeamPlan = { isPaid: false, branding: false, customDomain: false };

/** The team's plan from its owner's: paid, branding, custom domain — none of them while it is disabled. */
export function teamPlanOf(
  team: { isDisabled: boolean },
  owner: { isFree: boolean; entitlements: { branding: boolean; customDomain: boolean } } | null,
): TeamPlan {
  if (team.isDisabled || !owner) return NO_TEAM_PLAN;
  return {
    isPaid: !owner.isFree,
    branding: owner.entitlements.branding,
    customDomain: owner.entitlements.customDomain,
  };
}

/** SPEC §4 "an enabled team": one the user is in (not only a collaborator) whose owner's plan is paid. */
export function hasEnabledTeam(teams: readonly Pick<Team, "role" | "plan">[]): boolean {
  return teams.some((team) => team.role !== "collaborator" && team.plan.isPaid);
}

/**
 * The plan the upsells read (SPEC §4: the free plan and the offer bar exclude "an enabled team"): the
 * user's own, or — with an enabled team — not free and offered nothing ('Get unlimited projects.
 * Upgrade now', the offer bar).
 */
export function upsellPlanOf<P extends { isFree: boolean; hideUpsells: boolean }>(
  plan: P,
  teams: readonly Pick<Team, "role" | "plan">[],
): P {
  return hasEnabledTeam(teams) ? { ...plan, isFree: false, hideUpsells: true } : plan;
}

export const teamSchema = z.strictObject({
  id: z.string(),
  product: z.enum(PRODUCTS),
  name: z.string(),
  ownerId: z.string(),
  isDisabled: z.boolean(),
  customBranding: z.boolean(),
  theme: teamThemeSchema.nullable(),
  domain: z.string().nullable(),
  createdAt: z.iso.datetime(),
  modifiedAt: z.iso.datetime(),
  /** What the owner's plan gives the team now (a lapsed plan: nothing). */
  plan: teamPlanSchema,
  /** The reader's own place in the team. */
  role: teamRoleSchema,
  abilities: teamAbilitiesSchema,
});
export type Team = z.infer<typeof teamSchema>;

/** What the reader may do about one person of the team. */
export const teamMemberAbilitiesSchema = z.strictObject({
  changeRole: z.boolean(),
  remove: z.boolean(),
  leave: z.boolean(),
});
export type TeamMemberAbilities = z.infer<typeof teamMemberAbilitiesSchema>;

export const teamMemberSchema = z.strictObject({
  /** The membership's id (null for the owner, who has no membership row). */
  id: z.string().nullable(),
  uid: z.string().nullable(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  access: teamRoleSchema,
  /** Invited by e-mail, not signed up yet. */
  isPending: z.boolean(),
  abilities: teamMemberAbilitiesSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** GET /api/teams/{id}: the team, its owner, managers and members, and its collaborators apart. */
export const teamDetailSchema = teamSchema.extend({
  members: z.array(teamMemberSchema),
  collaborators: z.array(teamMemberSchema),
});
export type TeamDetail = z.infer<typeof teamDetailSchema>;

/** POST /api/teams/{id}/members: the invitation's membership, and whether it waits for a sign-up. */
export const teamInvitedSchema = z.strictObject({ id: z.string(), isPending: z.boolean() });

/** SPEC §2: how the profile menu names a team without a name. */
export const UNTITLED_TEAM = "Untitled team";
/** SPEC §3: a new team is named after its owner. */
export const defaultTeamName = (displayName: string) =>
  displayName.trim() ? `${displayName.trim()}'s Team` : UNTITLED_TEAM;
export const teamDisplayName = (team: Pick<Team, "name">) => team.name.trim() || UNTITLED_TEAM;

export const TEAM_NAME_MAX = 200;

/** GET /api/teams: the reader's teams, optionally one product's. */
export const listTeamsQuerySchema = z.object({ product: z.enum(PRODUCTS).optional() }).strict();

/** POST /api/teams (SPEC §7 create-team: product and name). */
export const createTeamSchema = z
  .object({ product: z.enum(PRODUCTS), name: z.string().trim().max(TEAM_NAME_MAX).optional() })
  .strict();

export const renameTeamSchema = z.object({ name: z.string().trim().min(1).max(TEAM_NAME_MAX) }).strict();

export const inviteTeamMemberSchema = z
  .object({ email: z.email().max(320), access: z.enum(TEAM_ACCESS) })
  .strict();

export const updateTeamMemberSchema = z.object({ access: z.enum(TEAM_ACCESS) }).strict();

/** SPEC §8 (and §9: team messages stay 7 s). Only 'You left the team.' is the spec's; the rest are worded like it. */
export const TEAM_MESSAGES = {
  created: "New team created.",
  renamed: "Team renamed.",
  invited: "Invitation sent.",
  added: "Member added to the team.",
  /** SPEC §8's text for sharing with someone who comments only: a collaborator added. */
  collaboratorAdded: "Project shared with the user.",
  accessUpdated: "User access updated.",
  removed: "User removed from the team.",
  collaboratorRemoved: "Collaborator removed from the team.",
  left: "You left the team.",
  notAccessible: "Team is not found or accessible.",
  ownerCannotLeave: "You own this team: it cannot be left by its owner.",
  ownerUntouchable: "The team's owner cannot be removed, and their role cannot be changed.",
  notSelf: "You cannot change your own place in the team; leave it instead.",
  notMember: "This person is not in the team.",
  notCollaborator: "This person is not one of the team's collaborators.",
  inviteSelf: "You cannot invite yourself to a team.",
  alreadyInTeam: "This person is already in the team.",
  disabled: "This team is disabled.",
} as const;
export const TEAM_SNACKBAR_MS = 7000;
