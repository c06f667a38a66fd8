/**
 * The webhooks consumer: reads the ledger after its durable cursor and, for each event a webhook may be
 * told of (WEBHOOK_EVENTS), makes one delivery per enabled endpoint of the event's project that chose it —
 * in one transaction with the cursor's advance, the (endpoint, event) pair unique, so each is made exactly
 * once — and asks the queue for its first attempt in the same transaction (webhook-delivery.ts).
 */
import { parseGuestIdentity, type WebhookEvent } from "@redline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { projectIntegrations, users, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import type { LedgerEvent, RecordedEvent } from "../../lib/ledger.ts";
import { enqueueWebhookDelivery } from "./webhook-delivery.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

interface Actor {
  userId?: string;
  guestIdentity?: string;
  guestName?: string;
}
interface Place {
  id?: string | null;
  projectId: string;
  pageId: string;
  versionId?: string;
}

interface CommentRef {
  id: string;
  projectId: string;
  pageId: string;
  versionId: string;
}

/**
 * The ledger events a webhook may carry, as their modules record them (comments.events.ts,
 * pages.events.ts, tickets.events.ts; a page added is still its notification's event, notify.ts).
 */
interface Recorded extends LedgerEvent {
  actor?: Actor;
  /** comment.created / replied / updated */
  ref?: CommentRef;
  text?: string;
  resolves?: boolean;
  /** page.approval */
  version?: Place;
  approved?: boolean;
  isChange?: boolean;
  /** ticket.created / replied / changed */
  projectId?: string;
  state?: { ticketId: string };
  states?: { ticketId: string }[];
  moved?: { fromListId: string | null; toListId: string };
  /** notify:page.added */
  event?: { on: string; actor?: Actor; version?: Place };
}

interface Mapped {
  type: WebhookEvent;
  projectId: string;
  data: Record<string, unknown>;
  actor: Actor | undefined;
}

function onPage(
  type: WebhookEvent,
  place: Place,
  actor: Actor | undefined,
  appUrl: string,
  more = {},
): Mapped {
  const versionId = place.versionId ?? place.id ?? null;
  return {
    type,
    projectId: place.projectId,
    actor,
    data: {
      projectId: place.projectId,
      pageId: place.pageId,
      versionId,
      ...more,
      url: `${appUrl}/project/${place.projectId}/${place.pageId}`,
    },
  };
}

function onTicket(
  type: WebhookEvent,
  projectId: string,
  ticketId: string,
  actor: Actor | undefined,
  appUrl: string,
  more = {},
): Mapped {
  return {
    type,
    projectId,
    actor,
    data: { projectId, ticketId, ...more, url: `${appUrl}/project/${projectId}` },
  };
}

export function webhookEventOf(recorded: Recorded, appUrl: string): Mapped | null {
  const { actor, ref, text, projectId } = recorded;
  switch (recorded.type) {
    case "comment.created":
    case "comment.replied":
      if (!ref) return null;
      return onPage(recorded.type, ref, actor, appUrl, {
        commentId: ref.id,
        ...(text !== undefined && { text }),
      });
    case "comment.updated":
      if (!ref || recorded.resolves !== true) return null;
      return onPage("comment.resolved", ref, actor, appUrl, { commentId: ref.id });
    case "page.approval":
      if (!recorded.version || recorded.approved !== true || recorded.isChange !== true) return null;
      return onPage("page.approved", recorded.version, actor, appUrl);
    case "page.added":
      if (!recorded.version) return null;
      return onPage("page.added", recorded.version, actor, appUrl);
    case "notify:page.added":
      // Recorded before pages had their own event (an older release's ledger).
      if (!recorded.event?.version) return null;
      return onPage("page.added", recorded.event.version, recorded.event.actor, appUrl);
    case "ticket.created":
    case "ticket.replied":
      if (!projectId || !recorded.state) return null;
      return onTicket(recorded.type, projectId, recorded.state.ticketId, actor, appUrl, {
        ...(text !== undefined && { text }),
      });
    case "ticket.changed": {
      const ticketId = recorded.states?.[0]?.ticketId;
      if (!projectId || !recorded.moved || !ticketId) return null;
      return onTicket("ticket.moved", projectId, ticketId, actor, appUrl, {
        fromListId: recorded.moved.fromListId,
        toListId: recorded.moved.toListId,
      });
    }
    default:
      return null;
  }
}

/** Who did it, as a receiver may be told: a person's name, or the guest's name (never an e-mail). */
async function actorOf(tx: Tx, actor: Actor | undefined): Promise<{ name: string; isGuest: boolean } | null> {
  if (!actor) return null;
  if (actor.userId) {
    const [user] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, actor.userId));
    return { name: user?.name ?? "", isGuest: false };
  }
  const name = actor.guestName ?? parseGuestIdentity(actor.guestIdentity)?.name;
  return { name: name || "Anonymous", isGuest: true };
}

export async function handleWebhookEvent(
  ctx: Pick<AppContext, "config" | "queue">,
  tx: Tx,
  recorded: RecordedEvent<Recorded>,
): Promise<void> {
  const mapped = webhookEventOf(recorded.event, ctx.config.appUrl);
  if (!mapped) return;
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .innerJoin(projectIntegrations, eq(projectIntegrations.id, webhookEndpoints.integrationId))
    .where(
      and(
        eq(webhookEndpoints.projectId, mapped.projectId),
        eq(projectIntegrations.isEnabled, true),
        sql`${mapped.type} = any(${webhookEndpoints.events})`,
      ),
    );
  if (endpoints.length === 0) return;
  const payload = {
    type: mapped.type,
    timestamp: recorded.createdAt.toISOString(),
    data: { ...mapped.data, actor: await actorOf(tx, mapped.actor) },
  };
  for (const endpoint of endpoints) {
    const [made] = await tx
      .insert(webhookDeliveries)
      .values({
        id: newId(),
        endpointId: endpoint.id,
        projectId: mapped.projectId,
        eventId: recorded.id,
        event: mapped.type,
        payload,
      })
      .onConflictDoNothing({ target: [webhookDeliveries.endpointId, webhookDeliveries.eventId] })
      .returning({ id: webhookDeliveries.id });
    if (made) await enqueueWebhookDelivery(ctx, made.id, { tx });
  }
}

const ACCEPTED = new Set([
  "comment.created",
  "comment.replied",
  "comment.updated",
  "page.approval",
  "page.added",
  "notify:page.added",
  "ticket.created",
  "ticket.replied",
  "ticket.changed",
]);

export function startWebhooksConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<Recorded>({
    name: "webhooks",
    accepts: (event): event is Recorded => ACCEPTED.has(event.type),
    handle: (tx, _event, recorded) => handleWebhookEvent(ctx, tx, recorded),
  });
}
