/**
 * The hot reads' loaders, one prepared query each: a version's project with the actor's access (the
 * comment list needs nothing more), and a project with the actor's access, its pages and their versions
 * (GET /api/projects/{id}). Access is computed from the row exactly as `loadProject` does
 * (`loadedProjectOf`); a missing version or project is the same 404 as there.
 */
import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import {
  type PageRow,
  pages,
  projectCollaborators,
  projectMembers,
  projects,
  teamMembers,
  teams,
  users,
  versions,
} from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Actor } from "../auth/session.ts";
import {
  type CountedVersionRow,
  type LoadedProject,
  loadedProjectOf,
  ownerPlanColumns,
} from "./projects.load.ts";
import { teamJoins, teamRelationColumns } from "./team-access.ts";

/** The project's row, the actor's member entry, the owner's plan and the team relation (see loadProject). */
const accessColumns = {
  project: projects,
  memberAccess: projectMembers.access,
  ...ownerPlanColumns,
  ...teamRelationColumns,
};

/** A version (its id and project) and the actor's access to that project, in one query. */
export async function loadVersionAccess(
  db: Database,
  actor: Actor | null,
  versionId: string,
): Promise<{ version: { id: string; projectId: string } } & LoadedProject> {
  const userId = actor?.user.id ?? null;
  const [row] = await prepared(db, "load_version_access", () => {
    const joins = teamJoins(sql.placeholder("userId"));
    return db
      .select({ versionId: versions.id, ...accessColumns })
      .from(versions)
      .innerJoin(projects, eq(projects.id, versions.projectId))
      .leftJoin(users, eq(users.id, projects.ownerId))
      .leftJoin(
        projectMembers,
        and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, sql.placeholder("userId"))),
      )
      .leftJoin(teams, joins.team)
      .leftJoin(teamMembers, joins.member)
      .leftJoin(projectCollaborators, joins.collaborator)
      .where(eq(versions.id, sql.placeholder("versionId")))
      .prepare("load_version_access");
  }).execute({ userId: userId ?? "", versionId });
  if (!row) throw new NotFoundError("Version not found.", "version-not-found");
  return { version: { id: row.versionId, projectId: row.project.id }, ...loadedProjectOf(row, userId) };
}

/** The version columns a project's page list shows, with its numbers of comments and suggested edits. */
const countedVersion = {
  ...getTableColumns(versions),
  commentCount: sql<number>`(select count(*) from "comments" where "comments"."version_id" = "versions"."id")::int`,
  suggestionCount: sql<number>`(select count(*) from "inspect_changes" where "inspect_changes"."version_id" = "versions"."id")::int`,
};

/**
 * A project with the actor's access, its pages (in the list's order) and every version of them, in one
 * query: one row per version (a page without versions still has its row). Read before authorizing, like
 * any load; nothing of it is shown unless the policy allows.
 */
export async function loadProjectDetail(
  db: Database,
  actor: Actor | null,
  projectId: string,
): Promise<LoadedProject & { pageRows: PageRow[]; versionRows: CountedVersionRow[] }> {
  const userId = actor?.user.id ?? null;
  const rows = await prepared(db, "load_project_detail", () => {
    const joins = teamJoins(sql.placeholder("userId"));
    return db
      .select({ ...accessColumns, page: pages, version: countedVersion })
      .from(projects)
      .leftJoin(users, eq(users.id, projects.ownerId))
      .leftJoin(
        projectMembers,
        and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, sql.placeholder("userId"))),
      )
      .leftJoin(teams, joins.team)
      .leftJoin(teamMembers, joins.member)
      .leftJoin(projectCollaborators, joins.collaborator)
      .leftJoin(pages, eq(pages.projectId, projects.id))
      .leftJoin(versions, eq(versions.pageId, pages.id))
      .where(eq(projects.id, sql.placeholder("projectId")))
      .orderBy(asc(pages.sortOrder), asc(pages.createdAt), asc(pages.id), asc(versions.number))
      .prepare("load_project_detail");
  }).execute({ userId: userId ?? "", projectId });
  const first = rows[0];
  if (!first) throw new NotFoundError("Project not found.", "project-not-found");
  const pageRows: PageRow[] = [];
  const versionRows: CountedVersionRow[] = [];
  for (const row of rows) {
    if (row.page && pageRows.at(-1)?.id !== row.page.id) pageRows.push(row.page);
    // A page without versions: the counts are still numbers, the version's own columns null.
    if (row.version?.id) versionRows.push(row.version);
  }
  return { ...loadedProjectOf(first, userId), pageRows, versionRows };
}
