/**
 * Cards and charges. A customer's card is their default payment method, and its test number decides
 * every charge: 4242 succeeds, 0002 is declined, 3184 always asks for authentication. An invoice is
 * charged once when it is created (its payment intent records the outcome); paying it later from the
 * hosted invoice page settles it with a new 4242 card.
 */
import { invoiceObject, paymentIntentObject } from "./object-builders.ts";
import type { ProviderTransaction } from "./provider-store.ts";
import { changedFields } from "./provider-store.ts";
import {
  behaviorOfCard,
  type CardBehavior,
  type CustomerObject,
  type InvoiceLineObject,
  type InvoiceObject,
  type InvoicePaymentObject,
  newId,
  nowSeconds,
  type PaymentIntentObject,
  type PaymentMethodObject,
  paymentMethodObject,
  type SubscriptionObject,
} from "./stripe-objects.ts";

/** Subscription statuses that still bill. */
export const LIVE_STATUSES = new Set(["active", "past_due", "unpaid", "incomplete", "trialing"]);

export async function cardOf(
  store: ProviderTransaction,
  customer: CustomerObject,
  subscription?: SubscriptionObject,
): Promise<{ paymentMethod: PaymentMethodObject | null; behavior: CardBehavior }> {
  const defaultMethod =
    subscription?.default_payment_method ?? customer.invoice_settings.default_payment_method;
  const id = typeof defaultMethod === "string" ? defaultMethod : (defaultMethod?.id ?? null);
  const paymentMethod = id ? await store.find<PaymentMethodObject>(id, "payment_method") : null;
  return { paymentMethod, behavior: behaviorOfCard(paymentMethod?.card.last4) };
}

/**
 * Gives the (locked) customer a new card behaving as `behavior`, as their default payment method and
 * their live subscriptions' (except `skip`, which its caller saves itself).
 */
export async function attachCard(
  store: ProviderTransaction,
  customer: CustomerObject,
  behavior: CardBehavior,
  skip?: string,
): Promise<PaymentMethodObject> {
  const paymentMethod = await store.insert(paymentMethodObject(customer, behavior));
  customer.invoice_settings = { ...customer.invoice_settings, default_payment_method: paymentMethod.id };
  await store.save(customer);
  const subscriptions = await store.list<SubscriptionObject>("subscription", {
    customer: customer.id,
    limit: 100,
    url: "",
  });
  for (const { id, status } of subscriptions.data) {
    if (id === skip || !LIVE_STATUSES.has(status)) continue;
    const before = await store.lock<SubscriptionObject>("subscription", id);
    const after = { ...before, default_payment_method: paymentMethod.id };
    await store.save(after);
    await store.emit("customer.subscription.updated", after, changedFields(before, after));
  }
  return paymentMethod;
}

/** The invoice's record of its payment intent, before the charge's outcome is known. */
function invoicePayment(invoice: InvoiceObject, intent: PaymentIntentObject): InvoicePaymentObject {
  return {
    id: newId("inpay"),
    object: "invoice_payment",
    amount_paid: null,
    amount_requested: intent.amount,
    created: nowSeconds(),
    currency: intent.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: intent.id },
    status: "open",
    status_transitions: { canceled_at: null, paid_at: null },
  };
}

function markPaid(invoice: InvoiceObject, paymentMethod: string | null): InvoiceObject {
  const paidAt = nowSeconds();
  return {
    ...invoice,
    status: "paid",
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    default_payment_method: paymentMethod,
    status_transitions: { ...invoice.status_transitions, paid_at: paidAt },
    payments: {
      ...invoice.payments,
      data: invoice.payments.data.map((payment) => ({
        ...payment,
        status: "paid",
        amount_paid: payment.amount_requested,
        status_transitions: { ...payment.status_transitions, paid_at: paidAt },
      })),
    },
  };
}

/**
 * Creates a subscription's invoice and charges the card once: paid, or left open with a payment
 * intent that needs a new payment method (declined) or authentication. Emits Stripe's events.
 */
