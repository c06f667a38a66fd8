import {
  type Access,
  isProjectExpired,
  type Limits,
  type Page,
  type ProjectAbilities,
  type ProjectSummary,
  type ProjectType,
  pageLimitFor,
  pagesLeft,
  productOf,
  UNLIMITED,
  type Version,
} from "@redline/shared";
import type { PageRow, ProjectRow, VersionRow } from "../../db/schema/index.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { canComment } from "../comments/comments.policy.ts";
import { canInspect } from "../inspect/inspect.policy.ts";
import { canMember, projectTarget } from "../members/members.policy.ts";
import { can, canApprovePage, readOnlyAccess } from "../project-access/projects.policy.ts";

export const fileUrl = (key: string | null) => (key ? `/files/${key}` : null);

/** Counted by the database (`loadCountedVersion`). */
type VersionCounts = { commentCount?: number; suggestionCount?: number };

/** Without a count (a version just created), it has no comments or suggestions yet. */
export function presentVersion(row: VersionRow & VersionCounts): Version {
  return {
    id: row.id,
    pageId: row.pageId,
    number: row.number,
    title: row.title,
    kind: row.kind,
    status: row.status,
    stage: row.stage,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    modifiedAt: row.modifiedAt.toISOString(),
    viewport: row.viewport,
    numberOfComments: row.commentCount ?? 0,
    numberOfSuggestions: row.suggestionCount ?? 0,
    partialCapture: row.capture?.settled && !row.capture.settled.complete ? row.capture.settled.busy : null,
  };
}

export function presentPage(row: PageRow, versions: (VersionRow & VersionCounts)[]): Page {
  const ordered = versions.filter((version) => version.pageId === row.id).sort((a, b) => a.number - b.number);
  return {
    id: row.id,
    projectId: row.projectId,
    url: row.url,
    title: row.title,
    isPDF: row.isPDF,
    isArchived: row.isArchived,
    isApproved: row.approved ?? false,
    isDemo: row.isDemo,
    screenshotSource: row.screenshotSource,
    sortOrder: row.sortOrder,
    thumbnail: fileUrl(row.thumbnailKey),
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    numberOfVersions: ordered.length,
    versions: ordered.map(presentVersion),
  };
}

export function presentProject(
  row: ProjectRow,
  access: Access,
  counts: {
    pageCount: number;
    ownerLimits: Limits | null;
    firstPageThumbnail?: string | null;
    viewerId: string;
    team?: { id: string; name: string } | null;
  },
): ProjectSummary {
  const pageLimit = pageLimitFor(row.type, counts.ownerLimits);
  const ownerProjectLimit = counts.ownerLimits?.[productOf(row.type)].projects ?? UNLIMITED;
  const isExpired = isProjectExpired(row.expiresAt, ownerProjectLimit);
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    owner: row.ownerId,
    access,
    isArchived: row.isArchived,
    isPluginDisabled: row.isPluginDisabled,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    expiresAt: ownerProjectLimit === UNLIMITED ? null : (row.expiresAt?.toISOString() ?? null),
    isExpired,
    // A project without its own picture shows its first captured page.
    thumbnail: fileUrl(row.thumbnailKey ?? counts.firstPageThumbnail ?? null),
    sortOrder: row.sortOrder,
    pageCount: counts.pageCount,
    pageLimit,
    pagesLeft: pagesLeft(pageLimit, counts.pageCount),
    team: counts.team ?? null,
    abilities: projectAbilities(
      access,
      { userId: counts.viewerId, approvers: row.approvers },
      isExpired,
      row.type,
    ),
  };
}

/**
 * What the reader may do on a project, as the answer carries it: composed here, above the policies of the
 * project, its comments, suggested edits and people (the project's own policy knows none of them).
 */
export function projectAbilities(
  heldAccess: Access | null,
  viewer: { userId: string | null; approvers: readonly string[] } = { userId: null, approvers: [] },
  isExpired = false,
  type: ProjectType = "web",
): ProjectAbilities {
  const access = readOnlyAccess(heldAccess, isExpired);
  const actor: PolicyActor = { userId: viewer.userId, access, isGuest: false };
  return {
    read: can(access, "projects.read"),
    update: can(access, "projects.update"),
    archive: can(heldAccess, "projects.archive"),
    delete: can(heldAccess, "projects.delete"),
    addPages: can(access, "pages.create"),
    updatePages: can(access, "pages.update"),
    deletePages: can(access, "pages.delete"),
    manageMembers: canMember(actor, "members.add"),
    transfer: canMember(actor, "projects.transfer"),
    moveToTeam: can(access, "projects.move"),
    manageApprovers: canMember(actor, "approvers.manage", projectTarget({ type })),
    approvePages: canApprovePage(access, viewer.userId, viewer.approvers, isExpired),
    comment: canComment(actor, "comments.create"),
    attachFiles: canComment(actor, "comments.attach"),
    suggestEdits: canInspect(actor, "inspect.create"),
  };
}
