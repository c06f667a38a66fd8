/**
 * Who may do what with inspect changes (suggested edits, SPEC §6): every reader of the project reads
 * them (and downloads them as a CSS patch); editors save, hide, resolve and delete them and upload
 * replacement images. Guests of a public link read them only while the link shows edits.
 */
import { type InspectChange, SHARING_MESSAGES } from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { allows, EDITORS, EVERY_ACCESS, type PolicyActor, type PolicyTable } from "../../lib/policy.ts";

export type InspectAction =
  | "inspect.read"
  | "inspect.create"
  | "inspect.resolve"
  | "inspect.hide"
  | "inspect.delete";

/** What guests' reads depend on: the public link's "show edits" setting. */
export interface InspectTarget {
  linkShowsEdits?: boolean;
}

export const INSPECT_POLICY: PolicyTable<InspectAction, InspectTarget> = {
  "inspect.read": [
    { access: EVERY_ACCESS, when: (actor) => !actor.isGuest },
    { access: EVERY_ACCESS, guests: true, when: (_actor, target) => target.linkShowsEdits === true },
  ],
  "inspect.create": [{ access: EDITORS }],
  "inspect.resolve": [{ access: EDITORS }],
  "inspect.hide": [{ access: EDITORS }],
  "inspect.delete": [{ access: EDITORS }],
};

export function canInspect(actor: PolicyActor, action: InspectAction, target: InspectTarget = {}): boolean {
  return allows(INSPECT_POLICY, actor, action, target);
}

/** 404 for outsiders, 403 (with the link's reason for guests) for readers who may not do this. */
export function authorizeInspect(
  actor: PolicyActor,
  action: InspectAction,
  target: InspectTarget = {},
): void {
  if (!canInspect(actor, "inspect.read", target)) {
    if (actor.isGuest && actor.access)
      throw new ForbiddenError("This link does not show suggested edits.", "link-edits-off");
    throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  }
  if (!canInspect(actor, action, target)) throw new ForbiddenError();
}

/** The change as this reader sees it: what they may do with it. */
export function withInspectAbilities(actor: PolicyActor, change: InspectChange): InspectChange {
  return {
    ...change,
    abilities: {
      resolve: canInspect(actor, "inspect.resolve"),
      hide: canInspect(actor, "inspect.hide"),
      delete: canInspect(actor, "inspect.delete"),
    },
  };
}
