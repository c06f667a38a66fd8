/**
 * Plan changes with payment_behavior=pending_if_incomplete, as Stripe does them: the prorated
 * difference is invoiced and charged at once; paid, the new price applies now, otherwise it waits in
 * `pending_update` (23 hours) until its invoice is paid on the hosted invoice page — then it applies —
 * or voided — then it is discarded. Locks: customer, subscription, invoice, in that order.
 */
import { attachCard, billInvoice, settleInvoice, voidOpenInvoice } from "./charges.ts";
import { invoiceLine } from "./object-builders.ts";
import type { ProviderTransaction } from "./provider-store.ts";
import { StripeApiError } from "./stripe-errors.ts";
import {
  addInterval,
  type CustomerObject,
  type InvoiceObject,
  nowSeconds,
  type PriceObject,
  type SubscriptionItemObject,
  type SubscriptionObject,
  unitAmountIn,
} from "./stripe-objects.ts";
import { productNames, refuseEnded, saveSubscription } from "./subscription-flows.ts";

/** A pending update lasts 23 hours, as on Stripe. */
const PENDING_UPDATE_SECONDS = 23 * 60 * 60;

const subscriptionOf = (invoice: InvoiceObject) => {
  const id = invoice.parent?.subscription_details?.subscription;
  return typeof id === "string" ? id : (id?.id ?? null);
};

/**
 * Changes the subscription's item to `price`, charging the prorated difference at once. Paid → the
 * change applies now; otherwise it waits in `pending_update` until the invoice is paid (or voided).
 */
export async function changePlan(
  store: ProviderTransaction,
  appUrl: string,
  input: { subscription: string; item: string; price: string; quantity?: number },
): Promise<SubscriptionObject> {
  const before = await store.lock<SubscriptionObject>("subscription", input.subscription);
  refuseEnded(before);
  const current = before.items.data.find((item) => item.id === input.item);
  if (!current)
    throw new StripeApiError(400, `No such subscription item: '${input.item}'`, {
      code: "resource_missing",
      param: "items[0][id]",
    });
  const price = await store.get<PriceObject>("price", input.price, "items[0][price]");
  // The subscription stays in its currency: the new price must have an amount in it.
  const newUnit = unitAmountIn(price, before.currency);
  if (newUnit === null)
    throw new StripeApiError(
      400,
      `The price has no amount in the subscription's currency (${before.currency}): neither its currency (${price.currency}) nor one of its currency_options.`,
      { param: "items[0][price]" },
    );
  let subscription = before;
  if (before.pending_update && typeof before.latest_invoice === "string") {
    // A new change replaces one still waiting for its payment: its invoice is voided first.
    const waiting = await store.lock<InvoiceObject>("invoice", before.latest_invoice);
    if (waiting.status === "open") await voidOpenInvoice(store, waiting);
    subscription = { ...before, pending_update: null };
  }
  const now = nowSeconds();
  const quantity = input.quantity ?? current.quantity ?? 1;
  const span = Math.max(1, current.current_period_end - current.current_period_start);
  const remaining = Math.min(1, Math.max(0, current.current_period_end - now) / span);
  const oldAmount = (unitAmountIn(current.price, before.currency) ?? 0) * (current.quantity ?? 1);
  const newAmount = newUnit * quantity;
  const sameInterval = price.recurring.interval === current.price.recurring.interval;
  // Same interval: the difference for the time left; a new interval starts a new period now.
  const amount = Math.max(
    0,
    sameInterval
      ? Math.round((newAmount - oldAmount) * remaining)
      : newAmount - Math.round(oldAmount * remaining),
  );
  const changed: SubscriptionItemObject = {
    ...current,
    price,
    quantity,
    ...(!sameInterval && {
      current_period_start: now,
      current_period_end: addInterval(now, price.recurring.interval),
    }),
  };
  const names = await productNames(store, [changed]);
  const customer = await store.get<CustomerObject>("customer", String(before.customer));
  const { invoice } = await billInvoice(store, {
    appUrl,
    customer,
    subscription,
    billingReason: "subscription_update",
    lines: (invoiceId) => [
      invoiceLine({
        invoice: invoiceId,
        subscription,
        item: changed,
        amount,
        description: `Remaining time on ${names.get(price.product) ?? price.id}`,
        proration: true,
        start: now,
        end: changed.current_period_end,
      }),
    ],
    start: now,
    end: changed.current_period_end,
  });
  const after: SubscriptionObject =
    invoice.status === "paid"
      ? {
          ...subscription,
          items: {
            ...subscription.items,
            data: subscription.items.data.map((item) => (item.id === changed.id ? changed : item)),
          },
          ...(!sameInterval && { billing_cycle_anchor: now }),
          latest_invoice: invoice.id,
        }
      : {
          ...subscription,
          latest_invoice: invoice.id,
          pending_update: {
            billing_cycle_anchor: sameInterval ? null : now,
            cancel_at_period_end: null,
            discount: null,
            discounts: null,
            expires_at: now + PENDING_UPDATE_SECONDS,
            metadata: null,
            subscription_items: [changed],
            trial_end: null,
            trial_from_plan: null,
          },
        };
  return saveSubscription(store, before, after);
}

