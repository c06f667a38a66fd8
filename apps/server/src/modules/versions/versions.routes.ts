import { updateVersionSchema, type VersionView } from "@redline/shared";
import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pages, versions } from "../../db/schema/index.ts";
import { HttpError } from "../../lib/errors.ts";
import { announceChanged } from "../../lib/realtime.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { contentUrls } from "../content/content.urls.ts";
import { OWNED_BY_WORK, releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { loadPagesWithVersions, loadVersion } from "../project-access/projects.load.ts";
import { authorize } from "../project-access/projects.policy.ts";
import { presentPage, presentVersion } from "../projects/projects.presenter.ts";

const params = z.object({ versionId: z.string().min(1).max(64) });

export async function versionsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;

  app.get(
    "/api/versions/:versionId",
    route({ summary: "A version and its capture status", action: "projects.read" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, access } = await loadVersion(db, actor, params.parse(request.params).versionId);
      authorize(access, "projects.read");
      return { data: presentVersion(version) };
    },
  );

  app.get(
    "/api/versions/:versionId/view",
    route({ summary: "Where to load the version's content (signed URLs)", action: "projects.read" }),
    async (request): Promise<{ data: VersionView }> => {
      const actor = await requireActor(auth, db, request);
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
    route({ summary: "Rename a version", body: updateVersionSchema, action: "versions.update" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, access } = await loadVersion(db, actor, params.parse(request.params).versionId);
      authorize(access, "versions.update");
      const input = updateVersionSchema.parse(request.body);
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(versions)
          .set({ title: input.title, modifiedAt: new Date() })
          .where(eq(versions.id, version.id))
          .returning();
        await announceChanged(tx, `project:${version.projectId}`);
        return row;
      });
      return {
        data: presentVersion({
          ...updated!,
          commentCount: version.commentCount,
          suggestionCount: version.suggestionCount,
        }),
      };
    },
  );

  app.delete(
    "/api/versions/:versionId",
    route({ summary: "Delete a version", action: "versions.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, page, access } = await loadVersion(db, actor, params.parse(request.params).versionId);
      authorize(access, "versions.delete");
      const files = await db.transaction(async (tx) => {
        await tx.select({ id: pages.id }).from(pages).where(eq(pages.id, page.id)).for("update");
        const [{ total } = { total: 0 }] = await tx
          .select({ total: count() })
          .from(versions)
          .where(eq(versions.pageId, page.id));
        if (total <= 1) {
          throw new HttpError(
            409,
            "last-version",
            "A page keeps at least one version: delete the page instead.",
          );
        }
        const released = await releaseFilesOf(tx, [{ kinds: OWNED_BY_WORK, ids: [version.id] }], () =>
          tx.delete(versions).where(eq(versions.id, version.id)),
        );
        await announceChanged(tx, `project:${page.projectId}`);
        return released;
      });
      await removeReleasedFiles(ctx, files, request.log);
      return { data: { projectId: page.projectId, pageId: page.id } };
    },
  );
}
