/**
 * The capture jobs of versions: a version waiting to be captured is a job on the durable queue; the worker
 * (modules/captures) takes it. Here, beside the versions, so whoever adds a version enqueues it without
 * depending on the worker.
 */
import { inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { versions } from "../../db/schema/index.ts";

import type { Queue } from "../../lib/queue.ts";

export const CAPTURE_QUEUE = "capture";

export async function createCaptureQueue(queue: Queue): Promise<void> {
  await queue.createQueue(CAPTURE_QUEUE);
}

/** One job per version (singletonKey): sending twice while it waits or runs is a no-op. */
export async function enqueueCapture(ctx: AppContext, versionId: string): Promise<void> {
  await ctx.queue.send(
    CAPTURE_QUEUE,
    { versionId },
    { singletonKey: versionId, retryLimit: 2, retryDelay: 5, expireInSeconds: 180 },
  );
}

/**
 * Versions written but never enqueued (the process stopped between commit and send) are enqueued again
 * at start-up; those whose job is still queued or running are deduplicated by the singleton key.
 */
export async function enqueueUnfinished(ctx: AppContext): Promise<number> {
  const rows = await ctx.database.db
    .select({ id: versions.id })
    .from(versions)
    .where(inArray(versions.status, ["queued", "capturing"]));
  for (const row of rows) await enqueueCapture(ctx, row.id);
  return rows.length;
}
