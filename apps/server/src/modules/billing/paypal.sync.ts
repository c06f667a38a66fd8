/**
 * PayPal subscriptions as we keep them: read from PayPal (never from a webhook's payload) and written by
 * billing.sync.ts `recordSubscription` as provider "second" — the same row, the same user-row lock and
 * the same rewrite of `held_subscriptions` as card subscriptions. SPEC §4: a team plan's quantity is
 * multiplied by 5 in the plan id (quantity 2 of team-monthly → `team-monthly-x10`).
 */
import { parsePlanId, planIdOf, planPrice, type SubscriptionStatus, toMinorUnits } from "@redline/shared";
import type { PaypalSubscription, PaypalSubscriptionStatus } from "@redline/shared/paypal";
import type { Database } from "../../db/index.ts";
import { recordSubscription, type SubscriptionSnapshot } from "./billing.sync.ts";
import { PAYPAL_CURRENCY, type PaypalClient } from "./paypal-client.ts";

/** PayPal's states in our words: suspended is past_due (still held, SPEC §4), cancelled/expired ended. */
export const PAYPAL_STATUSES: Record<PaypalSubscriptionStatus, SubscriptionStatus> = {
  APPROVAL_PENDING: "incomplete",
  APPROVED: "incomplete",
  ACTIVE: "active",
  SUSPENDED: "past_due",
  CANCELLED: "canceled",
  EXPIRED: "canceled",
};

/** Our plan id of a PayPal subscription: its plan's, with quantity × 5 seats for a team plan. */
export async function planIdOfPaypalSubscription(
  paypal: PaypalClient,
  subscription: Pick<PaypalSubscription, "plan_id" | "quantity">,
): Promise<string | null> {
  const base = await paypal.planIdOf(subscription.plan_id);
  const plan = base ? parsePlanId(base) : null;
  if (!plan) return null;
  const quantity = Number(subscription.quantity ?? "1");
  if (plan.tier !== "team") return base;
  if (!Number.isInteger(quantity) || quantity < 1) return null;
  const planId = planIdOf({ ...plan, seats: quantity * 5 });
  return parsePlanId(planId) ? planId : null;
}

export async function paypalSnapshot(
  paypal: PaypalClient,
  subscription: PaypalSubscription,
): Promise<SubscriptionSnapshot | null> {
  const planId = await planIdOfPaypalSubscription(paypal, subscription);
  const plan = planId ? parsePlanId(planId) : null;
  if (!planId || !plan) return null;
  const next = subscription.billing_info?.next_billing_time;
  return {
    id: subscription.id,
    customerId: subscription.subscriber?.payer_id ?? null,
    uid: subscription.custom_id ?? null,
    planId,
    status: PAYPAL_STATUSES[subscription.status] ?? "incomplete",
    cancelAtPeriodEnd: false,
    currentPeriodEnd: next ? new Date(next) : null,
    pendingPlanId: null,
    pendingExpiresAt: null,
    paymentIssue: false,
    amount: toMinorUnits(planPrice(plan), PAYPAL_CURRENCY),
    currency: PAYPAL_CURRENCY.toLowerCase(),
  };
}

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
