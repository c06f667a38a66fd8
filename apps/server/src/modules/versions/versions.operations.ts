/** A version's writes (lib/operations.ts): rename, delete (a page keeps at least one). */
import { updateVersionSchema } from "@redline/shared";
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { pages, versions } from "../../db/schema/index.ts";
import { HttpError } from "../../lib/errors.ts";
import { type LoggedContext, operation, withParams } from "../../lib/operations.ts";
import { announceChanged } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { OWNED_BY_WORK, releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { loadVersion } from "../project-access/projects.load.ts";
import { authorize } from "../project-access/projects.policy.ts";
import { presentVersion } from "../projects/projects.presenter.ts";

export const versionParams = z.object({ versionId: z.string().min(1).max(64) });

export const renameVersion = operation(
  "versions.update",
  withParams(versionParams, updateVersionSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { version, access } = await loadVersion(db, actor, input.versionId);
    authorize(access, "versions.update");
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

export const deleteVersion = operation(
  "versions.delete",
  versionParams,
  async (ctx: LoggedContext, actor: Actor, { versionId }) => {
    const { db } = ctx.database;
    const { version, page, access } = await loadVersion(db, actor, versionId);
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
    await removeReleasedFiles(ctx, files, ctx.log);
    return { data: { projectId: page.projectId, pageId: page.id } };
  },
);
