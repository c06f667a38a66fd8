/**
 * The webhooks consumer: reads the ledger after its durable cursor and, for each event a webhook may be
 * told of (integration-events.ts), makes one delivery per enabled endpoint of the event's project that chose it —
 * in one transaction with the cursor's advance, the (endpoint, event) pair unique, so each is made exactly
 * once — and asks the queue for its first attempt in the same transaction (webhook-delivery.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { projectIntegrations, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import type { RecordedEvent } from "../../lib/ledger.ts";
import { actorOf, OUTWARD_TYPES, type OutwardRecorded, outwardEventOf } from "./integration-events.ts";
import { enqueueWebhookDelivery } from "./webhook-delivery.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export async function handleWebhookEvent(
  ctx: Pick<AppContext, "config" | "queue">,
  tx: Tx,
  recorded: RecordedEvent<OutwardRecorded>,
): Promise<void> {
  const mapped = outwardEventOf(recorded.event, ctx.config.appUrl);
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

export function startWebhooksConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<OutwardRecorded>({
    name: "webhooks",
    accepts: (event): event is OutwardRecorded => OUTWARD_TYPES.has(event.type),
    handle: (tx, _event, recorded) => handleWebhookEvent(ctx, tx, recorded),
  });
}
