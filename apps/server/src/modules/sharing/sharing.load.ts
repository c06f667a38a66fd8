/**
 * A project as its public link shows it: `loadShared` (404 when the link is off, the project archived or
 * missing), what the link shows (`visibleThroughLink`) and a link guest as the policy sees them
 * (`linkGuestView`, asked by the guest routes of comments and slides and the guest socket).
 */

import { normalizeSharing, type ProjectSharing, SHARING_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type PageRow, projects, type VersionRow } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { LINK_VISITOR, policyActorOf } from "../../lib/policy.ts";
import { guestsReadOnly, loadPagesWithVersions } from "../project-access/projects.load.ts";
import { guestAccess } from "../project-access/projects.policy.ts";

export const projectParams = z.object({ projectId: z.string().min(1).max(64) });

/** A project as its public link shows it, or 404 when the link is off, the project archived or missing. */
export async function loadShared(ctx: AppContext, projectId: string) {
  const { db } = ctx.database;
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  const sharing = normalizeSharing(project?.sharing);
  const access = guestAccess(
    project ? sharing : null,
    project ? await guestsReadOnly(db, project, ctx.config.plansEnabled) : false,
  );
  if (!project || !access || project.isArchived) {
    throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  }
  return { project, sharing, access };
}

/** What the link shows: every page or only the first; every version or only each page's latest. */
export function visibleThroughLink(sharing: ProjectSharing, pageRows: PageRow[], versionRows: VersionRow[]) {
  const live = pageRows.filter((page) => !page.isArchived);
  const shownPages = sharing.showAllPages ? live : live.slice(0, 1);
  const shownVersions = versionRows.filter((version) => {
    if (!shownPages.some((page) => page.id === version.pageId)) return false;
    if (sharing.showPageVersions) return true;
    const latest = Math.max(...versionRows.filter((v) => v.pageId === version.pageId).map((v) => v.number));
    return version.number === latest;
  });
  return { pages: shownPages, versions: shownVersions };
}

/**
 * What a guest of the public link sees of a project right now: the guest as a policy actor (the link's
 * access) and the versions the link shows; null when the project is gone or archived or its link is off.
 * The guest routes and operations and the guest socket's comment events (comments.guest.realtime.ts) ask this.
 */
export async function linkGuestView(db: Database, plansEnabled: boolean, projectId: string) {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  if (!project || project.isArchived) return null;
  const sharing = normalizeSharing(project.sharing);
  if (!guestAccess(sharing)) return null;
  const access = guestAccess(sharing, await guestsReadOnly(db, project, plansEnabled));
  if (!access) return null;
  const { pageRows, versionRows } = await loadPagesWithVersions(db, project.id);
  const guest = policyActorOf(LINK_VISITOR, access);
  return { project, guest, versions: visibleThroughLink(sharing, pageRows, versionRows).versions };
}
