/**
 * The public share link (SPEC §2 /share, /embed, /preview): its settings, what a visitor without an
 * account may read through it, and joining it as a signed-in visitor (added with comment access).
 */
import {
  ACCESSES,
  type Access,
  dataAnswer,
  projectSharingSchema,
  sharedProjectSchema,
  sharingUpdateSchema,
  type VersionView,
  versionViewSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { THROUGH_THE_LINK } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { contentUrls } from "../content/content.urls.ts";
import { loadPagesWithVersions } from "../project-access/projects.load.ts";
import { servedSharing } from "../project-access/projects.policy.ts";
import { presentPage, presentVersion } from "../projects/projects.presenter.ts";
import { loadShared, projectParams, visibleThroughLink } from "./sharing.load.ts";
import { joinSharedProject, updateSharing } from "./sharing.operations.ts";

const versionParams = projectParams.extend({ versionId: z.string().min(1).max(64) });

export async function sharingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.patch(
    "/api/projects/:projectId/sharing",
    route({
      summary: "Public link settings",
      body: sharingUpdateSchema,
      action: "sharing.update",
      response: dataAnswer(projectSharingSchema),
    }),
    async (request) => updateSharing(ctx, await requireActor(request), requestInput(request)),
  );

  app.get(
    "/api/share/:projectId",
    route({
      summary: "A project through its public link",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(sharedProjectSchema),
    }),
    async (request) => {
      const { project, sharing, access } = await loadShared(
        ctx,
        projectParams.parse(request.params).projectId,
      );
      const { pageRows, versionRows } = await loadPagesWithVersions(db, project.id);
      const visible = visibleThroughLink(sharing, pageRows, versionRows);
      return {
        data: {
          id: project.id,
          title: project.title,
          type: project.type,
          access: access satisfies Access,
          sharing: servedSharing(sharing, access === "view"),
          pages: visible.pages.map((page) => presentPage(page, visible.versions)),
        },
      };
    },
  );

  app.get(
    "/api/share/:projectId/versions/:versionId/view",
    route({
      summary: "A version through the public link",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(versionViewSchema),
    }),
    async (request): Promise<{ data: VersionView }> => {
      const { projectId, versionId } = versionParams.parse(request.params);
      const { project, sharing } = await loadShared(ctx, projectId);
      const { pageRows, versionRows } = await loadPagesWithVersions(db, project.id);
      const visible = visibleThroughLink(sharing, pageRows, versionRows);
      const version = visible.versions.find((v) => v.id === versionId);
      const page = version && visible.pages.find((p) => p.id === version.pageId);
      if (!version || !page) throw new NotFoundError("Page does not exist.", "page-not-found");
      return {
        data: {
          version: presentVersion(version),
          page: presentPage(page, visible.versions),
          ...contentUrls(ctx.config, version, { embeddable: true }),
        },
      };
    },
  );

  app.post(
    "/api/share/:projectId/join",
    route({
      summary: "Join a project from its link (signed in)",
      action: "self",
      response: dataAnswer(z.strictObject({ access: z.enum(ACCESSES) })),
    }),
    async (request) => joinSharedProject(ctx, await requireActor(request), requestInput(request)),
  );
}
