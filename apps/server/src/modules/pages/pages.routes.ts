import { createHash } from "node:crypto";
import {
  addPageAnswerSchema,
  addPageSchema,
  COMMENT_MESSAGES,
  dataAnswer,
  effectiveLimits,
  isUpdatablePage,
  messageAnswer,
  PROJECT_MESSAGES,
  pageApprovalSchema,
  pageSchema,
  recaptureSchema,
  similarPagesQuerySchema,
  similarPagesSchema,
  updateAllPagesSchema,
  updatedPagesSchema,
  updatePageSchema,
  versionSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ProjectRow } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { readUpload, type Upload } from "../../lib/uploads.ts";
import { requireActor } from "../auth/session.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import {
  loadCountedVersion,
  loadPage,
  loadPagesWithVersions,
  loadProject,
} from "../project-access/projects.load.ts";
import { authorize } from "../project-access/projects.policy.ts";
import { presentPage, presentVersion } from "../projects/projects.presenter.ts";
import { enqueueCapture } from "../versions/capture-queue.ts";
import { addPage, addUploadedVersion, assertRoomForPage, recapture } from "./add-page.ts";
import { assertOffersExtension } from "./offers-extension.ts";
import { approvePage, deletePage, pageParams, updatePage } from "./pages.operations.ts";
import { findSimilarPages } from "./similar-pages.ts";
import { setPageThumbnail } from "./thumbnails.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });

/**
 * Upload bytes are stored by content hash, once the project owner's storage is known to have room for
 * them (checked again where the version is recorded); image pages get a 500×350 thumbnail.
 */
export async function storeUpload(
  ctx: AppContext,
  project: ProjectRow,
  upload: Pick<Upload, "bytes" | "ext">,
) {
  const hash = createHash("sha256").update(upload.bytes).digest("hex");
  const file = { key: `uploads/${hash}.${upload.ext}`, bytes: upload.bytes.length };
  await assertRoomToStore(ctx.database.db, project, file, ctx.config.plansEnabled);
  await ctx.storage.putContentAddressed(file.key, upload.bytes, hash);
  return { fileKey: file.key, fileBytes: file.bytes };
}

