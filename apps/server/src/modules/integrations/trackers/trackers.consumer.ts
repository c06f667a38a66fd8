/**
 * The trackers' durable consumer: reads the ledger after its cursor and, in the cursor's transaction,
 * (1) for a new comment or ticket, makes a pending card for each enabled tracker of the project whose
 * automatic rule is on, with its job (once, however often the event is read); (2) for a comment, edit suggestion or ticket resolved or reopened by a person, asks
 * for its cards that now disagree to follow (a `sync` job each). A change that came from a tracker (an
 * integration actor) is not sent back; its card already agrees.
 */

import { TRACKER_TYPES, type TrackerType } from "@redline/shared";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../../context.ts";
import type { Database } from "../../../db/index.ts";
import { inspectChanges, projectIntegrations, tickets, trackerCards } from "../../../db/schema/index.ts";
import { newId } from "../../../lib/ids.ts";
import type { LedgerEvent } from "../../../lib/ledger.ts";
import { enqueueCardJob } from "./trackers.cards.ts";
import { trackerConfigOf } from "./trackers.load.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

interface Recorded extends LedgerEvent {
  actor?: { userId?: string; guestIdentity?: string; integration?: string };
  ref?: { id: string; projectId: string };
  /** inspect.updated */
  versionId?: string;
  /** ticket.changed */
  states?: { ticketId: string }[];
  /** ticket.created */
  projectId?: string;
  state?: { ticketId: string };
}

/** The made cards of these subjects whose closed state differs from their subject's resolved one. */
async function enqueueDisagreeing(
  ctx: Pick<AppContext, "queue" | "config">,
  tx: Tx,
  subject: "edit" | "ticket",
  resolvedOf: SQL,
) {
  const cards = await tx
    .select({ id: trackerCards.id })
    .from(trackerCards)
    .where(
      and(
        eq(trackerCards.subject, subject),
        eq(trackerCards.status, "created"),
        // A subject elsewhere (another version, another ticket) reads NULL: never unequal.
        sql`${trackerCards.isClosed} <> (${resolvedOf})`,
      ),
    );
  for (const card of cards) await enqueueCardJob(ctx, { op: "sync", cardId: card.id }, { tx });
}

const isTracker = (type: string): type is TrackerType => (TRACKER_TYPES as readonly string[]).includes(type);

/**
 * The project's automatic rule: a pending card (and its job) in each enabled tracker whose rule is on and
 * whose destination is chosen. One card per (tracker, subject): an event read again (a replay, a consumer
 * restarted before its cursor moved) finds the card made and asks for nothing.
 */
async function makeAutomaticCards(
  ctx: Pick<AppContext, "queue" | "config">,
  tx: Tx,
  projectId: string,
  subject: "comment" | "ticket",
  subjectId: string,
) {
  const rows = await tx
    .select()
    .from(projectIntegrations)
    .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.isEnabled, true)));
  for (const row of rows) {
    const config = trackerConfigOf(row);
    if (!isTracker(row.type) || !config.autoCreate || !config.destination) continue;
    const [made] = await tx
      .insert(trackerCards)
      .values({ id: newId(), projectId, tracker: row.type, subject, subjectId, createdBy: row.createdBy })
      .onConflictDoNothing({ target: [trackerCards.tracker, trackerCards.subject, trackerCards.subjectId] })
      .returning({ id: trackerCards.id });
    if (made) await enqueueCardJob(ctx, { op: "create", cardId: made.id }, { tx });
  }
}

export async function handleTrackerEvent(ctx: Pick<AppContext, "queue" | "config">, tx: Tx, event: Recorded) {
  if (event.type === "inspect.updated" && event.versionId) {
    await enqueueDisagreeing(
      ctx,
      tx,
      "edit",
      sql`select ${inspectChanges.isResolved} from ${inspectChanges} where ${inspectChanges.id} = ${trackerCards.subjectId} and ${inspectChanges.versionId} = ${event.versionId}`,
    );
    return;
  }
  if (event.type === "ticket.changed" && event.states?.length) {
    const ids = event.states.map((state) => state.ticketId);
    await enqueueDisagreeing(
      ctx,
      tx,
      "ticket",
      sql`select ${tickets.isResolved} from ${tickets} where ${tickets.id} = ${trackerCards.subjectId} and ${tickets.id} in ${ids}`,
    );
    return;
  }
  if (event.type === "ticket.created" && event.projectId && event.state) {
    await makeAutomaticCards(ctx, tx, event.projectId, "ticket", event.state.ticketId);
    return;
  }
  const { ref } = event;
  if (!ref) return;
  if (event.type === "comment.created") {
    await makeAutomaticCards(ctx, tx, ref.projectId, "comment", ref.id);
    return;
  }
  if (event.type === "comment.updated" && !event.actor?.integration) {
    const cards = await tx
      .select({ id: trackerCards.id })
      .from(trackerCards)
      .where(
        and(
          eq(trackerCards.subject, "comment"),
          eq(trackerCards.subjectId, ref.id),
          eq(trackerCards.status, "created"),
        ),
      );
    for (const card of cards) await enqueueCardJob(ctx, { op: "sync", cardId: card.id }, { tx });
  }
}

const ACCEPTED = new Set([
  "comment.created",
  "comment.updated",
  "inspect.updated",
  "ticket.created",
  "ticket.changed",
]);

export function startTrackersConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<Recorded>({
    name: "trackers",
    accepts: (event): event is Recorded => ACCEPTED.has(event.type),
    handle: (tx, event) => handleTrackerEvent(ctx, tx, event),
  });
}
