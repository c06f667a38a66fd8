/**
 * What happens to a PayPal subscription in the stand-in, each inside one provider transaction with the
 * subscription row locked: the buyer approves it (ACTIVE, the first payment as a completed transaction,
 * BILLING.SUBSCRIPTION.ACTIVATED and PAYMENT.SALE.COMPLETED), it is suspended (a test control) or
 * cancelled (the API or a test control). Approving twice is harmless: the second finds it ACTIVE.
 */
import type { PaypalPlan, PaypalSubscription, PaypalSubscriptionStatus } from "@redline/shared/paypal";
import { present } from "../stripe/provider-store.ts";
import { addInterval } from "../stripe/stripe-objects.ts";
import {
  paypalId,
  paypalTime,
  type StoredSubscription,
  saleResource,
  subscriptionLinks,
  transactionObject,
  unprocessable,
} from "./paypal-objects.ts";
import type { PaypalWrite } from "./paypal-store.ts";

/** The plan's regular cycle: its price per unit and how long a period lasts. */
export function regularCycle(plan: PaypalPlan) {
  const cycle = plan.billing_cycles.find((c) => c.tenure_type === "REGULAR") ?? plan.billing_cycles[0]!;
  const { interval_unit: unit, interval_count: count } = cycle.frequency;
  return { cycle, unit, count, price: cycle.pricing_scheme.fixed_price };
}

function nextBillingTime(plan: PaypalPlan, from: Date): string {
  const { unit, count } = regularCycle(plan);
  const interval = unit === "YEAR" ? "year" : unit === "MONTH" ? "month" : unit === "WEEK" ? "week" : "day";
  return paypalTime(new Date(addInterval(Math.floor(from.getTime() / 1000), interval, count) * 1000));
}

async function saveState(store: PaypalWrite, subscription: StoredSubscription): Promise<StoredSubscription> {
  const saved = { ...subscription, links: subscriptionLinks(store.urls, subscription) };
  await store.save("subscription", saved);
  return saved;
}

export async function approveSubscription(store: PaypalWrite, id: string): Promise<StoredSubscription> {
  const subscription = await store.get<StoredSubscription>("subscription", id, true);
  if (subscription.status === "ACTIVE") return subscription;
  if (subscription.status !== "APPROVAL_PENDING")
    throw unprocessable(
      "SUBSCRIPTION_STATUS_INVALID",
      "This subscription is no longer waiting for approval.",
    );
  const plan = await store.get<PaypalPlan>("plan", subscription.plan_id);
  const { cycle, price } = regularCycle(plan);
  const now = new Date();
  const subscriber = {
    email_address: subscription.subscriber?.email_address ?? "buyer@example.com",
    payer_id: paypalId("", 13),
    name: { given_name: "Test", surname: "Buyer" },
  };
  const gross = Number(price.value) * Number(subscription.quantity);
  const transaction = await store.insert(
    "transaction",
    transactionObject(gross, price.currency_code, subscriber),
    {
      owner: id,
    },
  );
  const active = await saveState(store, {
    ...subscription,
    status: "ACTIVE",
    status_update_time: paypalTime(now),
    start_time: paypalTime(now),
    subscriber,
    billing_info: {
      outstanding_balance: { currency_code: price.currency_code, value: "0.00" },
      cycle_executions: [
        {
          tenure_type: cycle.tenure_type,
          sequence: cycle.sequence,
          cycles_completed: 1,
          cycles_remaining: cycle.total_cycles === 0 ? 0 : cycle.total_cycles - 1,
          total_cycles: cycle.total_cycles,
        },
      ],
      last_payment: { amount: transaction.amount_with_breakdown.gross_amount, time: transaction.time },
      next_billing_time: nextBillingTime(plan, now),
      failed_payments_count: 0,
    },
    update_time: paypalTime(now),
  });
  await store.emit("BILLING.SUBSCRIPTION.ACTIVATED", "subscription", present(active), id);
  await store.emit("PAYMENT.SALE.COMPLETED", "sale", saleResource(transaction, active), id);
  return active;
}

const TRANSITIONS = {
  SUSPENDED: { from: ["ACTIVE"], event: "BILLING.SUBSCRIPTION.SUSPENDED" },
  CANCELLED: { from: ["ACTIVE", "SUSPENDED"], event: "BILLING.SUBSCRIPTION.CANCELLED" },
} satisfies Record<string, { from: PaypalSubscriptionStatus[]; event: string }>;

/** Suspends or cancels a subscription, as PayPal allows: only from ACTIVE (or SUSPENDED, to cancel). */
export async function endSubscription(
  store: PaypalWrite,
  id: string,
  to: keyof typeof TRANSITIONS,
): Promise<StoredSubscription> {
  const subscription = await store.get<StoredSubscription>("subscription", id, true);
  const transition = TRANSITIONS[to];
  if (!(transition.from as PaypalSubscriptionStatus[]).includes(subscription.status))
    throw unprocessable(
      "SUBSCRIPTION_STATUS_INVALID",
      `Invalid subscription status for this action; subscription status should be ${transition.from.join(" or ").toLowerCase()}.`,
    );
  const now = paypalTime();
  const billingInfo: PaypalSubscription["billing_info"] = subscription.billing_info && {
    ...subscription.billing_info,
  };
  if (billingInfo && to === "CANCELLED") delete billingInfo.next_billing_time;
  const ended = await saveState(store, {
    ...subscription,
    status: to,
    status_update_time: now,
    update_time: now,
    ...(billingInfo && { billing_info: billingInfo }),
  });
  await store.emit(transition.event, "subscription", present(ended), id);
  return ended;
}
