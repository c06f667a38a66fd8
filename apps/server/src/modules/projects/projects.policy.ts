/**
 * Who may do what on a project and everything in it (pages, versions, members, approvals). The single
 * place that answers it: routes call `authorize`, presenters send `abilities` to the client, and the
 * authorization matrix test (src/authorization.matrix.test.ts) proves every route against it.
 *
 * Access comes from, in order: ownership; the project's member entry (edit / comment / view); the team
 * relation (team projects give team members edit and collaborators comment — teams arrive later, the
 * relation is already an input); a public share link (guests: comment or view as the link allows).
 */
import {
  type Access,
  type MemberAccess,
  type ProjectAbilities,
  type ProjectSharing,
  SHARING_MESSAGES,
} from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";

export type ProjectAction =
  | "projects.read"
  | "projects.update"
  | "projects.archive"
  | "projects.delete"
  | "pages.create"
  | "pages.update"
  | "pages.delete"
  | "versions.create"
  | "versions.update"
  | "versions.delete"
  | "members.read"
  | "members.manage"
  | "projects.transfer"
  | "approvers.manage"
  | "pages.approve"
  | "comments.read"
  | "comments.create"
  | "comments.resolve"
  | "comments.moderate"
  | "changes.read"
  | "changes.create"
  | "changes.resolve"
  | "changes.delete";

const RULES: Record<ProjectAction, readonly Access[]> = {
  "projects.read": ["owner", "edit", "comment", "view"],
  "projects.update": ["owner", "edit"],
  "projects.archive": ["owner"],
  "projects.delete": ["owner"],
  "pages.create": ["owner", "edit"],
  "pages.update": ["owner", "edit"],
  "pages.delete": ["owner", "edit"],
  "versions.create": ["owner", "edit"],
  "versions.update": ["owner", "edit"],
  "versions.delete": ["owner", "edit"],
  "members.read": ["owner", "edit", "comment", "view"],
  "members.manage": ["owner", "edit"],
  "projects.transfer": ["owner"],
  "approvers.manage": ["owner", "edit"],
  "pages.approve": ["owner", "edit"],
  "comments.read": ["owner", "edit", "comment", "view"],
  "comments.create": ["owner", "edit", "comment"],
  "comments.resolve": ["owner", "edit", "comment"],
  /** Deleting other people's entries. */
  "comments.moderate": ["owner", "edit"],
  /** Inspect changes (suggested edits): read like comments; made and managed with edit access (SPEC §6). */
  "changes.read": ["owner", "edit", "comment", "view"],
  "changes.create": ["owner", "edit"],
  "changes.resolve": ["owner", "edit"],
  "changes.delete": ["owner", "edit"],
};

export type TeamRole = "owner" | "manager" | "member" | "collaborator";

export interface ProjectRelation {
  ownerId: string;
  /** The actor's entry in the project's users, if any. */
  memberAccess: MemberAccess | null;
  /** The actor's role in the project's team, if the project belongs to a team the actor is in. */
  teamRole?: TeamRole | null;
}

const RANK: Record<Access, number> = { view: 0, comment: 1, edit: 2, owner: 3 };
const highest = (...candidates: (Access | null)[]) =>
  candidates.reduce<Access | null>(
    (best, next) => (next && (!best || RANK[next] > RANK[best]) ? next : best),
    null,
  );

/** The actor's access to a project, or null when the actor is not part of it. */
export function projectAccess(userId: string | null, relation: ProjectRelation): Access | null {
  if (!userId) return null;
  if (relation.ownerId === userId) return "owner";
  const team = relation.teamRole ? (relation.teamRole === "collaborator" ? "comment" : "edit") : null;
  return highest(relation.memberAccess, team);
}

/** A guest arriving by the public link: comment or view as the link allows; nothing when it is off. */
export function guestAccess(sharing: ProjectSharing | null): Access | null {
  if (!sharing?.public) return null;
  return sharing.canComment ? "comment" : "view";
}

/** Page approval is also open to the project's chosen approvers, whatever their access. */
export function canApprovePage(
  access: Access | null,
  userId: string | null,
  approvers: readonly string[],
): boolean {
  return can(access, "pages.approve") || (access !== null && userId !== null && approvers.includes(userId));
}

export function can(access: Access | null, action: ProjectAction): boolean {
  return access !== null && RULES[action].includes(access);
}

/** Throws 404 for outsiders (a project's existence is not revealed) and 403 for members lacking the right. */
export function authorize(access: Access | null, action: ProjectAction): asserts access is Access {
  if (!can(access, "projects.read")) {
    // The project exists (loading it succeeded) but not for this actor (SPEC §4, §8). Ids are 128-bit
    // random, so saying so reveals nothing guessable; a missing project stays 'Project not found.'.
    throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  }
  if (!can(access, action)) throw new ForbiddenError();
}

export function projectAbilities(
  access: Access | null,
  viewer: { userId: string | null; approvers: readonly string[] } = { userId: null, approvers: [] },
): ProjectAbilities {
  return {
    read: can(access, "projects.read"),
    update: can(access, "projects.update"),
    archive: can(access, "projects.archive"),
    delete: can(access, "projects.delete"),
    addPages: can(access, "pages.create"),
    updatePages: can(access, "pages.update"),
    deletePages: can(access, "pages.delete"),
    manageMembers: can(access, "members.manage"),
    transfer: can(access, "projects.transfer"),
    manageApprovers: can(access, "approvers.manage"),
    approvePages: canApprovePage(access, viewer.userId, viewer.approvers),
    comment: can(access, "comments.create"),
    suggestEdits: can(access, "changes.create"),
  };
}
