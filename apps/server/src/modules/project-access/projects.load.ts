import {
  type Access,
  isProjectExpired,
  type Limits,
  type MemberAccess,
  type ProjectListQuery,
  productOf,
  projectTypesOf,
  resolvePlan,
} from "@redline/shared";
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNotNull,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import {
  type PageRow,
  type ProjectRow,
  pages,
  projectCollaborators,
  projectMembers,
  projects,
  teamMembers,
  teams,
  type UserRow,
  users,
  type VersionRow,
  versions,
} from "../../db/schema/index.ts";
import { together } from "../../db/together.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Actor } from "../auth/session.ts";
import { limitsFor, planSourcesOf } from "../plans/plans.ts";
import { projectAccess, readOnlyAccess } from "./projects.policy.ts";
import {
  projectTeamOf,
  type TeamRelationRow,
  teamJoins,
  teamRelationColumns,
  teamRoleOf,
} from "./team-access.ts";

/** The owner's stored limits and what can give them a plan, read with the project. */
export const ownerPlanColumns = {
  ownerLimits: users.limits,
  ownerPrivilege: users.privilege,
  ownerPrivilegeUntil: users.privilegeUntil,
  ownerLifetimeDeal: users.lifetimeDeal,
  ownerPartnerPlan: users.partnerPlan,
  ownerHeldSubscriptions: users.heldSubscriptions,
};

/** The project and page limits the owner's plans give (with plans on; routes apply PLANS_ENABLED). */
export function ownerLimitsOf(row: {
  ownerLimits: Limits | null;
  ownerPrivilege: string | null;
  ownerPrivilegeUntil: Date | null;
  ownerLifetimeDeal: UserRow["lifetimeDeal"];
  ownerPartnerPlan: string | null;
  ownerHeldSubscriptions: UserRow["heldSubscriptions"] | null;
}): Limits {
  return limitsFor({
    limits: row.ownerLimits,
    privilege: row.ownerPrivilege,
    privilegeUntil: row.ownerPrivilegeUntil,
    lifetimeDeal: row.ownerLifetimeDeal,
    partnerPlan: row.ownerPartnerPlan,
    heldSubscriptions: row.ownerHeldSubscriptions,
  });
}

export interface LoadedProject {
  project: ProjectRow;
  /** What the actor may do now: a viewer's access on an expired project (SPEC §4: read-only). */
  access: Access | null;
  /** The actor's own access, expiry aside: its owner may still archive or delete an expired project. */
  heldAccess: Access | null;
  isExpired: boolean;
  /** The owner's plan limits (the project's page limit derives from them), read in the same query. */
  ownerLimits: Limits | null;
  /** The team the project belongs to, if any. */
  team: { id: string; name: string } | null;
  /** Whether the owner's plan includes guest commenting (SPEC §6), plans on; routes apply PLANS_ENABLED. */
  ownerGuestCommenting: boolean;
}

/** Loads a project and the actor's access to it; a missing project is a 404 like an inaccessible one. */
export async function loadProject(
  db: Database,
  actor: Pick<Actor, "user"> | null,
  projectId: string,
): Promise<LoadedProject> {
  const userId = actor?.user.id ?? null;
  const [row] = await prepared(db, "load_project", () => {
    const joins = teamJoins(sql.placeholder("userId"));
    return db
      .select({
        project: projects,
        memberAccess: projectMembers.access,
        ...ownerPlanColumns,
        ...teamRelationColumns,
      })
      .from(projects)
      .leftJoin(users, eq(users.id, projects.ownerId))
      .leftJoin(
        projectMembers,
        and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, sql.placeholder("userId"))),
      )
      .leftJoin(teams, joins.team)
      .leftJoin(teamMembers, joins.member)
      .leftJoin(projectCollaborators, joins.collaborator)
      .where(eq(projects.id, sql.placeholder("projectId")))
      .prepare("load_project");
  }).execute({ userId: userId ?? "", projectId });
  if (!row) throw new NotFoundError("Project not found.", "project-not-found");
  return loadedProjectOf(row, userId);
}

/** A project row read with `ownerPlanColumns`, its member entry and team relation → the actor's access. */
export function loadedProjectOf(
  row: TeamRelationRow &
    Parameters<typeof ownerLimitsOf>[0] & { project: ProjectRow; memberAccess: MemberAccess | null },
  userId: string | null,
): LoadedProject {
  const heldAccess = projectAccess(userId, {
    ownerId: row.project.ownerId,
    memberAccess: row.memberAccess,
    teamRole: teamRoleOf(row, userId),
  });
  const ownerLimits = ownerLimitsOf(row);
  const isExpired = isProjectExpired(
    row.project.expiresAt,
    ownerLimits[productOf(row.project.type)].projects,
  );
  return {
    project: row.project,
    access: readOnlyAccess(heldAccess, isExpired),
    heldAccess,
    isExpired,
    ownerLimits,
    team: projectTeamOf(row),
    ownerGuestCommenting:
      row.ownerLimits !== null &&
      resolvePlan(
        planSourcesOf({
          privilege: row.ownerPrivilege,
          privilegeUntil: row.ownerPrivilegeUntil,
          lifetimeDeal: row.ownerLifetimeDeal,
          partnerPlan: row.ownerPartnerPlan,
          heldSubscriptions: row.ownerHeldSubscriptions,
        }),
        productOf(row.project.type),
      ).entitlements.guestCommenting,
  };
}

export async function loadPage(db: Database, actor: Actor | null, pageId: string) {
  const [page] = await prepared(db, "load_page", () =>
    db
      .select()
      .from(pages)
      .where(eq(pages.id, sql.placeholder("pageId")))
      .prepare("load_page"),
  ).execute({ pageId });
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
  const statement = prepared(db, "load_version", () =>
    db
      .select(countedVersion)
      .from(versions)
      .where(eq(versions.id, sql.placeholder("versionId")))
      .prepare("load_version"),
  );
  return (await statement.execute({ versionId }))[0];
}

