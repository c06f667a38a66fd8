/**
 * Who may do what with a project's people (SPEC §4): every reader sees them; editors share, change
 * access and remove others (never the owner, whose place changes only by transfer); anyone may leave
 * (remove their own entry); only the owner hands the project to a signed-up member; editors choose
 * approvers among signed-up people of a website-review project (approvers approve pages; a bug-tracking
 * project has none). Routes authorize through `authorizeMember`; the member list sends
 * each row's abilities, and the project its `manageMembers`/`transfer`/`manageApprovers`.
 */
import { type ProjectMember, type ProjectType, productOf, SHARING_MESSAGES } from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import {
  allows,
  EDITORS,
  EVERY_ACCESS,
  OWNER,
  type PolicyActor,
  type PolicyTable,
} from "../../lib/policy.ts";

export type MemberAction =
  | "members.read"
  | "members.add"
  | "members.update"
  | "members.remove"
  | "members.leave"
  | "projects.transfer"
  | "approvers.manage"
  /** The public link's settings. */
  | "sharing.update";

/** The person an action is about; project-level questions ("may share at all?") pass none. */
export interface MemberTarget {
  userId?: string | null;
  isOwner?: boolean;
  isPending?: boolean;
  /** The project is a bug-tracking one (SPEC §1 `browse`): no pages to approve, so no approvers. */
  isBugTracking?: boolean;
}

const isSelf = (actor: PolicyActor, target: MemberTarget) =>
  actor.userId !== null && target.userId === actor.userId;
const someoneElse = (actor: PolicyActor, target: MemberTarget) => !target.isOwner && !isSelf(actor, target);
const signedUpOther = (actor: PolicyActor, target: MemberTarget) =>
  someoneElse(actor, target) && !target.isPending;

export const MEMBER_POLICY: PolicyTable<MemberAction, MemberTarget> = {
  "members.read": [{ access: EVERY_ACCESS }],
  "members.add": [{ access: EDITORS }],
  "members.update": [{ access: EDITORS, when: someoneElse }],
  "members.remove": [{ access: EDITORS, when: someoneElse }],
  "members.leave": [
    { access: EVERY_ACCESS, when: (actor, target) => isSelf(actor, target) && !target.isOwner },
  ],
  "projects.transfer": [{ access: OWNER, when: signedUpOther }],
  "approvers.manage": [
    { access: EDITORS, when: (_actor, target) => !target.isPending && !target.isBugTracking },
  ],
  "sharing.update": [{ access: EDITORS }],
};

export function canMember(actor: PolicyActor, action: MemberAction, target: MemberTarget = {}): boolean {
  return allows(MEMBER_POLICY, actor, action, target);
}

/** 404 for outsiders (the project is not theirs to know), 403 for readers who may not do this. */
export function authorizeMember(actor: PolicyActor, action: MemberAction, target: MemberTarget = {}): void {
  if (!canMember(actor, "members.read"))
    throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  if (!canMember(actor, action, target)) throw new ForbiddenError();
}

/** The project as the member rules see it: whether it is a bug-tracking one. */
export const projectTarget = (project: { type: ProjectType }): MemberTarget => ({
  isBugTracking: productOf(project.type) === "browse",
});

export const memberTarget = (member: ProjectMember, project: { type: ProjectType }): MemberTarget => ({
  ...projectTarget(project),
  userId: member.uid,
  isOwner: member.access === "owner",
  isPending: member.isPending,
});

/** The person as this reader sees them: what the reader may do about them. */
export function withMemberAbilities(
  actor: PolicyActor,
  member: ProjectMember,
  project: { type: ProjectType },
): ProjectMember {
  const target = memberTarget(member, project);
  return {
    ...member,
    abilities: {
      changeAccess: canMember(actor, "members.update", target),
      remove: canMember(actor, "members.remove", target),
      leave: canMember(actor, "members.leave", target),
      makeOwner: canMember(actor, "projects.transfer", target),
      toggleApprover: canMember(actor, "approvers.manage", target),
    },
  };
}
