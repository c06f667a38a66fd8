/**
 * Who may do what with an illustration project's slides (issue #32): every member reads the deck and
 * hears its changes; editors (and the owner) change it, upload its images and show where they are
 * (presence). A viewer or commenter reads only — the server refuses their updates, whatever a client sends.
 * A guest of the public link (no account) reads the deck too, never more: no update, image or presence.
 */
import { SHARING_MESSAGES } from "@redline/shared";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { allows, EDITORS, EVERY_ACCESS, type PolicyActor, type PolicyTable } from "../../lib/policy.ts";

export type SlidesAction = "slides.read" | "slides.edit";

export const SLIDES_POLICY: PolicyTable<SlidesAction, object> = {
  "slides.read": [{ access: EVERY_ACCESS, guests: true }],
  "slides.edit": [{ access: EDITORS }],
};

export function canSlides(actor: PolicyActor, action: SlidesAction): boolean {
  return allows(SLIDES_POLICY, actor, action, {});
}

/** 404 for outsiders (a project's existence is not revealed), 403 for members lacking the right. */
export function authorizeSlides(actor: PolicyActor, action: SlidesAction): void {
  if (!canSlides(actor, "slides.read"))
    throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  if (!canSlides(actor, action)) throw new ForbiddenError();
}
