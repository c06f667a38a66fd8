/**
 * The writes of a project itself (lib/operations.ts, ADR 0033): create, update (rename, archive, reorder,
 * move into or out of a team), delete and set its thumbnail. Each authorizes through projects.policy.ts and
 * announces the change in its transaction; deleting releases the project's stored files after the commit.
 */
import {
  canAddProject,
  creatableTypes,
  createProjectSchema,
  DEFAULT_PROJECT_TITLE,
  effectiveLimits,
  PROJECT_MESSAGES,
  photoUploadSchema,
  productOf,
  projectExpiresAt,
  projectTypesOf,
  TEAM_PROJECT_MESSAGES,
  updateProjectSchema,
  WEB_APP_MESSAGE,
} from "@redline/shared";
import { and, count, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { pages, projectCollaborators, projects, users } from "../../db/schema/index.ts";
import { BadRequestError, PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { toJpeg } from "../../lib/images.ts";
import { record } from "../../lib/ledger.ts";
import { type LoggedContext, operation, withParams } from "../../lib/operations.ts";
import { announceChanged, revokeRoom } from "../../lib/realtime.ts";
import { removeReplaced } from "../../lib/storage/storage.ts";
import type { Actor } from "../auth/session.ts";
import { OWNED_BY_WORK, releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { entitlementsFor, limitsFor } from "../plans/plans.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorize } from "../project-access/projects.policy.ts";
import { teamForProject } from "../project-access/team-access.ts";
import { presentProject } from "./projects.presenter.ts";

export const projectParams = z.object({ projectId: z.string().min(1).max(64) });

export const createProject = operation(
  "projects.create",
  createProjectSchema,
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { plansEnabled } = ctx.config;
    if (creatableTypes([input.type]).length === 0)
      throw new BadRequestError(
        "Illustration projects cannot be created yet: the slide editor is not part of this version.",
        "project-type-unavailable",
      );
    const now = new Date();
    const product = productOf(input.type);
    // The owner's projects of this product are counted under a lock on their user row, so two
    // creations at once cannot both take the last place (SPEC §9 plan limits; a demo does not count).
    const { project, limits, team } = await db.transaction(async (tx) => {
      const [owner] = await tx.select().from(users).where(eq(users.id, actor.user.id)).for("update");
      // The team is read in the creating transaction, sharing its rows: a member removed meanwhile
      // cannot add to it (SPEC §4 team projects).
      const team = input.teamId ? await teamForProject(tx, actor.user.id, input.teamId, product) : null;
      // SPEC §6: web app support is a plan feature (its projects are added from the browser extension).
      if (input.type === "webapp" && !entitlementsFor(owner ?? actor.user, "web", plansEnabled).webApp)
        throw new PlanLimitError("web-app", WEB_APP_MESSAGE, { kind: "feature", product: "web", limit: 0 });
      const limits = limitsFor(owner ?? actor.user, plansEnabled);
      const limit = limits[product].projects;
      const [{ owned } = { owned: 0 }] = await tx
        .select({ owned: count() })
        .from(projects)
        .where(
          and(
            eq(projects.ownerId, actor.user.id),
            inArray(projects.type, projectTypesOf(product)),
            ne(projects.type, "demo"),
          ),
        );
      if (!canAddProject(limit, owned))
        throw new PlanLimitError(
          "project-limit",
          `Your plan allows ${limit} ${product === "browse" ? "bug-tracking" : "website"} project${limit === 1 ? "" : "s"}. Upgrade to add more.`,
          { kind: "projects", product, limit },
        );
      const [created] = await tx
        .insert(projects)
        .values({
          id: newId(),
          title: input.title || DEFAULT_PROJECT_TITLE,
          type: input.type,
          ownerId: actor.user.id,
          teamId: team?.id ?? null,
          createdAt: now,
          modifiedAt: now,
          expiresAt: projectExpiresAt(input.type, now, limits[product].projects),
        })
        .returning();
      await record(tx, {
        type: "project.created",
        projectId: created!.id,
        projectType: input.type,
        actor: { userId: actor.user.id },
      });
      return { project: created!, limits, team };
    });
    return {
      data: presentProject(project, "owner", {
        pageCount: 0,
        ownerLimits: limits,
        viewerId: actor.user.id,
        team,
      }),
      message: PROJECT_MESSAGES.created,
    };
  },
);

export const updateProject = operation(
  "projects.update",
  withParams(projectParams, updateProjectSchema),
  async (ctx, actor: Actor, { projectId, ...input }) => {
    const { db } = ctx.database;
    const loaded = await loadProject(db, actor, projectId);
    const { project, access, heldAccess, ownerLimits } = loaded;
    // Archiving stays open to the owner of an expired (read-only) project; renaming does not.
    if (input.isArchived === undefined) authorize(access, "projects.update");
    else authorize(heldAccess, "projects.archive");
    // Where the project belongs is its owner's choice (ADR 0012), like handing it over.
    if (input.teamId !== undefined) authorize(access, "projects.move");
    const { updated, team } = await db.transaction(async (tx) => {
      const team =
        input.teamId === undefined
          ? loaded.team
          : input.teamId === null
            ? null
            : await teamForProject(tx, actor.user.id, input.teamId, productOf(project.type));
      const [updated] = await tx
        .update(projects)
        .set({
          ...(input.title !== undefined && { title: input.title || DEFAULT_PROJECT_TITLE }),
          ...(input.isArchived !== undefined && { isArchived: input.isArchived }),
          ...(input.isPluginDisabled !== undefined && { isPluginDisabled: input.isPluginDisabled }),
          ...(input.sortOrder !== undefined && { sortOrder: input.sortOrder }),
          ...(input.teamId !== undefined && { teamId: team?.id ?? null }),
          modifiedAt: new Date(),
        })
        .where(eq(projects.id, project.id))
        .returning();
      // Leaving a team (or changing it) takes that team's collaborators out of the project.
      if (input.teamId !== undefined && team?.id !== project.teamId)
        await tx.delete(projectCollaborators).where(eq(projectCollaborators.projectId, project.id));
      await announceChanged(tx, `project:${project.id}`);
      return { updated: updated!, team };
    });
    const [{ pageCount } = { pageCount: 0 }] = await db
      .select({ pageCount: count() })
      .from(pages)
      .where(eq(pages.projectId, project.id));
    return {
      data: presentProject(updated, heldAccess!, {
        pageCount,
        ownerLimits: effectiveLimits(ownerLimits, ctx.config.plansEnabled),
        viewerId: actor.user.id,
        team,
      }),
      ...(input.teamId !== undefined && {
        message: team ? TEAM_PROJECT_MESSAGES.moved : TEAM_PROJECT_MESSAGES.leftTeam,
      }),
    };
  },
);

export const deleteProject = operation(
  "projects.delete",
  projectParams,
  async (ctx: LoggedContext, actor: Actor, { projectId }) => {
    const { db } = ctx.database;
    const { project, heldAccess } = await loadProject(db, actor, projectId);
    // An expired (read-only) project can still be deleted by its owner, to make room.
    authorize(heldAccess, "projects.delete");
    const files = await db.transaction(async (tx) => {
      const released = await releaseFilesOf(tx, [{ kinds: OWNED_BY_WORK, projectId: project.id }], () =>
        tx.delete(projects).where(eq(projects.id, project.id)),
      );
      await revokeRoom(tx, `project:${project.id}`, null);
      return released;
    });
    await removeReleasedFiles(ctx, files, ctx.log);
    return { message: PROJECT_MESSAGES.deleted };
  },
);

export const setProjectThumbnail = operation(
  "projects.thumbnail",
  withParams(projectParams, photoUploadSchema),
  async (ctx, actor: Actor, { projectId, dataUrl }) => {
    const { db } = ctx.database;
    const { project, access } = await loadProject(db, actor, projectId);
    authorize(access, "projects.update");
    const { jpeg, hash } = await toJpeg(
      Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"),
      "thumbnail",
    );
    const key = `thumbnails/${project.id}/${hash}.jpg`;
    await ctx.storage.put(key, jpeg);
    const replaced = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ old: projects.thumbnailKey })
        .from(projects)
        .where(eq(projects.id, project.id))
        .for("update");
      await tx
        .update(projects)
        .set({ thumbnailKey: key, modifiedAt: new Date() })
        .where(eq(projects.id, project.id));
      await announceChanged(tx, `project:${project.id}`);
      return row?.old ?? null;
    });
    await removeReplaced(ctx.storage, replaced, key);
    return { data: { thumbnail: `/files/${key}` }, message: PROJECT_MESSAGES.thumbnailUpdated };
  },
);
