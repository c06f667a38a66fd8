/**
 * Who may do what on a project and everything in it (pages, versions, members, approvals). The single
 * place that answers it: routes call `authorize`, presenters send `abilities` to the client, and the
 * authorization matrix (src/testing/authorization-matrix.ts) proves every route against it.
 *
 * Access comes from, in order: ownership; the project's member entry (edit / comment / view); the team
 * relation (team projects give the team's owner, managers and members edit, and the collaborators
 * toggled into the project comment — see team-access.ts); a public share link (guests: comment or view as the link allows).
 */
import { type Access, type MemberAccess, type ProjectSharing, SHARING_MESSAGES } from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import {
  allows,
  EDITORS,
  EVERY_ACCESS,
  OWNER,
  type PolicyActor,
  type PolicyTable,
} from "../../lib/policy.ts";

export type ProjectAction =
  | "projects.read"
  | "projects.update"
  | "projects.archive"
  | "projects.delete"
  | "projects.move"
  | "pages.create"
  | "pages.update"
  | "pages.delete"
  | "versions.create"
  | "versions.update"
  | "versions.delete"
  | "pages.approve";

/** What the `pages.approve` rule looks at beyond access: the project's chosen approvers. */
export interface ProjectTarget {
  approvers?: readonly string[];
  /** An expired project is read-only (SPEC §4): its approvers no longer approve either. */
  isExpired?: boolean;
}

const isApprover = (actor: PolicyActor, target: ProjectTarget) =>
  actor.userId !== null && !target.isExpired && (target.approvers ?? []).includes(actor.userId);

export const PROJECT_POLICY: PolicyTable<ProjectAction, ProjectTarget> = {
  "projects.read": [{ access: EVERY_ACCESS }],
  "projects.update": [{ access: EDITORS }],
  "projects.archive": [{ access: OWNER }],
  "projects.delete": [{ access: OWNER }],
  /** Into one of the owner's teams or out of it (ADR 0012: the creator owns a team project). */
  "projects.move": [{ access: OWNER }],
  "pages.create": [{ access: EDITORS }],
  "pages.update": [{ access: EDITORS }],
  "pages.delete": [{ access: EDITORS }],
  "versions.create": [{ access: EDITORS }],
  "versions.update": [{ access: EDITORS }],
  "versions.delete": [{ access: EDITORS }],
  /** Editors, and the project's chosen approvers whatever their access. */
  "pages.approve": [{ access: EDITORS }, { access: EVERY_ACCESS, when: isApprover }],
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

/**
 * A guest arriving by the public link: comment or view as the link allows; nothing when it is off.
 * `readOnly`: view only whatever the link says (an expired project, or a plan without guest commenting).
 */
export function guestAccess(sharing: ProjectSharing | null, readOnly = false): Access | null {
  if (!sharing?.public) return null;
  return sharing.canComment && !readOnly ? "comment" : "view";
}

/**
 * The link settings as guests are served them: "Allow comments" reads off while guests may only view
 * (guestAccess's `readOnly`), whatever is stored, so the share modal shows what the link does.
 */
export function servedSharing(sharing: ProjectSharing, readOnly: boolean): ProjectSharing {
  return { ...sharing, canComment: sharing.canComment && !readOnly };
}

/** Page approval is also open to the project's chosen approvers, whatever their access. */
export function canApprovePage(
  access: Access | null,
  userId: string | null,
  approvers: readonly string[],
  isExpired = false,
): boolean {
  return allows(PROJECT_POLICY, { userId, access, isGuest: false }, "pages.approve", {
    approvers,
    isExpired,
  });
}

export function allowsProject(
  actor: PolicyActor,
  action: ProjectAction,
  target: ProjectTarget = {},
): boolean {
  return allows(PROJECT_POLICY, actor, action, target);
}

/** An action that needs no condition beyond access (every one but `pages.approve`). */
export function can(access: Access | null, action: ProjectAction): boolean {
  return allows(PROJECT_POLICY, { userId: null, access, isGuest: false }, action, {});
}

/** `authorize` for a rule with a condition on the actor (the approvers of `pages.approve`). */
export function authorizeProject(
  actor: PolicyActor,
  action: ProjectAction,
  target: ProjectTarget = {},
): void {
  authorize(actor.access, "projects.read");
  if (!allowsProject(actor, action, target)) throw new ForbiddenError();
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

/**
 * An expired project is read-only (SPEC §4): everyone acts on it as a viewer would. Its owner may still
 * archive or delete it (`heldAccess` in LoadedProject), so an expired project never blocks a new one.
 */
export function readOnlyAccess<A extends Access | null>(access: A, isExpired: boolean): A | "view" {
  return isExpired && access !== null ? "view" : access;
}
