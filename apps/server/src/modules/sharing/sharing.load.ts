/** A project as its public link shows it, or 404 when the link is off, the project archived or missing. */
import { normalizeSharing, SHARING_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { projects } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { guestsReadOnly } from "../project-access/projects.load.ts";
import { guestAccess } from "../project-access/projects.policy.ts";

export const projectParams = z.object({ projectId: z.string().min(1).max(64) });

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
