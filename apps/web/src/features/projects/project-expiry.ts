/**
 * SPEC §4 expiry as the server reports it: `isExpired` decides (the server knows the owner's limits; an
 * owner whose projects became unlimited gets `expiresAt: null`), `expiresAt` only counts down to it.
 */
import { EXPIRING_PROJECT_TYPES, expiryLabel, type ProjectSummary } from "@redline/shared";

/** 'Expired', 'Expires in {n}m' / '{n}h', or null when the project does not expire. */
export function projectExpiryLabel(
  project: Pick<ProjectSummary, "type" | "expiresAt" | "isExpired">,
  now: Date = new Date(),
): string | null {
  if (project.isExpired) return "Expired";
  if (!project.expiresAt || !EXPIRING_PROJECT_TYPES.includes(project.type)) return null;
  return expiryLabel(new Date(project.expiresAt), now);
}
