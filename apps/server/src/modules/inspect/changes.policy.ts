/**
 * Who may do what with inspect changes (suggested edits, SPEC §6): every reader of the project reads
 * them (and downloads them as a CSS patch); editors save, hide, resolve and delete them and upload
 * replacement images. Guests of a public link read them only while the link shows edits.
 */
import { type InspectChange, SHARING_MESSAGES } from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { allows, EDITORS, EVERY_ACCESS, type PolicyActor, type PolicyTable } from "../../lib/policy.ts";

export type ChangeAction =
  | "changes.read"
  | "changes.create"
  | "changes.resolve"
  | "changes.hide"
  | "changes.delete";

/** What guests' reads depend on: the public link's "show edits" setting. */
export interface ChangeTarget {
  linkShowsEdits?: boolean;
}

export const CHANGE_POLICY: PolicyTable<ChangeAction, ChangeTarget> = {
  "changes.read": [
    { access: EVERY_ACCESS, when: (actor) => !actor.isGuest },
    { access: EVERY_ACCESS, guests: true, when: (_actor, target) => target.linkShowsEdits === true },
  ],
  "changes.create": [{ access: EDITORS }],
  "changes.resolve": [{ access: EDITORS }],
  "changes.hide": [{ access: EDITORS }],
  "changes.delete": [{ access: EDITORS }],
};

export function canChange(actor: PolicyActor, action: ChangeAction, target: ChangeTarget = {}): boolean {
  return allows(CHANGE_POLICY, actor, action, target);
}

/** 404 for outsiders, 403 (with the link's reason for guests) for readers who may not do this. */
export function authorizeChange(actor: PolicyActor, action: ChangeAction, target: ChangeTarget = {}): void {
  if (!canChange(actor, "changes.read", target)) {
    if (actor.isGuest && actor.access)
      throw new ForbiddenError("This link does not show suggested edits.", "link-edits-off");
    throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  }
  if (!canChange(actor, action, target)) throw new ForbiddenError();
}

/** The change as this reader sees it: what they may do with it. */
export function withChangeAbilities(actor: PolicyActor, change: InspectChange): InspectChange {
  return {
    ...change,
    abilities: {
      resolve: canChange(actor, "changes.resolve"),
      hide: canChange(actor, "changes.hide"),
      delete: canChange(actor, "changes.delete"),
    },
  };
}
