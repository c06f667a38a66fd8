import {
  createProjectSchema,
  dataAnswer,
  effectiveLimits,
  MAX_UPLOAD_BYTES,
  messageAnswer,
  normalizeSharing,
  type ProjectDetail,
  photoUploadSchema,
  projectDetailSchema,
  projectListQuerySchema,
  projectSummarySchema,
  updateProjectSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { guestsReadOnlyOf, listProjectRows, ownerLimitsOf } from "../project-access/projects.load.ts";
import { authorize, projectAccess, servedSharing } from "../project-access/projects.policy.ts";
import { loadProjectDetail } from "../project-access/read-access.load.ts";
import { cachedAnswer, startReadCaches, tagsOfProject, untilOf } from "../project-access/read-cache.ts";
import { projectTeamOf, teamRoleOf } from "../project-access/team-access.ts";
import {
  createProject,
  deleteProject,
  projectParams as params,
  setProjectThumbnail,
  updateProject,
} from "./projects.operations.ts";
import { presentPage, presentProject } from "./projects.presenter.ts";

/** What Fastify answers an object with: a kept answer is sent as the same bytes. */
const JSON_TYPE = "application/json; charset=utf-8";

export async function projectsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;
  const { plansEnabled } = ctx.config;
  startReadCaches(app, db);

  app.get(
    "/api/projects",
    route({
      summary: "List projects",
      query: projectListQuerySchema,
      action: "self",
      response: dataAnswer(z.array(projectSummarySchema)),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
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
    route({
      summary: "Create a project",
      body: createProjectSchema,
      action: "self",
      response: dataAnswer(projectSummarySchema),
    }),
    async (request, reply) => {
      const created = await createProject(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return created;
    },
  );

  app.get(
    "/api/projects/:projectId",
    route({
      summary: "A project with its pages and versions",
      action: "projects.read",
      response: dataAnswer(projectDetailSchema),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
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
      response: dataAnswer(projectSummarySchema),
    }),
    async (request) => updateProject(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/projects/:projectId",
    route({ summary: "Delete a project (owner)", action: "projects.delete", response: messageAnswer }),
    async (request) =>
      deleteProject({ ...ctx, log: request.log }, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/projects/:projectId/thumbnail",
    route(
      {
        summary: "Set the project thumbnail",
        body: photoUploadSchema,
        action: "projects.update",
        response: dataAnswer(z.strictObject({ thumbnail: z.string() })),
      },
      { bodyLimit: Math.ceil(MAX_UPLOAD_BYTES * 1.4) + 1024 },
    ),
    async (request) => setProjectThumbnail(ctx, await requireActor(request), requestInput(request)),
  );
}