/** The pending update's items replace the subscription's (its invoice was paid). */
function applyPendingUpdate(subscription: SubscriptionObject): SubscriptionObject {
  const update = subscription.pending_update;
  if (!update) return subscription;
  const replaced = new Map(update.subscription_items.map((item) => [item.id, item]));
  return {
    ...subscription,
    items: {
      ...subscription.items,
      data: subscription.items.data.map((item) => replaced.get(item.id) ?? item),
    },
    ...(update.billing_cycle_anchor && { billing_cycle_anchor: update.billing_cycle_anchor }),
    pending_update: null,
  };
}

/** The hosted invoice page's "Pay invoice": a new 4242 card pays it and what waited for it applies. */
export async function payInvoice(store: ProviderTransaction, invoiceId: string): Promise<InvoiceObject> {
  const unlocked = await store.get<InvoiceObject>("invoice", invoiceId);
  const customer = await store.lock<CustomerObject>("customer", String(unlocked.customer));
  const subscriptionId = subscriptionOf(unlocked);
  const before = subscriptionId ? await store.lock<SubscriptionObject>("subscription", subscriptionId) : null;
  const invoice = await store.lock<InvoiceObject>("invoice", invoiceId);
  if (invoice.status !== "open") return invoice;
  const paymentMethod = await attachCard(store, customer, "succeed", before?.id);
  const paid = await settleInvoice(store, invoice, paymentMethod);
  if (before) {
    let after: SubscriptionObject = { ...before, default_payment_method: paymentMethod.id };
    if (after.pending_update && after.latest_invoice === invoice.id) after = applyPendingUpdate(after);
    if (["incomplete", "past_due", "unpaid"].includes(after.status) && after.latest_invoice === invoice.id)
      after = { ...after, status: "active" };
    await saveSubscription(store, before, after);
  }
  return paid;
}

/** Voids an open invoice; a pending update waiting for it is discarded, as on Stripe. */
export async function voidInvoice(store: ProviderTransaction, invoiceId: string): Promise<InvoiceObject> {
  const unlocked = await store.get<InvoiceObject>("invoice", invoiceId);
  const subscriptionId = subscriptionOf(unlocked);
  const before = subscriptionId ? await store.lock<SubscriptionObject>("subscription", subscriptionId) : null;
  const invoice = await store.lock<InvoiceObject>("invoice", invoiceId);
  if (invoice.status !== "open")
    throw new StripeApiError(400, `You can only void open invoices; this one is ${invoice.status}.`, {
      code: "invoice_not_editable",
    });
  const voided = await voidOpenInvoice(store, invoice);
  if (before && before.latest_invoice === invoice.id) {
    let after = before;
    if (after.pending_update) after = { ...after, pending_update: null };
    if (after.status === "incomplete")
      after = { ...after, status: "incomplete_expired", ended_at: nowSeconds() };
    await saveSubscription(store, before, after);
  }
  return voided;
}
