import {
  canAddProject,
  creatableTypes,
  createProjectSchema,
  DEFAULT_PROJECT_TITLE,
  effectiveLimits,
  MAX_UPLOAD_BYTES,
  normalizeSharing,
  PROJECT_MESSAGES,
  type ProjectDetail,
  photoUploadSchema,
  productOf,
  projectExpiresAt,
  projectListQuerySchema,
  projectTypesOf,
  TEAM_PROJECT_MESSAGES,
  updateProjectSchema,
  WEB_APP_MESSAGE,
} from "@redline/shared";
import { and, count, eq, inArray, ne } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pages, projectCollaborators, projects, users } from "../../db/schema/index.ts";
import { BadRequestError, PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { toJpeg } from "../../lib/images.ts";
import { announceChanged, revokeRoom } from "../../lib/realtime.ts";
import { route } from "../../lib/routes.ts";
import { removeReplaced } from "../../lib/storage/storage.ts";
import { requireActor } from "../auth/session.ts";
import { OWNED_BY_WORK, releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { entitlementsFor, limitsFor } from "../plans/plans.ts";
import {
  guestsReadOnlyOf,
  listProjectRows,
  loadProject,
  ownerLimitsOf,
} from "../project-access/projects.load.ts";
import { authorize, projectAccess, servedSharing } from "../project-access/projects.policy.ts";
import { loadProjectDetail } from "../project-access/read-access.load.ts";
import { cachedAnswer, startReadCaches, tagsOfProject, untilOf } from "../project-access/read-cache.ts";
import { projectTeamOf, teamForProject, teamRoleOf } from "../project-access/team-access.ts";
import { presentPage, presentProject } from "./projects.presenter.ts";

const params = z.object({ projectId: z.string().min(1).max(64) });
/** What Fastify answers an object with: a kept answer is sent as the same bytes. */
const JSON_TYPE = "application/json; charset=utf-8";

export async function projectsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, storage } = ctx;
  const { db } = ctx.database;
  const { plansEnabled } = ctx.config;
  startReadCaches(app, db);

  app.get(
    "/api/projects",
    route({ summary: "List projects", query: projectListQuerySchema, action: "self" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const query = projectListQuerySchema.parse(request.query);
      const userId = actor.user.id;
      // Kept per reader and query (read-cache.ts), except a team's list: a project added to the team is
      // announced to nobody's list.
      const answer = await cachedAnswer(
        db,
        `list\u0000${userId}\u0000${JSON.stringify(query)}`,
        () => listProjectRows(db, userId, query),
        (rows) =>
          query.teamId
            ? null
            : {
                tags: [
                  ...new Set([
                    `user:${userId}`,
                    ...rows.flatMap((row) => tagsOfProject(row.project, userId)),
                  ]),
                ],
                until: rows.reduce(
                  (until, row) => Math.min(until, untilOf(row.project)),
                  Number.POSITIVE_INFINITY,
                ),
              },
        (rows) => ({
          data: rows.map((row) =>
            presentProject(
              row.project,
              projectAccess(userId, {
                ownerId: row.project.ownerId,
                memberAccess: row.memberAccess,
                teamRole: teamRoleOf(row, userId),
              })!,
              {
                team: projectTeamOf(row),
                pageCount: row.pageCount ?? 0,
                ownerLimits: effectiveLimits(ownerLimitsOf(row), plansEnabled),
                firstPageThumbnail: row.firstPageThumbnail,
                viewerId: userId,
              },
            ),
          ),
        }),
      );
      return reply.type(JSON_TYPE).send(answer);
    },
  );

  app.post(
    "/api/projects",
    route({ summary: "Create a project", body: createProjectSchema, action: "self" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const input = createProjectSchema.parse(request.body);
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
        return { project: created!, limits, team };
      });
      reply.status(201);
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

  app.get(
    "/api/projects/:projectId",
    route({ summary: "A project with its pages and versions", action: "projects.read" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const projectId = params.parse(request.params).projectId;
      const answer = await cachedAnswer(
        db,
        `detail\u0000${actor.user.id}\u0000${projectId}`,
        async () => {
          const loaded = await loadProjectDetail(db, actor, projectId);
          authorize(loaded.access, "projects.read");
          return loaded;
        },
        (loaded) => ({ tags: tagsOfProject(loaded.project, actor.user.id), until: untilOf(loaded.project) }),
        (loaded) => {
          const { project, heldAccess, ownerLimits, team, pageRows, versionRows } = loaded;
          return {
            data: {
              ...presentProject(project, heldAccess!, {
                pageCount: pageRows.length,
                ownerLimits: effectiveLimits(ownerLimits, plansEnabled),
                firstPageThumbnail: pageRows.find((page) => page.thumbnailKey)?.thumbnailKey,
                viewerId: actor.user.id,
                team,
              }),
              pages: pageRows.map((page) => presentPage(page, versionRows)),
              // "Allow comments" as guests get it (a free owner's link is view only), not as stored.
              sharing: servedSharing(
                normalizeSharing(project.sharing),
                guestsReadOnlyOf(loaded, plansEnabled),
              ),
              approvers: project.approvers,
            } satisfies ProjectDetail,
          };
        },
      );
      return reply.type(JSON_TYPE).send(answer);
    },
  );

  app.patch(
    "/api/projects/:projectId",
    route({
      summary: "Rename, archive, reorder or move a project into or out of a team",
      body: updateProjectSchema,
      action: "projects.update",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const loaded = await loadProject(db, actor, params.parse(request.params).projectId);
      const { project, access, heldAccess, ownerLimits } = loaded;
      const input = updateProjectSchema.parse(request.body);
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
          ownerLimits: effectiveLimits(ownerLimits, plansEnabled),
          viewerId: actor.user.id,
          team,
        }),
        ...(input.teamId !== undefined && {
          message: team ? TEAM_PROJECT_MESSAGES.moved : TEAM_PROJECT_MESSAGES.leftTeam,
        }),
      };
    },
  );

  app.delete(
    "/api/projects/:projectId",
    route({ summary: "Delete a project (owner)", action: "projects.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { project, heldAccess } = await loadProject(db, actor, params.parse(request.params).projectId);
      // An expired (read-only) project can still be deleted by its owner, to make room.
      authorize(heldAccess, "projects.delete");
      const files = await db.transaction(async (tx) => {
        const released = await releaseFilesOf(tx, [{ kinds: OWNED_BY_WORK, projectId: project.id }], () =>
          tx.delete(projects).where(eq(projects.id, project.id)),
        );
        await revokeRoom(tx, `project:${project.id}`, null);
        return released;
      });
      await removeReleasedFiles(ctx, files, request.log);
      return { message: PROJECT_MESSAGES.deleted };
    },
  );

  app.post(
    "/api/projects/:projectId/thumbnail",
    route(
      { summary: "Set the project thumbnail", body: photoUploadSchema, action: "projects.update" },
      { bodyLimit: Math.ceil(MAX_UPLOAD_BYTES * 1.4) + 1024 },
    ),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { project, access } = await loadProject(db, actor, params.parse(request.params).projectId);
      authorize(access, "projects.update");
      const { dataUrl } = photoUploadSchema.parse(request.body);
      const { jpeg, hash } = await toJpeg(
        Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"),
        "thumbnail",
      );
      const key = `thumbnails/${project.id}/${hash}.jpg`;
      await storage.put(key, jpeg);
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
}
