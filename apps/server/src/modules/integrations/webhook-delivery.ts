/**
 * Delivering webhooks. A delivery row (made once per event and endpoint by webhooks.consumer.ts) is
 * attempted by the durable job queue: an attempt claims the row for a lease (so the queue's own retry of a
 * job, a replay and another process never send it twice at once), sends it signed, and records the
 * answer. A failed attempt asks the queue for the next one after a doubling wait (retryBaseSeconds, 2×, 4×…,
 * at most an hour) until MAX_WEBHOOK_ATTEMPTS; a receiver may thus see a message more than once (the
 * same `webhook-id` each time) and never loses one while it comes back within the schedule.
 */
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { projectIntegrations, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { sendWebhook } from "../../integrations/webhooks/index.ts";
import { inTransaction } from "../../lib/queue.ts";
import { integrationSecrets, signingSecrets } from "./integrations.load.ts";

export const WEBHOOK_QUEUE = "webhook-delivery";
export const MAX_WEBHOOK_ATTEMPTS = 10;
const LEASE_MS = 2 * 60 * 1000;

type Ctx = Pick<AppContext, "config" | "database" | "queue">;

/** The wait before attempt `attempts + 1`. */
export function webhookRetryDelaySeconds(baseSeconds: number, attempts: number): number {
  return Math.min(baseSeconds * 2 ** Math.max(0, attempts - 1), 3600);
}

/** Asks the queue for an attempt (inside `tx` when given: the job exists exactly when the row does). */
export async function enqueueWebhookDelivery(
  ctx: Pick<AppContext, "queue">,
  id: string,
  options: { tx?: Pick<Database, "execute">; delaySeconds?: number } = {},
): Promise<void> {
  await ctx.queue.send(
    WEBHOOK_QUEUE,
    { id },
    {
      ...(options.tx && { db: inTransaction(options.tx) }),
      ...(options.delaySeconds && { startAfter: options.delaySeconds }),
      retryLimit: 3,
    },
  );
}

/** One attempt of one delivery, if it is still owed and nobody holds it. */
export async function deliverWebhook(ctx: Ctx, id: string): Promise<"sent" | "skipped" | "failed"> {
  const { db } = ctx.database;
  const now = new Date();
  const [row] = await db
    .update(webhookDeliveries)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        inArray(webhookDeliveries.status, ["pending", "retrying"]),
        or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
      ),
    )
    .returning();
  if (!row) return "skipped";
  const [target] = await db
    .select({
      url: webhookEndpoints.url,
      secrets: projectIntegrations.secrets,
      isEnabled: projectIntegrations.isEnabled,
    })
    .from(webhookEndpoints)
    .innerJoin(projectIntegrations, eq(projectIntegrations.id, webhookEndpoints.integrationId))
    .where(eq(webhookEndpoints.id, row.endpointId));
  if (!target) return "skipped"; // disconnected meanwhile: the row went with it
  const outcome = target.isEnabled
    ? await sendWebhook({
        url: target.url,
        id: row.id,
        body: JSON.stringify(row.payload),
        secrets: signingSecrets(integrationSecrets(ctx).open(target)),
        timeoutMs: ctx.config.webhooks.timeoutMs,
        allowPrivate: ctx.config.allowPrivateUrls,
      })
    : ({ ok: false, status: null, error: "The integration is disabled.", blocked: true } as const);
  if (outcome.ok) {
    await db
      .update(webhookDeliveries)
      .set({
        status: "succeeded",
        responseStatus: outcome.status,
        lastError: null,
        leaseUntil: null,
        deliveredAt: new Date(),
      })
      .where(eq(webhookDeliveries.id, id));
    return "sent";
  }
  // A refused address or a disabled integration will not change by waiting: no retry (a replay may).
  const isFinal = row.attempts >= MAX_WEBHOOK_ATTEMPTS || outcome.blocked === true;
  await db
    .update(webhookDeliveries)
    .set({
      status: isFinal ? "failed" : "retrying",
      responseStatus: outcome.status,
      lastError: outcome.error,
      leaseUntil: null,
    })
    .where(eq(webhookDeliveries.id, id));
  if (!isFinal)
    await enqueueWebhookDelivery(ctx, id, {
      delaySeconds: webhookRetryDelaySeconds(ctx.config.webhooks.retryBaseSeconds, row.attempts),
    });
  return "failed";
}

/** Works the delivery queue in this process (every app process and worker may). */
export async function startWebhookDeliveries(ctx: Ctx): Promise<void> {
  await ctx.queue.createQueue(WEBHOOK_QUEUE);
  await ctx.queue.work<{ id: string }>(
    WEBHOOK_QUEUE,
    { batchSize: 4, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      await Promise.all(jobs.map((job) => deliverWebhook(ctx, job.data.id)));
    },
  );
}
