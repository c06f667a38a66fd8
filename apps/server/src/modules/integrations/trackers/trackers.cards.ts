/**
 * A card's life at the tracker, worked by the job queue (and tried at once by "Create card"): a `pending`
 * row is claimed under a lease and made at the tracker, so a retry after a 500 or 429 and a second click
 * never make two; a made card follows its subject's resolved state (`sync`). A transient failure throws,
 * and the queue tries again after a doubling wait (retryBaseSeconds …); Redline's side never waits on it.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { AppContext } from "../../../context.ts";
import type { Database } from "../../../db/index.ts";
import {
  comments,
  inspectChanges,
  type ProjectIntegrationRow,
  projectIntegrations,
  type TrackerCardRow,
  tickets,
  trackerCards,
} from "../../../db/schema/index.ts";
import { inTransaction } from "../../../lib/queue.ts";
import { isTrackerFailure, type Tracker } from "./tracker.ts";
import { cardContent } from "./trackers.content.ts";
import { requireTracker, trackerConfigOf, trackerSecrets } from "./trackers.load.ts";
import { withTrackerToken } from "./trackers.tokens.ts";

export const TRACKER_QUEUE = "tracker-cards";
const LEASE_MS = 2 * 60 * 1000;
const MAX_ATTEMPTS = 10;

type Ctx = Pick<AppContext, "config" | "database" | "queue">;
export type CardJob = { op: "create" | "sync"; cardId: string };

export async function enqueueCardJob(
  ctx: Pick<AppContext, "queue" | "config">,
  job: CardJob,
  options: { tx?: Pick<Database, "execute">; delaySeconds?: number } = {},
): Promise<void> {
  await ctx.queue.send(TRACKER_QUEUE, job, {
    ...(options.tx && { db: inTransaction(options.tx) }),
    ...(options.delaySeconds && { startAfter: options.delaySeconds }),
    retryLimit: MAX_ATTEMPTS,
    retryDelay: ctx.config.webhooks.retryBaseSeconds,
    retryBackoff: true,
  });
}

/**
 * Keeps a webhook that expires (Jira's, 30 days) alive: renewed, best effort, whenever the integration
 * makes or moves a card.
 */
async function renewWatch(ctx: Ctx, tracker: Tracker, integration: ProjectIntegrationRow) {
  const { hookId } = trackerSecrets(ctx).open(integration);
  const renew = tracker.renewWatch;
  if (!renew || !hookId) return;
  await withTrackerToken(ctx, tracker, integration, (token) => renew(token, hookId)).catch(() => undefined);
}

async function integrationFor(db: Database, card: TrackerCardRow) {
  const [row] = await db
    .select()
    .from(projectIntegrations)
    .where(
      and(eq(projectIntegrations.projectId, card.projectId), eq(projectIntegrations.type, card.tracker)),
    );
  return row ?? null;
}

/**
 * Makes a pending card at the tracker, if it is still pending and nobody holds it. "created": made now;
 * "skipped": made already, held by another attempt, or the tracker is gone; a failure throws.
 */
export async function makeCard(ctx: Ctx, cardId: string): Promise<"created" | "skipped"> {
  const { db } = ctx.database;
  const now = new Date();
  const [card] = await db
    .update(trackerCards)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${trackerCards.attempts} + 1` })
    .where(
      and(
        eq(trackerCards.id, cardId),
        eq(trackerCards.status, "pending"),
        or(isNull(trackerCards.leaseUntil), lt(trackerCards.leaseUntil, now)),
      ),
    )
    .returning();
  if (!card) return "skipped";
  const integration = await integrationFor(db, card);
  const destination = integration ? trackerConfigOf(integration).destination : null;
  const token = integration ? trackerSecrets(ctx).open(integration).token : undefined;
  if (!integration?.isEnabled || !destination || !token) {
    // Disconnected, disabled or without a list meanwhile: nothing will make it; the pending row goes.
    await db.delete(trackerCards).where(eq(trackerCards.id, card.id));
    return "skipped";
  }
  try {
    const content = await cardContent(ctx, db, card.projectId, card.subject, card.subjectId);
    const tracker = requireTracker(ctx, card.tracker);
    const made = await withTrackerToken(ctx, tracker, integration, (current) =>
      tracker.createCard(current, destination, content),
    );
    await db
      .update(trackerCards)
      .set({ status: "created", externalId: made.id, url: made.url, leaseUntil: null, lastError: null })
      .where(eq(trackerCards.id, card.id));
    await renewWatch(ctx, tracker, integration);
    return "created";
  } catch (error) {
    await db
      .update(trackerCards)
      .set({ leaseUntil: null, lastError: (error as Error).message.slice(0, 500) })
      .where(eq(trackerCards.id, card.id));
    throw error;
  }
}

/** Where a card's subject keeps its resolved state. */
function subjectTable(subject: TrackerCardRow["subject"]) {
  if (subject === "comment") return { table: comments, id: comments.id, isResolved: comments.isResolved };
  if (subject === "edit")
    return { table: inspectChanges, id: inspectChanges.id, isResolved: inspectChanges.isResolved };
  return { table: tickets, id: tickets.id, isResolved: tickets.isResolved };
}

/**
 * Brings a made card to its subject's state: a resolved comment's, edit's or ticket's card closed, a
 * reopened one open.
 */
export async function syncCard(ctx: Ctx, cardId: string): Promise<"synced" | "skipped"> {
  const { db } = ctx.database;
  const [card] = await db.select().from(trackerCards).where(eq(trackerCards.id, cardId));
  if (card?.status !== "created" || !card.externalId) return "skipped";
  const subject = subjectTable(card.subject);
  const [row] = await db
    .select({ isResolved: subject.isResolved })
    .from(subject.table)
    .where(eq(subject.id, card.subjectId));
  if (!row || row.isResolved === card.isClosed) return "skipped";
  const integration = await integrationFor(db, card);
  const token = integration?.isEnabled ? trackerSecrets(ctx).open(integration).token : undefined;
  if (!integration || !token) return "skipped";
  const closed = row.isResolved;
  const tracker = requireTracker(ctx, card.tracker);
  const externalId = card.externalId;
  try {
    await withTrackerToken(ctx, tracker, integration, (current) =>
      tracker.setClosed(current, externalId, closed),
    );
  } catch (error) {
    // Deleted at the tracker: nothing is left to follow the subject (retrying would not change that).
    if (isTrackerFailure(error) && error.status === 404) return "skipped";
    throw error;
  }
  await renewWatch(ctx, tracker, integration);
  // Only while the subject still reads so: if the tracker's webhook reopened it meanwhile (the card
  // reopened there), the row already says what the tracker says, and writing `closed` would undo it.
  await db
    .update(trackerCards)
    .set({ isClosed: closed })
    .where(
      and(
        eq(trackerCards.id, card.id),
        sql`exists (select 1 from ${subject.table} where ${subject.id} = ${card.subjectId} and ${subject.isResolved} = ${closed})`,
      ),
    );
  return "synced";
}

/** Works the tracker queue in this process (every app process and worker may). */
export async function startTrackerCards(ctx: Ctx): Promise<void> {
  await ctx.queue.createQueue(TRACKER_QUEUE);
  await ctx.queue.work<CardJob>(
    TRACKER_QUEUE,
    { batchSize: 4, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      // One failing job fails the batch's promise: each is retried by the queue (made/synced ones skip).
      await Promise.all(
        jobs.map((job) =>
          job.data.op === "create" ? makeCard(ctx, job.data.cardId) : syncCard(ctx, job.data.cardId),
        ),
      );
    },
  );
}
