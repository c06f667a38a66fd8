/**
 * Posting to Slack (issue #30), worked by the durable job queue: a `pending` slack_messages row (made by
 * slack.consumer.ts in the ledger cursor's transaction) is claimed under a lease and posted to the
 * project's channel — a comment's message at the top, a reply in its comment's thread. A Slack outage or
 * rate limit throws and the queue tries again after a doubling wait, so nothing is lost; a reply whose
 * comment's message is not posted yet waits the same way. A revoked token or a refusal that waiting
 * cannot mend is logged and the message skipped; so is everything while the integration is disabled.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { projectIntegrations, slackMessages } from "../../db/schema/index.ts";
import { createSlackClient, SlackCallError } from "../../integrations/slack/index.ts";
import { inTransaction } from "../../lib/queue.ts";
import { integrationSecrets } from "./integrations.load.ts";

export const SLACK_QUEUE = "slack-messages";
const LEASE_MS = 2 * 60 * 1000;
const MAX_ATTEMPTS = 10;

type Ctx = Pick<AppContext, "config" | "database" | "queue">;

export async function enqueueSlackMessage(
  ctx: Pick<AppContext, "queue" | "config">,
  id: string,
  options: { tx: Pick<Database, "execute"> },
): Promise<void> {
  await ctx.queue.send(
    SLACK_QUEUE,
    { id },
    {
      db: inTransaction(options.tx),
      retryLimit: MAX_ATTEMPTS,
      retryDelay: ctx.config.webhooks.retryBaseSeconds,
      retryBackoff: true,
    },
  );
}

/** Waiting may help (an outage, a rate limit, the thread's first message not posted yet). */
class TryLater extends Error {}

async function settle(
  db: Database,
  id: string,
  set: Partial<Pick<typeof slackMessages.$inferInsert, "status" | "ts" | "lastError">>,
) {
  await db
    .update(slackMessages)
    .set({ ...set, leaseUntil: null })
    .where(eq(slackMessages.id, id));
}

/**
 * One attempt at one message, if it is still owed and nobody holds it: "posted", "skipped" (posted
 * already, held elsewhere, or given up for good); a failure worth waiting for throws.
 */
export async function postSlackMessage(ctx: Ctx, id: string): Promise<"posted" | "skipped"> {
  const { db } = ctx.database;
  const now = new Date();
  const [message] = await db
    .update(slackMessages)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${slackMessages.attempts} + 1` })
    .where(
      and(
        eq(slackMessages.id, id),
        eq(slackMessages.status, "pending"),
        or(isNull(slackMessages.leaseUntil), lt(slackMessages.leaseUntil, now)),
      ),
    )
    .returning();
  if (!message) return "skipped";
  const [integration] = await db
    .select()
    .from(projectIntegrations)
    .where(and(eq(projectIntegrations.projectId, message.projectId), eq(projectIntegrations.type, "slack")));
  const client = createSlackClient(ctx.config);
  const token = integration ? integrationSecrets(ctx).open(integration).botToken : undefined;
  if (!client || !integration?.isEnabled || !token) {
    await settle(db, id, { status: "skipped", lastError: "The Slack integration is off or disconnected." });
    return "skipped";
  }
  try {
    let threadTs: string | null = null;
    if (!message.isRoot) {
      const [root] = !message.commentId
        ? []
        : await db
            .select({ status: slackMessages.status, ts: slackMessages.ts })
            .from(slackMessages)
            .where(and(eq(slackMessages.commentId, message.commentId), eq(slackMessages.isRoot, true)));
      if (!root || root.status === "skipped") {
        await settle(db, id, { status: "skipped", lastError: "The comment's message was not posted." });
        return "skipped";
      }
      if (!root.ts) throw new TryLater("The comment's message is not posted yet.");
      threadTs = root.ts;
    }
    const posted = await client.postMessage(token, {
      channel: message.channelId,
      text: message.text,
      threadTs,
    });
    await settle(db, id, { status: "posted", ts: posted.ts, lastError: null });
    return "posted";
  } catch (error) {
    const waits = error instanceof TryLater || (error instanceof SlackCallError && error.kind === "retry");
    if (!(waits || error instanceof SlackCallError)) throw error;
    if (!waits || message.attempts >= MAX_ATTEMPTS) {
      console.warn(`slack: message ${id} of project ${message.projectId} not posted (${error.message})`);
      await settle(db, id, { status: "skipped", lastError: error.message.slice(0, 500) });
      return "skipped";
    }
    await settle(db, id, { lastError: error.message.slice(0, 500) });
    throw error;
  }
}

/** Works the Slack queue in this process (every app process and worker may). */
export async function startSlackMessages(ctx: Ctx): Promise<void> {
  await ctx.queue.createQueue(SLACK_QUEUE);
  await ctx.queue.work<{ id: string }>(
    SLACK_QUEUE,
    { batchSize: 4, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      // Replies of one thread in order: one job after the other (a failing one fails the batch: retried).
      for (const job of jobs) await postSlackMessage(ctx, job.data.id);
    },
  );
}