export async function pagesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.post(
    "/api/projects/:projectId/pages",
    route({
      summary: "Add pages by URL (captured in the background)",
      body: addPageSchema,
      action: "pages.create",
      response: dataAnswer(addPageAnswerSchema),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
      authorize(access, "pages.create");
      const input = addPageSchema.parse(request.body);
      const { page, version } = await addPage(
        db,
        project,
        {
          url: input.url,
          title: input.title || input.url,
          screenshotSource: input.isScreenshot ? input.url : null,
          version: {
            kind: input.isScreenshot ? "screenshot" : "snapshot",
            status: "queued",
            sourceUrl: input.url,
            createdBy: actor.user.id,
          },
        },
        ctx.config.plansEnabled,
      );
      await enqueueCapture(ctx, version.id);
      reply.status(202);
      return {
        data: {
          projectId: project.id,
          pageId: page.id,
          versionId: version.id,
          page: presentPage(page, [{ ...version, commentCount: 0, suggestionCount: 0 }]),
        },
        message: PROJECT_MESSAGES.fetchingPage,
      };
    },
  );

  app.post(
    "/api/projects/:projectId/uploads",
    route({
      summary: "Add an image or PDF page (also the browser extension's region screenshot)",
      upload: true,
      action: "pages.create",
      accepts: ["session", "token", "extension"],
      response: dataAnswer(addPageAnswerSchema),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { project, access, ownerLimits, isExpired } = await loadProject(
        db,
        actor,
        projectParams.parse(request.params).projectId,
      );
      authorize(access, "pages.create");
      if (request.principal?.kind === "extension") assertOffersExtension({ ...project, isExpired });
      await assertRoomForPage(db, project, effectiveLimits(ownerLimits, ctx.config.plansEnabled));
      const upload = await readUpload(request);
      const file = await storeUpload(ctx, project, upload);
      const isPDF = upload.kind === "pdf";
      const { page, version } = await addPage(
        db,
        project,
        {
          url: "image",
          title: upload.filename.replace(/\.[^.]+$/, "") || (isPDF ? "PDF" : "image"),
          isPDF,
          version: { kind: upload.kind, status: "ready", ...file, createdBy: actor.user.id },
        },
        ctx.config.plansEnabled,
      );
      if (!isPDF) await setPageThumbnail(ctx, page.id, upload.bytes);
      reply.status(201);
      return { data: { projectId: project.id, pageId: page.id, versionId: version.id } };
    },
  );

  app.post(
    "/api/pages/:pageId/versions",
    route({
      summary: "New version: re-capture (JSON) or a new image (multipart)",
      body: recaptureSchema,
      action: "versions.create",
      response: dataAnswer(versionSchema),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { page, project, access } = await loadPage(db, actor, pageParams.parse(request.params).pageId);
      authorize(access, "versions.create");
      if (request.isMultipart()) {
        const upload = await readUpload(request);
        if (upload.kind !== "image" || page.isPDF) {
          throw new BadRequestError("A new version of this page must be an image.", "unsupported-file");
        }
        const file = await storeUpload(ctx, project, upload);
        const version = await addUploadedVersion(
          db,
          page,
          { kind: "image", status: "ready", ...file, createdBy: actor.user.id },
          ctx.config.plansEnabled,
        );
        await setPageThumbnail(ctx, page.id, upload.bytes);
        reply.status(201);
        return { data: presentVersion(version) };
      }
      const { copyUnresolvedComments } = recaptureSchema.parse(request.body ?? {});
      if (page.url === "image" && !page.screenshotSource) {
        throw new BadRequestError("Upload an image to add a version to this page.", "not-a-url-page");
      }
      const version = await recapture(db, page, actor.user.id, copyUnresolvedComments);
      await enqueueCapture(ctx, version.id);
      reply.status(202);
      // Re-read with its count: copied comments already belong to it.
      return {
        data: presentVersion((await loadCountedVersion(db, version.id))!),
        message: PROJECT_MESSAGES.fetchingPage,
      };
    },
  );

  app.post(
    "/api/projects/:projectId/update-all",
    route({
      summary: "Re-capture every page that may be updated",
      body: updateAllPagesSchema,
      action: "versions.create",
      response: dataAnswer(updatedPagesSchema),
    }),
    async (request) => {
      const actor = await requireActor(request);
      const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
      authorize(access, "versions.create");
      const { copyUnresolvedComments } = updateAllPagesSchema.parse(request.body ?? {});
      const { pageRows } = await loadPagesWithVersions(db, project.id);
      const updatable = pageRows.filter((page) => isUpdatablePage({ ...page, isApproved: page.approved }));
      if (updatable.length === 0) return { data: { updated: 0 }, message: COMMENT_MESSAGES.noPagesToUpdate };
      for (const page of updatable) {
        const version = await recapture(db, page, actor.user.id, copyUnresolvedComments);
        await enqueueCapture(ctx, version.id);
      }
      return { data: { updated: updatable.length } };
    },
  );

  app.get(
    "/api/similar-pages",
    route({
      summary: "Pages a URL links to, for adding several at once",
      query: similarPagesQuerySchema,
      action: "self",
      response: dataAnswer(similarPagesSchema),
    }),
    async (request) => {
      await requireActor(request);
      const { url } = similarPagesQuerySchema.parse(request.query);
      return { data: await findSimilarPages(ctx.config, url) };
    },
  );

  app.patch(
    "/api/pages/:pageId",
    route({
      summary: "Rename or archive a page",
      body: updatePageSchema,
      action: "pages.update",
      response: dataAnswer(pageSchema),
    }),
    async (request) => updatePage(ctx, await requireActor(request), requestInput(request)),
  );

  app.put(
    "/api/pages/:pageId/approval",
    route({
      summary: "Approve or unapprove a page",
      body: pageApprovalSchema,
      action: "pages.approve",
      response: dataAnswer(pageSchema),
    }),
    async (request) => approvePage(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/pages/:pageId",
    route({ summary: "Delete a page", action: "pages.delete", response: messageAnswer }),
    async (request) =>
      deletePage({ ...ctx, log: request.log }, await requireActor(request), requestInput(request)),
  );
}
