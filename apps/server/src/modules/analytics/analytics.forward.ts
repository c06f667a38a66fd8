/**
 * Forwarding analytics rows to the product-analytics service (POSTHOG_API_KEY; off by default): one job
 * per row, asked for in the transaction that wrote the row (analytics.consumer.ts), so a row is forwarded
 * exactly when it exists; the queue retries a failed send with backoff. PostHog deduplicates on the
 * event's uuid (derived from the row's id), so a retry after a send whose answer was lost counts once.
 */
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { analyticsEvents } from "../../db/schema/index.ts";
import { createProductAnalytics, type ProductAnalytics } from "../../integrations/posthog/index.ts";
import { inTransaction } from "../../lib/queue.ts";

export const ANALYTICS_FORWARD_QUEUE = "analytics-forward";

export async function enqueueForward(
  ctx: Pick<AppContext, "queue">,
  id: string,
  tx: Pick<Database, "execute">,
): Promise<void> {
  await ctx.queue.send(
    ANALYTICS_FORWARD_QUEUE,
    { id },
    { db: inTransaction(tx), retryLimit: 8, retryDelay: 5, retryBackoff: true },
  );
}

/** Starts the forwarding worker when forwarding is configured; returns what stops its client. */
export async function startAnalyticsForwarding(
  ctx: Pick<AppContext, "config" | "database" | "queue">,
): Promise<() => Promise<void>> {
  const config = ctx.config.productAnalytics;
  if (!config) return async () => {};
  const client: ProductAnalytics = createProductAnalytics(config);
  await ctx.queue.createQueue(ANALYTICS_FORWARD_QUEUE);
  await ctx.queue.work<{ id: string }>(
    ANALYTICS_FORWARD_QUEUE,
    // One job at a time: a failed send fails its own job alone, which the queue retries.
    { batchSize: 1, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      for (const job of jobs) {
        const [row] = await ctx.database.db
          .select()
          .from(analyticsEvents)
          .where(eq(analyticsEvents.id, job.data.id));
        if (!row) continue; // no longer kept
        await client.send({
          id: row.id,
          name: row.name,
          userId: row.userId,
          properties: row.properties,
          createdAt: row.createdAt,
        });
      }
    },
  );
  return () => client.close();
}
