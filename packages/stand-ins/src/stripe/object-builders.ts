/** New billing objects (sessions, subscriptions, invoices, payment intents) with Stripe's defaults. */
import {
  type CardBehavior,
  type CheckoutSessionObject,
  type CustomerObject,
  type InvoiceLineObject,
  type InvoiceObject,
  listOf,
  newId,
  nowSeconds,
  type PaymentIntentObject,
  type PaymentMethodObject,
  type PriceObject,
  type SubscriptionItemObject,
  type SubscriptionObject,
  unitAmountIn,
} from "./stripe-objects.ts";

type Metadata = Record<string, string>;

export function checkoutSessionObject(input: {
  appUrl: string;
  customer: string;
  price: PriceObject;
  /** The currency the customer pays in (the price's, or one of its currency options), and its amount. */
  currency: string;
  unitAmount: number;
  quantity: number;
  successUrl: string;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  metadata: Metadata;
  subscriptionMetadata: Metadata;
}): CheckoutSessionObject {
  const id = newId("cs_test");
  const created = nowSeconds();
  const amount = input.unitAmount * input.quantity;
  return {
    id,
    object: "checkout.session",
    amount_subtotal: amount,
    amount_total: amount,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    created,
    currency: input.currency,
    customer: input.customer,
    customer_email: null,
    expires_at: created + 24 * 60 * 60,
    invoice: null,
    livemode: false,
    metadata: input.metadata,
    mode: "subscription",
    payment_intent: null,
    payment_method_types: ["card"],
    payment_status: "unpaid",
    status: "open",
    subscription: null,
    success_url: input.successUrl,
    url: `${input.appUrl}/dev/payments/checkout/${id}`,
    line_items: listOf(
      [
        {
          id: newId("li"),
          object: "item",
          adjustable_quantity: null,
          amount_discount: 0,
          amount_subtotal: amount,
          amount_tax: 0,
          amount_total: amount,
          currency: input.currency,
          description: null,
          metadata: {},
          price: input.price,
          quantity: input.quantity,
        },
      ],
      `/v1/checkout/sessions/${id}/line_items`,
    ),
    _subscription_data: { metadata: input.subscriptionMetadata },
  };
}

export function subscriptionItemObject(input: {
  subscription: string;
  price: PriceObject;
  quantity: number;
  start: number;
  end: number;
}): SubscriptionItemObject {
  return {
    id: newId("si"),
    object: "subscription_item",
    billing_thresholds: null,
    created: nowSeconds(),
    current_period_end: input.end,
    current_period_start: input.start,
    discounts: [],
    metadata: {},
    price: input.price,
    quantity: input.quantity,
    subscription: input.subscription,
    tax_rates: [],
  };
}

export function subscriptionObject(input: {
  id: string;
  customer: string;
  /** What it is billed in: its checkout's currency. */
  currency: string;
  item: SubscriptionItemObject;
  metadata: Metadata;
  paymentMethod: string | null;
}): SubscriptionObject {
  const created = nowSeconds();
  return {
    id: input.id,
    object: "subscription",
    billing_cycle_anchor: input.item.current_period_start,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: "charge_automatically",
    created,
    currency: input.currency,
    customer: input.customer,
    days_until_due: null,
    default_payment_method: input.paymentMethod,
    default_source: null,
    description: null,
    discounts: [],
    ended_at: null,
    items: listOf([input.item], `/v1/subscription_items?subscription=${input.id}`),
    latest_invoice: null,
    livemode: false,
    metadata: input.metadata,
    pause_collection: null,
    pending_update: null,
    schedule: null,
    start_date: created,
    status: "incomplete",
    test_clock: null,
    trial_end: null,
    trial_start: null,
  };
}

/** A payment intent after one attempt with a card behaving as `behavior`. */
export function paymentIntentObject(input: {
  customer: string;
  amount: number;
  currency: string;
  description: string;
  paymentMethod: PaymentMethodObject | null;
  behavior: CardBehavior;
}): PaymentIntentObject {
  const id = newId("pi");
  const { behavior, paymentMethod } = input;
  return {
    id,
    object: "payment_intent",
    amount: input.amount,
    amount_capturable: 0,
    amount_received: behavior === "succeed" ? input.amount : 0,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${id}_secret_${newId("s").slice(2)}`,
    confirmation_method: "automatic",
    created: nowSeconds(),
    currency: input.currency,
    customer: input.customer,
    description: input.description,
    last_payment_error:
      behavior === "decline"
        ? {
            code: "card_declined",
            decline_code: "generic_decline",
            message: "Your card was declined.",
            type: "card_error",
            ...(paymentMethod && { payment_method: paymentMethod }),
          }
        : null,
    latest_charge: behavior === "succeed" ? newId("ch") : null,
    livemode: false,
    metadata: {},
    next_action: behavior === "requires_action" ? { type: "use_stripe_sdk" } : null,
    payment_method: behavior === "decline" ? null : (paymentMethod?.id ?? null),
    payment_method_types: ["card"],
    status:
      behavior === "succeed"
        ? "succeeded"
        : behavior === "decline"
          ? "requires_payment_method"
          : "requires_action",
  };
}

export function invoiceLine(input: {
  invoice: string;
  subscription: SubscriptionObject;
  item: SubscriptionItemObject;
  amount: number;
  description: string;
  proration: boolean;
  start: number;
  end: number;
}): InvoiceLineObject {
  return {
    id: newId("il"),
    object: "line_item",
    amount: input.amount,
    currency: input.subscription.currency,
    description: input.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: input.invoice,
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: input.proration,
        proration_details: null,
        subscription: input.subscription.id,
        subscription_item: input.item.id,
      },
    },
    period: { start: input.start, end: input.end },
    pricing: {
      type: "price_details",
      price_details: { price: input.item.price.id, product: input.item.price.product },
      unit_amount_decimal: String(unitAmountIn(input.item.price, input.subscription.currency) ?? 0),
    },
    quantity: input.item.quantity ?? 1,
    subscription: input.subscription.id,
    subtotal: input.amount,
    taxes: [],
  };
}

export function invoiceObject(input: {
  id: string;
  appUrl: string;
  customer: Pick<CustomerObject, "id" | "email" | "name">;
  subscription: SubscriptionObject;
  lines: InvoiceLineObject[];
  billingReason: "subscription_create" | "subscription_cycle" | "subscription_update";
  start: number;
  end: number;
}): InvoiceObject {
  const created = nowSeconds();
  const total = input.lines.reduce((sum, line) => sum + line.amount, 0);
  return {
    id: input.id,
    object: "invoice",
    account_country: "US",
    account_name: "Redline (embedded test provider)",
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: total,
    amount_shipping: 0,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    billing_reason: input.billingReason,
    collection_method: "charge_automatically",
    confirmation_secret: null,
    created,
    currency: input.subscription.currency,
    customer: input.customer.id,
    customer_email: input.customer.email,
    customer_name: input.customer.name ?? null,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    hosted_invoice_url: `${input.appUrl}/dev/payments/invoices/${input.id}`,
    invoice_pdf: null,
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `RDL-${input.id.slice(-8).toUpperCase()}`,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: input.subscription.metadata, subscription: input.subscription.id },
    },
    period_end: input.end,
    period_start: input.start,
    starting_balance: 0,
    status: "open",
    status_transitions: {
      finalized_at: created,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: total,
    total,
    webhooks_delivered_at: null,
    lines: listOf(input.lines, `/v1/invoices/${input.id}/lines`),
    payments: listOf([], `/v1/invoice_payments?invoice=${input.id}`),
  };
}
