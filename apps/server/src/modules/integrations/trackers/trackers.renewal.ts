/**
 * Keeps webhooks that expire alive without waiting for the integration to be used: Jira's dynamic webhooks
 * end 30 days after they were made or last extended (`PUT /rest/api/3/webhook/refresh`, "extend webhook
 * life"). A job on the queue (one waiting at a time, asked for by every process every RENEWAL_INTERVAL)
 * extends each webhook last extended more than RENEW_AFTER_DAYS ago, and notes when in the integration's
 * config (`hookRenewedAt`). A tracker that fails leaves its integration due for the next pass; the others
 * go on.
 */
import { TRACKER_TYPES } from "@redline/shared";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { AppContext } from "../../../context.ts";
import { projectIntegrations } from "../../../db/schema/index.ts";
import { trackerFor } from "./index.ts";
import { trackerSecrets } from "./trackers.load.ts";
import { withTrackerToken } from "./trackers.tokens.ts";

export const WEBHOOK_RENEWAL_QUEUE = "tracker-webhook-renewal";
/** Extended when older than this (Jira's last 30 days: two passes a day leave ample room for failures). */
export const RENEW_AFTER_DAYS = 20;
const RENEWAL_INTERVAL_SECONDS = 12 * 3600;
/** At most this many per pass; the rest wait for the next (the oldest go first). */
const PER_PASS = 200;

type Ctx = Pick<AppContext, "config" | "database" | "queue">;

/** Extends the due webhooks; answers how many were extended and how many failed. */
export async function renewTrackerWebhooks(
  ctx: Pick<AppContext, "config" | "database">,
  now = new Date(),
): Promise<{ renewed: number; failed: number }> {
  const types = TRACKER_TYPES.filter((type) => trackerFor(ctx.config, type)?.renewWatch);
  if (types.length === 0) return { renewed: 0, failed: 0 };
  const { db } = ctx.database;
  const renewedAt = sql`(${projectIntegrations.config}->>'hookRenewedAt')`;
  const due = await db
    .select()
    .from(projectIntegrations)
    .where(
      and(
        inArray(projectIntegrations.type, types),
        isNotNull(projectIntegrations.secrets),
        sql`(${renewedAt} is null or ${renewedAt}::timestamptz < ${new Date(now.getTime() - RENEW_AFTER_DAYS * 86_400_000).toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(sql`${renewedAt} nulls first`)
    .limit(PER_PASS);
  let renewed = 0;
  let failed = 0;
  for (const row of due) {
    const tracker = trackerFor(ctx.config, row.type as (typeof types)[number])!;
    const { hookId } = trackerSecrets(ctx).open(row);
    if (!hookId) continue;
    try {
      await withTrackerToken(ctx, tracker, row, (token) => tracker.renewWatch!(token, hookId));
    } catch {
      failed++;
      continue;
    }
    await db
      .update(projectIntegrations)
      .set({
        config: sql`${projectIntegrations.config} || ${JSON.stringify({ hookRenewedAt: now.toISOString() })}::jsonb`,
      })
      .where(eq(projectIntegrations.id, row.id));
    renewed++;
  }
  return { renewed, failed };
}

/** Works the renewal jobs and asks for one every RENEWAL_INTERVAL_SECONDS (the first soon after start). */
export async function startWebhookRenewal(ctx: Ctx): Promise<{ stop(): void }> {
  const { queue } = ctx;
  await queue.createQueue(WEBHOOK_RENEWAL_QUEUE);
  await queue.work(WEBHOOK_RENEWAL_QUEUE, async () => {
    const { failed } = await renewTrackerWebhooks(ctx);
    if (failed > 0) console.warn(`tracker webhooks: ${failed} could not be extended; tried again next pass`);
  });
  const ask = (startAfter: number) =>
    queue
      .send(WEBHOOK_RENEWAL_QUEUE, {}, { singletonKey: WEBHOOK_RENEWAL_QUEUE, startAfter, retryLimit: 1 })
      .catch((error: unknown) => console.error("could not schedule the tracker webhooks' renewal", error));
  await ask(60);
  const timer = setInterval(() => void ask(RENEWAL_INTERVAL_SECONDS), RENEWAL_INTERVAL_SECONDS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
