/**
 * What happens to subscriptions, as Stripe does it: checkout creates one, cancelling sets or clears
 * cancel_at_period_end or ends it now, renewals advance the period and charge the card (plan changes
 * and invoice settlement: plan-changes.ts). Every flow runs inside one provider transaction; rows are
 * locked in one order — checkout session, customer, subscription, invoice — so flows never deadlock.
 */
import { attachCard, billInvoice } from "./charges.ts";
import { invoiceLine, subscriptionItemObject, subscriptionObject } from "./object-builders.ts";
import { changedFields, type ProviderTransaction } from "./provider-store.ts";
import { StripeApiError } from "./stripe-errors.ts";
import {
  addInterval,
  type CardBehavior,
  type CheckoutSessionObject,
  type CustomerObject,
  type MetadataUpdate,
  mergeMetadata,
  newId,
  nowSeconds,
  type ProductObject,
  type SubscriptionItemObject,
  type SubscriptionObject,
  unitAmountIn,
} from "./stripe-objects.ts";

export async function saveSubscription(
  store: ProviderTransaction,
  before: SubscriptionObject,
  after: SubscriptionObject,
) {
  await store.save(after);
  const changed = changedFields(before, after);
  const type = after.status === "canceled" && before.status !== "canceled" ? "deleted" : "updated";
  if (Object.keys(changed).length > 0) await store.emit(`customer.subscription.${type}`, after, changed);
  return after;
}

/** Product names by product id, for invoice lines. */
export async function productNames(store: ProviderTransaction, items: SubscriptionItemObject[]) {
  const names = new Map<string, string>();
  for (const { price } of items) {
    const product = await store.find<ProductObject>(price.product, "product");
    if (product) names.set(product.id, product.name);
  }
  return names;
}

export function refuseEnded(subscription: SubscriptionObject) {
  if (subscription.status === "canceled" || subscription.status === "incomplete_expired")
    throw new StripeApiError(
      400,
      "A canceled subscription can only update its cancellation_details and metadata.",
    );
}

/**
 * Pays an open checkout session with a 4242 card ("succeed") or a 3184 card ("requires_action"). The
 * session row is locked: a second pay (double click, another tab) finds it complete and creates nothing.
 */
export async function completeCheckout(
  store: ProviderTransaction,
  appUrl: string,
  sessionId: string,
  behavior: Exclude<CardBehavior, "decline">,
): Promise<{ session: CheckoutSessionObject; created: boolean }> {
  const session = await store.lock<CheckoutSessionObject>("checkout.session", sessionId);
  if (session.status === "complete") return { session, created: false };
  if (session.status !== "open") throw new StripeApiError(404, "This checkout session has expired.");
  const customer = await store.lock<CustomerObject>("customer", String(session.customer));
  const paymentMethod = await attachCard(store, customer, behavior);
  const line = session.line_items.data[0]!;
  const start = nowSeconds();
  const id = newId("sub");
  const item = subscriptionItemObject({
    subscription: id,
    price: line.price,
    quantity: line.quantity ?? 1,
    start,
    end: addInterval(start, line.price.recurring.interval),
  });
  const metadata = session._subscription_data?.metadata ?? {};
  const names = await productNames(store, [item]);
  // Billed in the checkout's currency (the price's own, or one of its currency options).
  const currency = session.currency ?? line.price.currency;
  let subscription = subscriptionObject({
    id,
    customer: customer.id,
    currency,
    item,
    metadata,
    paymentMethod: paymentMethod.id,
  });
  await store.insert(subscription);
  const { invoice } = await billInvoice(store, {
    appUrl,
    customer,
    subscription,
    billingReason: "subscription_create",
    lines: (invoiceId) => [
      invoiceLine({
        invoice: invoiceId,
        subscription,
        item,
        amount: (unitAmountIn(line.price, currency) ?? 0) * (item.quantity ?? 1),
        description: `${item.quantity ?? 1} × ${names.get(line.price.product) ?? line.price.id}`,
        proration: false,
        start: item.current_period_start,
        end: item.current_period_end,
      }),
    ],
    start: item.current_period_start,
    end: item.current_period_end,
  });
  const paid = invoice.status === "paid";
  subscription = await store.save({
    ...subscription,
    latest_invoice: invoice.id,
    status: paid ? "active" : "incomplete",
  });
  await store.emit("customer.subscription.created", subscription);
  const completed = await store.save<CheckoutSessionObject>({
    ...session,
    status: "complete",
    payment_status: paid ? "paid" : "unpaid",
    subscription: subscription.id,
    invoice: invoice.id,
    url: null,
  });
  await store.emit("checkout.session.completed", completed);
  return { session: completed, created: true };
}

export async function setCancelAtPeriodEnd(
  store: ProviderTransaction,
  id: string,
  cancel: boolean,
  metadata?: MetadataUpdate,
): Promise<SubscriptionObject> {
  const before = await store.lock<SubscriptionObject>("subscription", id);
  refuseEnded(before);
  const periodEnd = before.items.data[0]?.current_period_end ?? null;
  return saveSubscription(store, before, {
    ...before,
    metadata: mergeMetadata(before.metadata, metadata),
    cancel_at_period_end: cancel,
    cancel_at: cancel ? periodEnd : null,
    canceled_at: cancel ? nowSeconds() : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: cancel ? "cancellation_requested" : null,
    },
  });
}

