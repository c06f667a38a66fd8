import {
  type Access,
  isProjectExpired,
  type Limits,
  type Page,
  type ProjectSummary,
  pageLimitFor,
  pagesLeft,
  productOf,
  UNLIMITED,
  type Version,
} from "@redline/shared";
import type { PageRow, ProjectRow, VersionRow } from "../../db/schema/index.ts";
import { projectAbilities } from "./projects.policy.ts";

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
