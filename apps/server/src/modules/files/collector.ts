/**
 * The file collector: removes stored files that no row references, once they are older than the grace
 * period (FILE_GC_GRACE_SECONDS). Deleting a version, page, project or ticket removes the files it held
 * alone at once (`releaseFilesOf` in stored-files.ts); this catches the rest — content-addressed files the last referrer let
 * go of, uploads refused after they were stored, attachments never attached, avatars never chosen, the
 * temporary file of a write a crash cut short. A file is referenced while the record of stored files
 * (stored-files.ts) names it. The grace period protects a file written just before the row that will
 * reference it commits. Works on both storage providers (their `list`), and runs as a
 * durable job (pg-boss), so exactly one process collects at a time and a restart loses nothing.
 */
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { assets } from "../../db/schema/index.ts";
import type { Queue } from "../../lib/queue.ts";
import { storedKeys } from "./stored-files.ts";

export const FILES_COLLECT_QUEUE = "files-collect";

async function forgetAsset(db: Database, sha256: string): Promise<boolean> {
  try {
    await db.delete(assets).where(eq(assets.sha256, sha256));
    return true;
  } catch {
    return false; // still used
  }
}

export interface Collected {
  removed: string[];
  kept: number;
}

/** One pass: removes every unreferenced file older than `graceMs`. */
export async function collectFiles(ctx: AppContext, graceMs: number, now = Date.now()): Promise<Collected> {
  // Listed before the references are read: a file written after the listing is not looked at, and
  // one listed whose row commits meanwhile is seen as referenced.
  const listed = [];
  for await (const file of ctx.storage.list()) listed.push(file);
  const referenced = await storedKeys(ctx.database.db);
  const removed: string[] = [];
  for (const file of listed) {
    if (referenced.has(file.key) || now - file.modifiedAt.getTime() < graceMs) continue;
    const asset = file.key.match(/^assets\/([0-9a-f]{64})\./)?.[1];
    // An asset's row goes first; a snapshot that took it up meanwhile holds it by its version_assets
    // row (a foreign key without cascade), and then both the row and the file stay.
    if (asset && !(await forgetAsset(ctx.database.db, asset))) continue;
    await ctx.storage.delete(file.key).catch(() => undefined);
    removed.push(file.key);
  }
  return { removed, kept: listed.length - removed.length };
}

export async function createFilesCollectQueue(queue: Queue): Promise<void> {
  await queue.createQueue(FILES_COLLECT_QUEUE);
}

/**
 * Asks for a collection after `delaySeconds`. One waiting job at a time (singleton key): asking again
 * while one waits changes nothing, so deletions may ask freely.
 */
export async function scheduleCollection(queue: Queue, delaySeconds: number): Promise<void> {
  await queue.send(
    FILES_COLLECT_QUEUE,
    {},
    { singletonKey: "files-collect", startAfter: Math.max(1, Math.round(delaySeconds)), retryLimit: 2 },
  );
}

/**
 * Works the collection jobs, and asks for one every FILE_GC_INTERVAL_SECONDS (every process asks; the
 * singleton key keeps one waiting, and the queue gives each job to one worker).
 */
export async function startFileCollector(ctx: AppContext): Promise<{ stop(): void }> {
  const { fileGcGraceSeconds, fileGcIntervalSeconds } = ctx.config;
  await ctx.queue.work(FILES_COLLECT_QUEUE, async () => {
    const { removed } = await collectFiles(ctx, fileGcGraceSeconds * 1000);
    if (removed.length > 0) console.info(`file collector: removed ${removed.length} unreferenced files`);
  });
  const ask = () =>
    scheduleCollection(ctx.queue, fileGcIntervalSeconds).catch((error: unknown) =>
      console.error("could not schedule the file collector", error),
    );
  await ask();
  const timer = setInterval(ask, fileGcIntervalSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