/**
 * `trial_end` on update: as on Stripe, a future timestamp puts the subscription on trial until then
 * (status trialing, the current period ending with the trial); the period's end bills it as a renewal.
 */
export async function setTrialEnd(
  store: ProviderTransaction,
  id: string,
  trialEnd: number,
): Promise<SubscriptionObject> {
  const before = await store.lock<SubscriptionObject>("subscription", id);
  refuseEnded(before);
  if (trialEnd <= nowSeconds())
    throw new StripeApiError(400, "Invalid timestamp: must be an integer Unix timestamp in the future.", {
      param: "trial_end",
    });
  if (before.status === "incomplete")
    throw new StripeApiError(
      400,
      "An incomplete subscription cannot start a trial: its first invoice is unpaid.",
    );
  return saveSubscription(store, before, {
    ...before,
    status: "trialing",
    trial_start: before.trial_start ?? nowSeconds(),
    trial_end: trialEnd,
    cancel_at: before.cancel_at_period_end ? trialEnd : before.cancel_at,
    items: {
      ...before.items,
      data: before.items.data.map((item) => ({ ...item, current_period_end: trialEnd })),
    },
  });
}

/**
 * Smart Retries gave up on a past_due subscription and the account is set to mark it unpaid (Stripe's
 * "if all retries fail" setting): the invoice stays open, the subscription is unpaid.
 */
export async function exhaustRetries(store: ProviderTransaction, id: string): Promise<SubscriptionObject> {
  const before = await store.lock<SubscriptionObject>("subscription", id);
  refuseEnded(before);
  if (before.status !== "past_due")
    throw new StripeApiError(
      400,
      `Only a past_due subscription runs out of retries (this one is ${before.status}).`,
    );
  return saveSubscription(store, before, { ...before, status: "unpaid" });
}

export async function updateMetadata(store: ProviderTransaction, id: string, metadata: MetadataUpdate) {
  const before = await store.lock<SubscriptionObject>("subscription", id);
  return saveSubscription(store, before, { ...before, metadata: mergeMetadata(before.metadata, metadata) });
}

/** DELETE /v1/subscriptions/:id: ends it now. */
export async function cancelNow(store: ProviderTransaction, id: string): Promise<SubscriptionObject> {
  const before = await store.lock<SubscriptionObject>("subscription", id);
  refuseEnded(before);
  const now = nowSeconds();
  return saveSubscription(store, before, {
    ...before,
    status: "canceled",
    canceled_at: before.canceled_at ?? now,
    ended_at: now,
    pending_update: null,
    cancellation_details: {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: "cancellation_requested",
    },
  });
}

/**
 * The period ends: a subscription set to cancel ends; otherwise the next period is billed with the
 * customer's card (or made to fail): paid → active, else past_due with an open invoice.
 */
export async function renew(
  store: ProviderTransaction,
  appUrl: string,
  id: string,
  options: { fail: boolean },
): Promise<SubscriptionObject> {
  const before = await store.lock<SubscriptionObject>("subscription", id);
  refuseEnded(before);
  if (before.status === "incomplete")
    throw new StripeApiError(400, "An incomplete subscription does not renew: its first invoice is unpaid.");
  if (before.cancel_at_period_end) {
    if (options.fail)
      throw new StripeApiError(400, "This subscription ends at the period's end: it does not renew.");
    return saveSubscription(store, before, {
      ...before,
      status: "canceled",
      ended_at: nowSeconds(),
      pending_update: null,
    });
  }
  const items = before.items.data.map((item) => ({
    ...item,
    current_period_start: item.current_period_end,
    current_period_end: addInterval(item.current_period_end, item.price.recurring.interval),
  }));
  const first = items[0]!;
  const customer = await store.get<CustomerObject>("customer", String(before.customer));
  const renewed = { ...before, items: { ...before.items, data: items } };
  const names = await productNames(store, items);
  const { invoice } = await billInvoice(store, {
    appUrl,
    customer,
    subscription: renewed,
    billingReason: "subscription_cycle",
    lines: (invoiceId) =>
      items.map((item) =>
        invoiceLine({
          invoice: invoiceId,
          subscription: renewed,
          item,
          amount: (unitAmountIn(item.price, renewed.currency) ?? 0) * (item.quantity ?? 1),
          description: `${item.quantity ?? 1} × ${names.get(item.price.product) ?? item.price.id}`,
          proration: false,
          start: item.current_period_start,
          end: item.current_period_end,
        }),
      ),
    start: first.current_period_start,
    end: first.current_period_end,
    ...(options.fail && { behavior: "decline" as const }),
  });
  return saveSubscription(store, before, {
    ...renewed,
    latest_invoice: invoice.id,
    status: invoice.status === "paid" ? "active" : "past_due",
  });
}
