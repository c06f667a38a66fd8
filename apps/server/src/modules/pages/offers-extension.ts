/** Which projects take pages from the browser extension (ADR 0037), pure. */
import { EXTENSION_MESSAGES, type ProjectType } from "@redline/shared";
import { ForbiddenError } from "../../lib/errors.ts";

/** Project types whose pages are web pages the extension can add (SPEC §1: pages of web apps). */
export const EXTENSION_PROJECT_TYPES: readonly ProjectType[] = ["web", "webapp"];

/**
 * Whether a project is offered to the extension (SPEC §6: the person may edit it — the caller checks
 * that — and §3 `isPluginDisabled`): a live web or web-app project that has not turned the extension off.
 */
export function offersExtension(project: {
  type: ProjectType;
  isArchived: boolean;
  isPluginDisabled: boolean;
  isExpired: boolean;
}): boolean {
  return (
    EXTENSION_PROJECT_TYPES.includes(project.type) &&
    !project.isArchived &&
    !project.isPluginDisabled &&
    !project.isExpired
  );
}

/** Refuses a project that does not take pages from the extension (its routes' check). */
export function assertOffersExtension(project: Parameters<typeof offersExtension>[0]): void {
  if (!offersExtension(project))
    throw new ForbiddenError(EXTENSION_MESSAGES.projectUnavailable, "extension/project-unavailable");
}
