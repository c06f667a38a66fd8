/** A version over HTTP: read it and where its content loads; rename and delete are operations (versions.operations.ts). */
import {
  dataAnswer,
  updateVersionSchema,
  type VersionView,
  versionSchema,
  versionViewSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { contentUrls } from "../content/content.urls.ts";
import { loadPagesWithVersions, loadVersion } from "../project-access/projects.load.ts";
import { authorize } from "../project-access/projects.policy.ts";
import { presentPage, presentVersion } from "../projects/projects.presenter.ts";
import { deleteVersion, renameVersion, versionParams } from "./versions.operations.ts";

const params = versionParams;

export async function versionsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/versions/:versionId",
    route({
      summary: "A version and its capture status",
      action: "projects.read",
      response: dataAnswer(versionSchema),
    }),
    async (request) => {
      const actor = await requireActor(request);
      const { version, access } = await loadVersion(db, actor, params.parse(request.params).versionId);
      authorize(access, "projects.read");
      return { data: presentVersion(version) };
    },
  );

  app.get(
    "/api/versions/:versionId/view",
    route({
      summary: "Where to load the version's content (signed URLs)",
      action: "projects.read",
      response: dataAnswer(versionViewSchema),
    }),
    async (request): Promise<{ data: VersionView }> => {
      const actor = await requireActor(request);
      const { version, page, access } = await loadVersion(db, actor, params.parse(request.params).versionId);
      authorize(access, "projects.read");
      const { versionRows } = await loadPagesWithVersions(db, page.projectId);
      return {
        data: {
          version: presentVersion(version),
          page: presentPage(page, versionRows),
          ...contentUrls(ctx.config, version),
        },
      };
    },
  );

  app.patch(
    "/api/versions/:versionId",
    route({
      summary: "Rename a version",
      body: updateVersionSchema,
      action: "versions.update",
      response: dataAnswer(versionSchema),
    }),
    async (request) => renameVersion(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/versions/:versionId",
    route({
      summary: "Delete a version",
      action: "versions.delete",
      // Where the reader goes next: the page the version belonged to.
      response: dataAnswer(z.strictObject({ projectId: z.string(), pageId: z.string() })),
    }),
    async (request) =>
      deleteVersion({ ...ctx, log: request.log }, await requireActor(request), requestInput(request)),
  );
}
