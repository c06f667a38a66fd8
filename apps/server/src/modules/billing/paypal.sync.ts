/**
 * PayPal subscriptions as we keep them: read from PayPal (never from a webhook's payload; translated by
 * integrations/paypal) and written by billing.sync.ts `recordSubscription` as provider "second" — the same
 * row, the same user-row lock and the same rewrite of `held_subscriptions` as card subscriptions.
 */
import type { PaypalSubscription } from "@redline/shared/paypal";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { billingEvents } from "../../db/schema/index.ts";
import { type PaypalClient, paypalSnapshot } from "../../integrations/paypal/index.ts";
import { recordSubscription } from "./billing.sync.ts";

/** Records a subscription as PayPal has it now; returns its user, or null when it is not ours. */
export async function recordPaypalSubscription(
  db: Database,
  paypal: PaypalClient,
  subscription: PaypalSubscription,
  readAt: Date,
): Promise<string | null> {
  const snapshot = await paypalSnapshot(paypal, subscription);
  return snapshot ? recordSubscription(db, snapshot, readAt, "second") : null;
}

/** Re-reads one subscription from PayPal and records it. */
export async function syncPaypalSubscription(
  db: Database,
  paypal: PaypalClient,
  id: string,
): Promise<string | null> {
  const readAt = new Date();
  const subscription = await paypal.getSubscription(id);
  return subscription ? recordPaypalSubscription(db, paypal, subscription, readAt) : null;
}

/**
 * A verified PayPal webhook event, handled once: its subscription (if it names one) re-read from PayPal and
 * recorded, then the event recorded as handled — a failure before that leaves it unrecorded, so PayPal's
 * retry is handled; a delivery seen before changes nothing.
 */
export async function handlePaypalEvent(
  db: Database,
  paypal: PaypalClient,
  event: { id: string; type: string; subscriptionId: string | null },
): Promise<"handled" | "duplicate"> {
  const [seen] = await db.select().from(billingEvents).where(eq(billingEvents.id, event.id));
  if (seen) return "duplicate";
  if (event.subscriptionId) await syncPaypalSubscription(db, paypal, event.subscriptionId);
  await db.insert(billingEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
  return "handled";
}