export async function billInvoice(
  store: ProviderTransaction,
  input: {
    appUrl: string;
    customer: CustomerObject;
    subscription: SubscriptionObject;
    billingReason: "subscription_create" | "subscription_cycle" | "subscription_update";
    lines: (invoice: string) => InvoiceLineObject[];
    start: number;
    end: number;
    /** Charge as if the card did this (a renewal made to fail), whatever the card is. */
    behavior?: CardBehavior;
  },
): Promise<{ invoice: InvoiceObject; intent: PaymentIntentObject | null }> {
  const id = newId("in");
  let invoice = invoiceObject({ ...input, id, lines: input.lines(id) });
  const card = await cardOf(store, input.customer, input.subscription);
  if (invoice.amount_due === 0) {
    await store.insert(invoice);
    await store.emit("invoice.created", invoice);
    invoice = await store.save(markPaid(invoice, card.paymentMethod?.id ?? null));
    await store.emit("invoice.paid", invoice);
    return { invoice, intent: null };
  }
  const behavior = input.behavior ?? card.behavior;
  const intent = await store.insert(
    paymentIntentObject({
      customer: input.customer.id,
      amount: invoice.amount_due,
      currency: invoice.currency,
      description:
        input.billingReason === "subscription_create" ? "Subscription creation" : "Subscription update",
      paymentMethod: card.paymentMethod,
      behavior,
    }),
  );
  invoice = {
    ...invoice,
    attempt_count: 1,
    attempted: true,
    confirmation_secret: { client_secret: intent.client_secret ?? "", type: "payment_intent" },
    payments: { ...invoice.payments, data: [invoicePayment(invoice, intent)] },
  };
  await store.insert(invoice);
  await store.emit("invoice.created", invoice);
  if (behavior === "succeed") {
    await store.emit("payment_intent.succeeded", intent);
    invoice = await store.save(markPaid(invoice, card.paymentMethod?.id ?? null));
    await store.emit("invoice.paid", invoice);
  } else if (behavior === "decline") {
    await store.emit("payment_intent.payment_failed", intent);
    await store.emit("invoice.payment_failed", invoice);
  } else {
    await store.emit("payment_intent.requires_action", intent);
    await store.emit("invoice.payment_action_required", invoice);
  }
  return { invoice, intent };
}

export function intentIdOf(invoice: InvoiceObject): string | null {
  const payment = invoice.payments.data[0]?.payment.payment_intent;
  return typeof payment === "string" ? payment : (payment?.id ?? null);
}

/** Settles an open invoice with `paymentMethod` (the hosted invoice page's card). */
export async function settleInvoice(
  store: ProviderTransaction,
  invoice: InvoiceObject,
  paymentMethod: PaymentMethodObject,
): Promise<InvoiceObject> {
  const intentId = intentIdOf(invoice);
  const intent = intentId ? await store.find<PaymentIntentObject>(intentId, "payment_intent") : null;
  if (intent && intent.status !== "succeeded") {
    const paid = await store.save<PaymentIntentObject>({
      ...intent,
      status: "succeeded",
      amount_received: intent.amount,
      payment_method: paymentMethod.id,
      last_payment_error: null,
      next_action: null,
      latest_charge: newId("ch"),
    });
    await store.emit("payment_intent.succeeded", paid);
  }
  const paid = await store.save(
    markPaid({ ...invoice, attempt_count: invoice.attempt_count + 1 }, paymentMethod.id),
  );
  await store.emit("invoice.paid", paid);
  return paid;
}

/** Voids an open invoice and cancels its payment intent. */
export async function voidOpenInvoice(
  store: ProviderTransaction,
  invoice: InvoiceObject,
): Promise<InvoiceObject> {
  const now = nowSeconds();
  const intentId = intentIdOf(invoice);
  const intent = intentId ? await store.find<PaymentIntentObject>(intentId, "payment_intent") : null;
  if (intent && intent.status !== "succeeded" && intent.status !== "canceled") {
    const canceled = await store.save<PaymentIntentObject>({
      ...intent,
      status: "canceled",
      canceled_at: now,
      cancellation_reason: "void_invoice",
      next_action: null,
    });
    await store.emit("payment_intent.canceled", canceled);
  }
  const voided = await store.save<InvoiceObject>({
    ...invoice,
    status: "void",
    amount_remaining: 0,
    status_transitions: { ...invoice.status_transitions, voided_at: now },
    payments: {
      ...invoice.payments,
      data: invoice.payments.data.map((payment) => ({
        ...payment,
        status: "canceled",
        status_transitions: { ...payment.status_transitions, canceled_at: now },
      })),
    },
  });
  await store.emit("invoice.voided", voided);
  return voided;
}
