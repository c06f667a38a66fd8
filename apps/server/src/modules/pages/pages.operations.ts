/** A page's writes (lib/operations.ts): rename or archive, approve or unapprove, delete. */
import {
  PAGE_ARCHIVE_MESSAGES,
  PROJECT_MESSAGES,
  pageApprovalSchema,
  SHARING_MESSAGES,
  updatePageSchema,
} from "@redline/shared";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { pages, projects, versions } from "../../db/schema/index.ts";
import { type LoggedContext, operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { announceChanged } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { OWNED_BY_WORK, releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { loadPage, loadPagesWithVersions } from "../project-access/projects.load.ts";
import { authorize, authorizeProject } from "../project-access/projects.policy.ts";
import { presentPage } from "../projects/projects.presenter.ts";
import { recordPageApproval } from "./pages.events.ts";

export const pageParams = z.object({ pageId: z.string().min(1).max(64) });

export const updatePage = operation(
  "pages.update",
  withParams(pageParams, updatePageSchema),
  async (ctx, actor: Actor, parsed) => {
    const { db } = ctx.database;
    const { pageId, ...input } = parsed;
    const { page, access } = await loadPage(db, actor, pageId);
    authorize(access, "pages.update");
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(pages)
        .set({ ...input, modifiedAt: new Date() })
        .where(eq(pages.id, page.id))
        .returning();
      await announceChanged(tx, `project:${page.projectId}`);
      return row;
    });
    const { versionRows } = await loadPagesWithVersions(db, page.projectId);
    const data = presentPage(updated!, versionRows);
    if (input.isArchived === undefined) return { data };
    // Archiving only hides the page; it keeps counting toward the page limit and can come back.
    return {
      data,
      message: input.isArchived ? PAGE_ARCHIVE_MESSAGES.archived : PAGE_ARCHIVE_MESSAGES.unarchived,
    };
  },
);

export const approvePage = operation(
  "pages.approve",
  withParams(pageParams, pageApprovalSchema),
  async (ctx, actor: Actor, { pageId, approved }) => {
    const { db } = ctx.database;
    const { page, project, access, isExpired } = await loadPage(db, actor, pageId);
    authorizeProject(policyActorOf(actor, access), "pages.approve", {
      approvers: project.approvers,
      isExpired,
    });
    const updated = await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ approved: pages.approved })
        .from(pages)
        .where(eq(pages.id, page.id))
        .for("update");
      const [row] = await tx
        .update(pages)
        .set({
          approved: approved ? { uid: actor.user.id, date: new Date().toISOString() } : null,
          modifiedAt: new Date(),
        })
        .where(eq(pages.id, page.id))
        .returning();
      const [latest] = await tx
        .select({ id: versions.id })
        .from(versions)
        .where(eq(versions.pageId, page.id))
        .orderBy(desc(versions.number))
        .limit(1);
      // The project's people hear of a change, not of a repeat (pages.events.ts).
      await recordPageApproval(tx, {
        actor: { userId: actor.user.id },
        version: { id: latest?.id ?? null, projectId: page.projectId, pageId: page.id },
        approved,
        isChange: Boolean(current?.approved) !== approved,
      });
      return row;
    });
    const { versionRows } = await loadPagesWithVersions(db, page.projectId);
    return {
      data: presentPage(updated!, versionRows),
      message: approved ? SHARING_MESSAGES.approved : SHARING_MESSAGES.unapproved,
    };
  },
);

export const deletePage = operation(
  "pages.delete",
  pageParams,
  async (ctx: LoggedContext, actor: Actor, { pageId }) => {
    const { db } = ctx.database;
    const { page, access } = await loadPage(db, actor, pageId);
    authorize(access, "pages.delete");
    const files = await db.transaction(async (tx) => {
      const pageVersions = await tx
        .select({ id: versions.id })
        .from(versions)
        .where(eq(versions.pageId, page.id));
      const released = await releaseFilesOf(
        tx,
        [{ kinds: OWNED_BY_WORK, ids: [page.id, ...pageVersions.map((version) => version.id)] }],
        () => tx.delete(pages).where(eq(pages.id, page.id)),
      );
      await tx.update(projects).set({ modifiedAt: new Date() }).where(eq(projects.id, page.projectId));
      await announceChanged(tx, `project:${page.projectId}`);
      return released;
    });
    await removeReleasedFiles(ctx, files, ctx.log);
    return { message: page.url === "image" ? PROJECT_MESSAGES.fileDeleted : PROJECT_MESSAGES.pageDeleted };
  },
);
