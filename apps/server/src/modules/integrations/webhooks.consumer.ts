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

/** The ledger events a webhook may carry: the notification events (notify.ts) and `ticket.moved`. */
interface Recorded extends LedgerEvent {
  event?: {
    on: string;
    actor?: Actor;
    comment?: Place;
    version?: Place;
    ticket?: { id: string; projectId: string };
    text?: string;
    approved?: boolean;
  };
  projectId?: string;
  ticketId?: string;
  fromListId?: string;
  toListId?: string;
}

interface Mapped {
  type: WebhookEvent;
  projectId: string;
  data: Record<string, unknown>;
  actor: Actor | undefined;
}

const FROM_NOTIFY: Record<string, WebhookEvent> = {
  "notify:comment.created": "comment.created",
  "notify:comment.replied": "comment.replied",
  "notify:comment.resolved": "comment.resolved",
  "notify:page.added": "page.added",
  "notify:page.approval": "page.approved",
  "notify:ticket.created": "ticket.created",
  "notify:ticket.replied": "ticket.replied",
};

export function webhookEventOf(recorded: Recorded, appUrl: string): Mapped | null {
  if (recorded.type === "ticket.moved" && recorded.projectId && recorded.ticketId)
    return {
      type: "ticket.moved",
      projectId: recorded.projectId,
      actor: recorded.actor as Actor | undefined,
      data: {
        projectId: recorded.projectId,
        ticketId: recorded.ticketId,
        fromListId: recorded.fromListId ?? null,
        toListId: recorded.toListId ?? null,
        url: `${appUrl}/project/${recorded.projectId}`,
      },
    };
  const type = FROM_NOTIFY[recorded.type];
  const event = recorded.event;
  if (!type || !event) return null;
  if (type === "page.approved" && event.approved !== true) return null;
  const place = event.comment ?? event.version;
  if (place) {
    const versionId = "versionId" in place ? place.versionId : place.id;
    return {
      type,
      projectId: place.projectId,
      actor: event.actor,
      data: {
        projectId: place.projectId,
        pageId: place.pageId,
        versionId: versionId ?? null,
        ...(event.comment && { commentId: event.comment.id }),
        ...(event.text !== undefined && { text: event.text }),
        url: `${appUrl}/project/${place.projectId}/${place.pageId}`,
      },
    };
  }
  if (event.ticket)
    return {
      type,
      projectId: event.ticket.projectId,
      actor: event.actor,
      data: {
        projectId: event.ticket.projectId,
        ticketId: event.ticket.id,
        ...(event.text !== undefined && { text: event.text }),
        url: `${appUrl}/project/${event.ticket.projectId}`,
      },
    };
  return null;
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

const ACCEPTED = new Set([...Object.keys(FROM_NOTIFY), "ticket.moved"]);

export function startWebhooksConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<Recorded>({
    name: "webhooks",
    accepts: (event): event is Recorded => ACCEPTED.has(event.type),
    handle: (tx, _event, recorded) => handleWebhookEvent(ctx, tx, recorded),
  });
}
