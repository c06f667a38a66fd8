/**
 * Stripe's subscriptions in our words (integrations/payments.ts): the plan id read from the price's
 * lookup key, the payment issue SPEC §4 asks about read from the customer's payment intents, and the
 * amount charged in the subscription's currency.
 */
import { hasPaymentIssue, needsPaymentCheck, parsePlanId } from "@redline/shared";
import type Stripe from "stripe";
import type { SubscriptionSnapshot } from "../payments.ts";

/**
 * Prices carry the plan id in their lookup key: `redline_<planId>_<currency>`, and for the catalog's
 * multi-currency prices the rates table they were made from (`redline_pro-yearly_usd_fx20250630`).
 */
export const priceLookupKey = (planId: string, currency: string, rates?: string) =>
  `redline_${planId}_${currency.toLowerCase()}${rates ? `_${rates}` : ""}`;

export function planIdOfPrice(price: Stripe.Price | string | null | undefined): string | null {
  if (!price || typeof price === "string") return null;
  const match = /^redline_([^_]+)_[a-z]{3}(?:_[a-z0-9]+)?$/.exec(price.lookup_key ?? "");
  const planId = match?.[1] ?? price.metadata?.planID ?? null;
  return planId && parsePlanId(planId) ? planId : null;
}

/** A provider reference that may come expanded (an object) or as its id. */
export const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === "string" ? value : value.id;

/**
 * What one unit of `price` costs in `currency` (minor units): its default amount, or one of its
 * currency options — which Stripe sends only when asked for (an "includable" field; nested under a
 * list of subscriptions it would exceed the four levels `expand` allows), so the price is read again.
 */
export async function unitAmountIn(
  stripe: Stripe,
  price: Stripe.Price | undefined,
  currency: string,
): Promise<number> {
  if (!price) return 0;
  if (price.currency === currency) return price.unit_amount ?? 0;
  const options =
    price.currency_options ??
    (await stripe.prices.retrieve(price.id, { expand: ["currency_options"] })).currency_options;
  const option = options?.[currency];
  if (option?.unit_amount == null)
    throw new Error(`price ${price.id} has no amount in ${currency} (subscription in that currency)`);
  return option.unit_amount;
}

export async function snapshotOf(
  stripe: Stripe,
  subscription: Stripe.Subscription,
): Promise<SubscriptionSnapshot | null> {
  const item = subscription.items.data[0];
  const planId = planIdOfPrice(item?.price) ?? subscription.metadata?.planID ?? null;
  if (!planId || !parsePlanId(planId)) return null;
  const pendingItem = subscription.pending_update?.subscription_items?.[0];
  let pendingPrice = pendingItem?.price ?? null;
  if (pendingItem && typeof pendingPrice === "string")
    pendingPrice = await stripe.prices.retrieve(pendingPrice);
  const pendingPlanId = pendingItem ? (planIdOfPrice(pendingPrice) ?? "unknown") : null;
  const customerId = idOf(subscription.customer);
  let paymentIssue = false;
  if (customerId && needsPaymentCheck(subscription.status, pendingPlanId !== null)) {
    const intents = await stripe.paymentIntents.list({ customer: customerId, limit: 10 });
    paymentIssue = hasPaymentIssue(
      subscription.status,
      pendingPlanId !== null,
      intents.data.map((intent) => intent.status),
    );
  }
  return {
    id: subscription.id,
    customerId,
    uid: subscription.metadata?.uid ?? null,
    planId,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    pendingPlanId,
    pendingExpiresAt: subscription.pending_update
      ? new Date(subscription.pending_update.expires_at * 1000)
      : null,
    paymentIssue,
    // Charged in the subscription's currency, which may be one of its price's currency options.
    amount: (await unitAmountIn(stripe, item?.price, subscription.currency)) * (item?.quantity ?? 1),
    currency: subscription.currency,
  };
}
