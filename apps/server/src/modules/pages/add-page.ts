/**
 * Adding a page (by URL, screenshot, image or PDF) and adding a version to a page. Both write the page,
 * its version and the project's modifiedAt in one transaction; the page limit is checked under a lock
 * on the project row, so two concurrent adds can never exceed it. An uploaded file counts against its
 * project owner's storage, metered in the same transaction (plans/storage.ts).
 */
import {
  canAddPage,
  type Limits,
  type Product,
  pageLimitFor,
  productOf,
  type VersionKind,
} from "@redline/shared";
import { count, desc, eq, max } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  type PageRow,
  type ProjectRow,
  pages,
  projects,
  users,
  type VersionRow,
  versions,
} from "../../db/schema/index.ts";
import { PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { announceChanged } from "../../lib/realtime.ts";
import { copyUnresolved } from "../comments/comments.service.ts";
import { limitsFor } from "../plans/plans.ts";
import { meterStorage } from "../plans/storage.ts";
import { recordPageAdded } from "./pages.events.ts";

export class PageLimitError extends PlanLimitError {
  constructor(limit: number, product: Product) {
    super("page-limit", `This project has reached its limit of ${limit} pages. Upgrade to add more.`, {
      kind: "pages",
      product,
      limit,
    });
  }
}

/**
 * Refuses (402) before anything is stored when the project is already at its page limit. addPage checks
 * again under the project's row lock, so two concurrent uploads cannot both pass; what the loser had
 * stored is left to the file collector.
 */
export async function assertRoomForPage(db: Database, project: ProjectRow, ownerLimits: Limits | null) {
  const [{ pageCount } = { pageCount: 0 }] = await db
    .select({ pageCount: count() })
    .from(pages)
    .where(eq(pages.projectId, project.id));
  const limit = pageLimitFor(project.type, ownerLimits);
  if (!canAddPage(limit, pageCount)) throw new PageLimitError(limit, productOf(project.type));
}

export interface NewVersionInput {
  kind: VersionKind;
  status: VersionRow["status"];
  sourceUrl?: string;
  fileKey?: string;
  /** An uploaded file's size: it is metered against the project owner's storage. */
  fileBytes?: number;
  width?: number;
  createdBy: string;
}

export interface NewPageInput {
  url: string;
  title: string;
  isPDF?: boolean;
  screenshotSource?: string | null;
  /** "extension": added from the browser extension (update-all skips it, SPEC §4). */
  source?: string | null;
  version: NewVersionInput;
}

export async function addPage(
  db: Database,
  project: ProjectRow,
  input: NewPageInput,
  plansEnabled: boolean,
): Promise<{ page: PageRow; version: VersionRow }> {
  return db.transaction(async (tx) => {
    await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, project.id)).for("update");
    const [{ pageCount } = { pageCount: 0 }] = await tx
      .select({ pageCount: count() })
      .from(pages)
      .where(eq(pages.projectId, project.id));
    const [owner] = await tx.select().from(users).where(eq(users.id, project.ownerId));
    const limit = pageLimitFor(project.type, owner ? limitsFor(owner, plansEnabled) : null);
    if (!canAddPage(limit, pageCount)) throw new PageLimitError(limit, productOf(project.type));
    const storage =
      input.version.fileBytes === undefined ? null : await meterStorage(tx, project.id, plansEnabled);

    const now = new Date();
    const [page] = await tx
      .insert(pages)
      .values({
        id: newId(),
        projectId: project.id,
        url: input.url,
        title: input.title,
        isPDF: input.isPDF ?? false,
        screenshotSource: input.screenshotSource ?? null,
        source: input.source ?? null,
        sortOrder: pageCount,
        createdAt: now,
        modifiedAt: now,
      })
      .returning();
    const [version] = await tx
      .insert(versions)
      .values(versionValues(page!, 1, input.version, now))
      .returning();
    await storage?.check();
    await tx.update(projects).set({ modifiedAt: now }).where(eq(projects.id, project.id));
    await recordPageAdded(tx, {
      actor: { userId: input.version.createdBy },
      version: { id: version!.id, projectId: project.id, pageId: page!.id },
    });
    return { page: page!, version: version! };
  });
}

export async function addVersion(db: Database, page: PageRow, input: NewVersionInput): Promise<VersionRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: pages.id }).from(pages).where(eq(pages.id, page.id)).for("update");
    const [{ last } = { last: 0 }] = await tx
      .select({ last: max(versions.number) })
      .from(versions)
      .where(eq(versions.pageId, page.id));
    const now = new Date();
    const [version] = await tx
      .insert(versions)
      .values(versionValues(page, (last ?? 0) + 1, input, now))
      .returning();
    await tx.update(pages).set({ modifiedAt: now }).where(eq(pages.id, page.id));
    await tx.update(projects).set({ modifiedAt: now }).where(eq(projects.id, page.projectId));
    await announceChanged(tx, `project:${page.projectId}`);
    return version!;
  });
}

/** A new version from an uploaded file, metered against the project owner's storage in its transaction. */
export async function addUploadedVersion(
  db: Database,
  page: PageRow,
  input: NewVersionInput & { fileKey: string; fileBytes: number },
  plansEnabled: boolean,
): Promise<VersionRow> {
  return db.transaction(async (tx) => {
    const storage = await meterStorage(tx, page.projectId, plansEnabled);
    const version = await addVersion(tx, page, input);
    await storage.check();
    return version;
  });
}

function versionValues(page: PageRow, number: number, input: NewVersionInput, now: Date) {
  return {
    id: newId(),
    pageId: page.id,
    projectId: page.projectId,
    number,
    title: `Version ${number}`,
    kind: input.kind,
    status: input.status,
    stage: input.status === "queued" ? "Queued" : null,
    sourceUrl: input.sourceUrl ?? null,
    fileKey: input.fileKey ?? null,
    fileBytes: input.fileBytes ?? null,
    width: input.width ?? 1280,
    createdBy: input.createdBy,
    createdAt: now,
    modifiedAt: now,
  };
}

/** A new queued capture of a URL page, optionally carrying over the latest version's unresolved comments. */
export async function recapture(
  db: Database,
  page: PageRow,
  userId: string,
  copyUnresolvedComments: boolean,
) {
  // One transaction under the page's row lock: a new version is never seen without its copied
  // comments, and two re-captures at once copy from the version each follows, not both from the same.
  return db.transaction(async (tx) => {
    await tx.select({ id: pages.id }).from(pages).where(eq(pages.id, page.id)).for("update");
    const [latest] = await tx
      .select()
      .from(versions)
      .where(eq(versions.pageId, page.id))
      .orderBy(desc(versions.number))
      .limit(1);
    const version = await addVersion(tx, page, {
      kind: page.screenshotSource ? "screenshot" : "snapshot",
      status: "queued",
      sourceUrl: page.screenshotSource ?? page.url,
      createdBy: userId,
    });
    if (copyUnresolvedComments && latest) await copyUnresolved(tx, latest, version);
    return version;
  });
}
