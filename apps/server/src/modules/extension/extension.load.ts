/** The extension's reads: the projects it is offered, and the open threads on a page's address. */
import type { ExtensionProject, ExtensionThread } from "@redline/shared";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { commentEntries, comments, pages, projects, versions } from "../../db/schema/index.ts";
import { listProjectRows, loadedProjectOf } from "../project-access/projects.load.ts";
import { can } from "../project-access/projects.policy.ts";
import { offersExtension, pageUrlVariants } from "./extension.rules.ts";

const MAX_THREADS = 50;
/** The list the extension reads: every project of the person, every team's included. */
const EXTENSION_LIST = { list: "all", sort: "modifiedAt", everyTeam: true } as const;

/**
 * The person's projects that take pages from the extension — every one they may edit (SPEC §6), their
 * teams' included: the project list's query over every team, then the projects policy.
 */
export async function extensionProjects(db: Database, userId: string): Promise<ExtensionProject[]> {
  const rows = await listProjectRows(db, userId, EXTENSION_LIST);
  const offered = rows
    .map((row) => loadedProjectOf(row, userId))
    .filter(
      (loaded) => can(loaded.access, "pages.create") && offersExtension({ ...loaded.project, ...loaded }),
    )
    .map((loaded) => loaded.project);
  if (offered.length === 0) return [];
  const pageRows = await db
    .select({ id: pages.id, projectId: pages.projectId, title: pages.title, url: pages.url })
    .from(pages)
    .where(
      and(
        inArray(
          pages.projectId,
          offered.map((project) => project.id),
        ),
        eq(pages.isArchived, false),
      ),
    )
    .orderBy(asc(pages.sortOrder), asc(pages.createdAt));
  return offered.map((project) => ({
    id: project.id,
    title: project.title,
    type: project.type,
    pages: pageRows
      .filter((page) => page.projectId === project.id && /^https?:/.test(page.url))
      .map(({ id, title, url }) => ({ id, title, url })),
  }));
}

/** Unresolved threads on the latest version of the person's pages at this address (the badge's count). */
export async function openThreadsAt(db: Database, userId: string, url: string): Promise<ExtensionThread[]> {
  const variants = pageUrlVariants(url);
  if (variants.length === 0) return [];
  const rows = await listProjectRows(db, userId, EXTENSION_LIST);
  const projectIds = rows.map((row) => row.project.id);
  if (projectIds.length === 0) return [];
  const latest = sql`(select ${versions.id} from ${versions} where ${versions.pageId} = ${pages.id} order by ${versions.number} desc limit 1)`;
  const found = await db
    .select({
      id: comments.id,
      projectId: comments.projectId,
      pageId: comments.pageId,
      versionId: comments.versionId,
      projectTitle: projects.title,
      pageTitle: pages.title,
      text: sql<string>`coalesce((select ${commentEntries.body} from ${commentEntries} where ${commentEntries.commentId} = ${comments.id} order by ${commentEntries.createdAt} limit 1), '')`,
    })
    .from(comments)
    .innerJoin(pages, eq(pages.id, comments.pageId))
    .innerJoin(projects, eq(projects.id, comments.projectId))
    .where(
      and(
        inArray(comments.projectId, projectIds),
        inArray(pages.url, variants),
        eq(pages.isArchived, false),
        eq(comments.isResolved, false),
        eq(comments.versionId, latest),
      ),
    )
    .orderBy(desc(comments.createdAt))
    .limit(MAX_THREADS);
  return found.map((row) => ({
    id: row.id,
    text: row.text.slice(0, 200),
    projectTitle: row.projectTitle,
    pageTitle: row.pageTitle,
    path: `/project/${row.projectId}/${row.pageId}/${row.versionId}/comment?id=${encodeURIComponent(row.id)}`,
  }));
}
