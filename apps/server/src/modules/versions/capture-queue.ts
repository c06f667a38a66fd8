/**
 * The capture jobs of versions: a version waiting to be captured is a job on the durable queue; the worker
 * (modules/captures) takes it. Here, beside the versions, so whoever adds a version enqueues it without
 * depending on the worker.
 */
import type { AppContext } from "../../context.ts";

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
 * at start-up. Those with a job waiting, to be retried or running are left alone: the queue's singleton
 * key does not deduplicate on a standard queue, and a second job would capture the page twice at once (a
 * job left running by a dead worker is retried by `retryOrphanedCaptures`, modules/captures).
 */
export async function enqueueUnfinished(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.database.executeSql(
    `select v.id from versions v
      where v.status in ('queued', 'capturing')
        and not exists (select 1 from pgboss.job j
          where j.name = $1 and j.state in ('created', 'retry', 'active') and j.data->>'versionId' = v.id)`,
    [CAPTURE_QUEUE],
  );
  for (const row of rows as { id: string }[]) await enqueueCapture(ctx, row.id);
  return rows.length;
}
