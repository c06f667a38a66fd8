/**
 * PayPal's subscriptions and transactions in our words (integrations/payments.ts; the shared Billing
 * types). SPEC §4: a team plan's quantity is multiplied by 5 in the plan id (quantity 2 of team-monthly →
 * `team-monthly-x10`).
 */
import {
  type BillingInvoice,
  parsePlanId,
  planIdOf,
  planPrice,
  type SubscriptionStatus,
  toMinorUnits,
} from "@redline/shared";
import type { PaypalSubscription, PaypalSubscriptionStatus, PaypalTransaction } from "@redline/shared/paypal";
import type { SubscriptionSnapshot } from "../payments.ts";
import { PAYPAL_CURRENCY, type PaypalClient } from "./client.ts";

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

/** A PayPal subscription's transaction as a payment on /billing (in its own currency; PayPal has no page). */
export function presentPaypalTransaction(transaction: PaypalTransaction): BillingInvoice {
  const { value, currency_code: currency } = transaction.amount_with_breakdown.gross_amount;
  const amount = toMinorUnits(Number(value), currency);
  return {
    id: transaction.id,
    provider: "second",
    number: null,
    status: transaction.status.toLowerCase(),
    amountDue: amount,
    amountPaid: transaction.status === "COMPLETED" ? amount : 0,
    currency: currency.toLowerCase(),
    createdAt: new Date(transaction.time).toISOString(),
    url: null,
  };
}
