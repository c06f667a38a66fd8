/** The extension's rules, pure (extension.rules.test.ts). */
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

/**
 * The addresses a tab's URL may be stored under as a page: as it is, without its fragment, and with or
 * without a trailing slash on the path (the badge counts threads of any of them).
 */
export function pageUrlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return [];
  parsed.hash = "";
  const bare = parsed.toString();
  const other = parsed.pathname.endsWith("/")
    ? bare.replace(/\/(\?|$)/, "$1")
    : bare.replace(/(\?|$)/, "/$1");
  return [...new Set([url, bare, other])];
}