/** A page's versions with their counts, as the project lists them. */
export function loadCountedVersionsOfPage(db: Database, pageId: string): Promise<CountedVersionRow[]> {
  return db.select(countedVersion).from(versions).where(eq(versions.pageId, pageId));
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
  const [pageRows, versionRows] = await together(db, [
    () =>
      prepared(db, "project_pages", () =>
        db
          .select()
          .from(pages)
          .where(eq(pages.projectId, sql.placeholder("projectId")))
          .orderBy(pages.sortOrder, pages.createdAt)
          .prepare("project_pages"),
      ).execute({ projectId }),
    () =>
      prepared(db, "project_versions", () =>
        db
          .select(countedVersion)
          .from(versions)
          .where(eq(versions.projectId, sql.placeholder("projectId")))
          .prepare("project_versions"),
      ).execute({ projectId }),
  ]);
  return { pageRows, versionRows };
}

const WEB_TYPES = ["web", "webapp", "image", "demo"] as const;

/**
 * The project list's one query, prepared once per shape (list × sort × search or not) and database:
 * composing it costs more than running it. Page counts and the first page's thumbnail are read per listed
 * project (indexed by project), never by aggregating the whole pages table.
 */
function prepareListQuery(
  db: Database,
  { list, sort, q, product, everyTeam }: ProjectListRowsQuery,
  name: string,
) {
  const userId = sql.placeholder("userId");
  const joins = teamJoins(userId);
  // One's own and shared projects, the team projects one was toggled into as a collaborator, and the
  // active team's (or every team's) projects for its owner, managers and members.
  const filters: SQL[] = [
    or(
      eq(projects.ownerId, userId),
      eq(projectMembers.userId, userId),
      isNotNull(projectCollaborators.userId),
      and(
        everyTeam ? isNotNull(projects.teamId) : eq(projects.teamId, sql.placeholder("teamId")),
        or(eq(teams.ownerId, userId), inArray(teamMembers.access, ["manager", "member"])),
      ),
    )!,
  ];
  filters.push(eq(projects.isArchived, list === "archived"));
  if (list === "web") filters.push(inArray(projects.type, [...WEB_TYPES]));
  if (list === "illustration") filters.push(eq(projects.type, "illustration"));
  if (product) filters.push(inArray(projects.type, projectTypesOf(product)));
  if (q) filters.push(ilike(projects.title, sql.placeholder("pattern")));
  const order = {
    modifiedAt: desc(projects.modifiedAt),
    createdAt: desc(projects.createdAt),
    title: asc(projects.title),
    sortOrder: asc(projects.sortOrder),
  }[sort];
  return db
    .select({
      project: projects,
      memberAccess: projectMembers.access,
      ...teamRelationColumns,
      pageCount: sql<number>`(select count(*)::int from ${pages} where ${pages.projectId} = ${projects.id})`,
      ...ownerPlanColumns,
      firstPageThumbnail: sql<
        string | null
      >`(select ${pages.thumbnailKey} from ${pages} where ${pages.projectId} = ${projects.id} and ${pages.thumbnailKey} is not null order by ${pages.sortOrder}, ${pages.createdAt} limit 1)`,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, userId)),
    )
    .leftJoin(teams, joins.team)
    .leftJoin(teamMembers, joins.member)
    .leftJoin(projectCollaborators, joins.collaborator)
    .where(and(...filters))
    .orderBy(order, asc(projects.id))
    .prepare(name);
}

/**
 * The list's query, and for readers that are not one team's list (the browser extension): `everyTeam`
 * lists the projects of every team the user belongs to instead of the active team's.
 */
export type ProjectListRowsQuery = ProjectListQuery & { everyTeam?: boolean };

/** The projects the user owns, is a member of, or reaches through the active team, as the list shows them. */
export function listProjectRows(db: Database, userId: string, query: ProjectListRowsQuery) {
  const name = `project_list_${query.list}_${query.sort}_${query.q ? "q" : "all"}_${query.product ?? "any"}${query.everyTeam ? "_teams" : ""}`;
  return prepared(db, name, () => prepareListQuery(db, query, name)).execute({
    userId,
    teamId: query.teamId ?? "",
    ...(query.q && { pattern: `%${query.q.replace(/[%_\\]/g, "\\$&")}%` }),
  });
}

/**
 * Whether guests of a project's public link may only view it: the project has expired (SPEC §4), or its
 * owner's plan does not include guest commenting (SPEC §6; the demo always does). Pure, from a load.
 */
export function guestsReadOnlyOf(
  loaded: Pick<LoadedProject, "project" | "isExpired" | "ownerGuestCommenting">,
  plansEnabled: boolean,
): boolean {
  if (loaded.project.type === "demo") return false;
  return loaded.isExpired || (plansEnabled && !loaded.ownerGuestCommenting);
}

/** guestsReadOnlyOf for a project row alone: one query, by key. */
export async function guestsReadOnly(
  db: Database,
  project: ProjectRow,
  plansEnabled: boolean,
): Promise<boolean> {
  if (project.type === "demo") return false;
  const [owner] = await db.select().from(users).where(eq(users.id, project.ownerId));
  if (!owner) return true;
  const product = productOf(project.type);
  return guestsReadOnlyOf(
    {
      project,
      isExpired: isProjectExpired(project.expiresAt, limitsFor(owner)[product].projects),
      ownerGuestCommenting: resolvePlan(planSourcesOf(owner), product).entitlements.guestCommenting,
    },
    plansEnabled,
  );
}
