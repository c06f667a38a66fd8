/**
 * Files that belong to exactly one row — a version's snapshot and live screenshot, a page's or a
 * project's thumbnail — are removed from storage once their rows are deleted, so deleting work frees
 * its space. Content-addressed files (snapshot assets, uploads, attachments) can be shared by other
 * rows and are left alone. A removal that fails is logged and ignored (SPEC §4: failed cleanup on
 * deletion is ignored); the rows are gone either way.
 */
import { eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { pages, projects, versions } from "../../db/schema/index.ts";

type Reader = Pick<Database, "select">;

/** The owned files of versions, pages or a whole project, read before their rows are deleted. */
export async function ownedFiles(
  db: Reader,
  of: { versionIds?: string[]; pageIds?: string[]; projectId?: string },
): Promise<string[]> {
  const keys: (string | null)[] = [];
  const versionsOf = of.projectId
    ? eq(versions.projectId, of.projectId)
    : of.pageIds?.length
      ? inArray(versions.pageId, of.pageIds)
      : of.versionIds?.length
        ? inArray(versions.id, of.versionIds)
        : null;
  const versionRows = versionsOf
    ? await db
        .select({ snapshot: versions.snapshotKey, screenshot: versions.screenshotKey })
        .from(versions)
        .where(versionsOf)
    : [];
  for (const row of versionRows) keys.push(row.snapshot, row.screenshot);
  if (of.pageIds?.length || of.projectId) {
    const pageRows = await db
      .select({ thumbnail: pages.thumbnailKey })
      .from(pages)
      .where(of.projectId ? eq(pages.projectId, of.projectId) : inArray(pages.id, of.pageIds ?? []));
    for (const row of pageRows) keys.push(row.thumbnail);
  }
  if (of.projectId) {
    const [project] = await db
      .select({ thumbnail: projects.thumbnailKey })
      .from(projects)
      .where(eq(projects.id, of.projectId));
    keys.push(project?.thumbnail ?? null);
  }
  return [...new Set(keys.filter((key): key is string => Boolean(key)))];
}

/** Removes the files (after the rows' transaction committed). */
export async function removeOwnedFiles(
  ctx: AppContext,
  keys: string[],
  log: FastifyBaseLogger,
): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      ctx.storage
        .delete(key)
        .catch((error: unknown) => log.warn({ err: error, key }, "could not remove a file")),
    ),
  );
}
