import type { Access, Limits } from "@redline/shared";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  type PageRow,
  type ProjectRow,
  pages,
  projectMembers,
  projects,
  users,
  type VersionRow,
  versions,
} from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Actor } from "../auth/session.ts";
import { projectAccess } from "./projects.policy.ts";

export interface LoadedProject {
  project: ProjectRow;
  access: Access | null;
  /** The owner's plan limits (the project's page limit derives from them), read in the same query. */
  ownerLimits: Limits | null;
}

/** Loads a project and the actor's access to it; a missing project is a 404 like an inaccessible one. */
export async function loadProject(
  db: Database,
  actor: Actor | null,
  projectId: string,
): Promise<LoadedProject> {
  const userId = actor?.user.id ?? null;
  const [row] = await db
    .select({ project: projects, memberAccess: projectMembers.access, ownerLimits: users.limits })
    .from(projects)
    .leftJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, userId ?? "")),
    )
    .where(eq(projects.id, projectId));
  if (!row) throw new NotFoundError("Project not found.", "project-not-found");
  const access = projectAccess(userId, { ownerId: row.project.ownerId, memberAccess: row.memberAccess });
  return { project: row.project, access, ownerLimits: row.ownerLimits };
}

export async function loadPage(db: Database, actor: Actor | null, pageId: string) {
  const [page] = await db.select().from(pages).where(eq(pages.id, pageId));
  if (!page) throw new NotFoundError("Page does not exist.", "page-not-found");
  return { page, ...(await loadProject(db, actor, page.projectId)) };
}

/**
 * A version row with its numbers of comments and of suggested edits (SPEC §3 numberOfComments,
 * numberOfSuggestions), counted by the database.
 */
export type CountedVersionRow = VersionRow & { commentCount: number; suggestionCount: number };
const countedVersion = {
  ...getTableColumns(versions),
  // Written out qualified: Drizzle leaves column names bare in a one-table select, which would bind
  // "id" to comments.id inside the subquery.
  commentCount: sql<number>`(select count(*) from "comments" where "comments"."version_id" = "versions"."id")::int`,
  suggestionCount: sql<number>`(select count(*) from "inspect_changes" where "inspect_changes"."version_id" = "versions"."id")::int`,
};

export async function loadCountedVersion(
  db: Database,
  versionId: string,
): Promise<CountedVersionRow | undefined> {
  return (await db.select(countedVersion).from(versions).where(eq(versions.id, versionId)))[0];
}

export async function loadVersion(db: Database, actor: Actor | null, versionId: string) {
  const version = await loadCountedVersion(db, versionId);
  if (!version) throw new NotFoundError("Version not found.", "version-not-found");
  return { version, ...(await loadPage(db, actor, version.pageId)) };
}

export async function loadPagesWithVersions(
  db: Database,
  projectId: string,
): Promise<{ pageRows: PageRow[]; versionRows: CountedVersionRow[] }> {
  const [pageRows, versionRows] = await Promise.all([
    db.select().from(pages).where(eq(pages.projectId, projectId)).orderBy(pages.sortOrder, pages.createdAt),
    db.select(countedVersion).from(versions).where(eq(versions.projectId, projectId)),
  ]);
  return { pageRows, versionRows };
}
