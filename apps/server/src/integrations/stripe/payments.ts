/**
 * Everything Redline asks of Stripe, in our words: modules/billing calls these and never the SDK, so
 * the billing module does not know Stripe's object shapes (ADR 0009: the official SDK, against Stripe
 * or the embedded stand-in). A Stripe outage or refusal surfaces as the SDK's error; `isUnreachable`
 * says which of them mean "try again later".
 */
import {
  BASE_CURRENCY,
  type BillingInvoice,
  EXCHANGE_RATES,
  EXCHANGE_RATES_VERSION,
  PAYMENT_ISSUE_INTENT_STATUSES,
  type PaymentMethodSummary,
  PLANS,
  type PlanId,
  planIdOf,
  planPriceIn,
  SUPPORTED_CURRENCIES,
} from "@redline/shared";
import type Stripe from "stripe";
import type { AppConfig } from "../../env.ts";
import type { SubscriptionSnapshot } from "../payments.ts";
import { createStripeClient } from "./client.ts";
import { idOf, priceLookupKey, snapshotOf } from "./subscriptions.ts";

/** What /billing shows of a customer's account at Stripe. */
export interface StripeAccount {
  /** Newest first; drafts left out. */
  invoices: BillingInvoice[];
  paymentMethod: PaymentMethodSummary | null;
  /** The hosted page of an open invoice, when there is one. */
  openInvoiceUrl: string | null;
}

/** A verified webhook event and what it concerns. */
export interface StripeEvent {
  id: string;
  type: string;
  /** The subscription it is about, or the customer whose subscriptions it may touch. */
  subscription: string | null;
  customer: string | null;
}

export interface CheckoutRequest {
  customerId: string;
  userId: string;
  planId: string;
  priceId: string;
  /** Lower case, e.g. "usd". */
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

function presentInvoice(invoice: Stripe.Invoice): BillingInvoice {
  return {
    id: invoice.id ?? "",
    provider: "card",
    number: invoice.number ?? null,
    status: invoice.status ?? "draft",
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    createdAt: new Date(invoice.created * 1000).toISOString(),
    url: invoice.hosted_invoice_url ?? null,
  };
}

function presentPaymentMethod(
  method: string | Stripe.PaymentMethod | null | undefined,
): PaymentMethodSummary | null {
  if (!method || typeof method === "string" || !method.card) return null;
  return {
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
}

/** What a webhook event concerns. */
function concerns(event: Stripe.Event): Pick<StripeEvent, "subscription" | "customer"> {
  const none = { subscription: null, customer: null };
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed": {
      const session = event.data.object;
      return { subscription: idOf(session.subscription), customer: idOf(session.customer) };
    }
    default:
      if (event.type.startsWith("customer.subscription."))
        return { ...none, subscription: (event.data.object as Stripe.Subscription).id };
      if (event.type.startsWith("invoice.")) {
        const invoice = event.data.object as Stripe.Invoice;
        return {
          subscription: idOf(invoice.parent?.subscription_details?.subscription),
          customer: idOf(invoice.customer),
        };
      }
      if (event.type.startsWith("payment_intent."))
        return {
          ...none,
          customer: idOf((event.data.object as unknown as { customer?: string | null }).customer),
        };
      return none;
  }
}

export class StripePayments {
  constructor(
    /** The SDK itself, for the test helpers that pay as a customer would. */
    readonly sdk: Stripe,
    private readonly webhookSecret: string,
  ) {}

  /** The SDK could not reach Stripe, or Stripe failed on its side (5xx, rate limit). */
  static isUnreachable(error: unknown): boolean {
    if (!(error instanceof Error) || !("type" in error)) return false;
    const { type, statusCode } = error as { type?: string; statusCode?: number };
    return (
      type === "StripeConnectionError" ||
      type === "StripeRateLimitError" ||
      (type === "StripeAPIError" && (statusCode ?? 500) >= 500)
    );
  }

  /** The event, when the signature covers these exact bytes; null when it does not. */
  async verifyEvent(body: string, signature: string): Promise<StripeEvent | null> {
    let event: Stripe.Event;
    try {
      event = await this.sdk.webhooks.constructEventAsync(body, signature, this.webhookSecret);
    } catch {
      return null;
    }
    return { id: event.id, type: event.type, ...concerns(event) };
  }

  /** One subscription as Stripe has it now; null when Stripe does not know it or it is not ours. */
  async fetchSubscription(id: string): Promise<SubscriptionSnapshot | null> {
    let subscription: Stripe.Subscription;
    try {
      subscription = await this.sdk.subscriptions.retrieve(id);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw error;
    }
    return snapshotOf(this.sdk, subscription);
  }

  /** Every subscription of a customer that is one of ours. */
  async customerSubscriptions(customerId: string): Promise<SubscriptionSnapshot[]> {
    const list = await this.sdk.subscriptions.list({ customer: customerId, status: "all", limit: 20 });
    const snapshots = [];
    for (const subscription of list.data) {
      const snapshot = await snapshotOf(this.sdk, subscription);
      if (snapshot) snapshots.push(snapshot);
    }
    return snapshots;
  }

  async createCustomer(customer: { email: string; name: string | null; uid: string }): Promise<string> {
    const created = await this.sdk.customers.create({
      email: customer.email,
      name: customer.name || undefined,
      metadata: { uid: customer.uid },
    });
    return created.id;
  }

  /**
   * Stripe's price for a plan, found by its lookup key or created: in US dollars, with an amount in each
   * other supported currency (`currency_options`, from the rates table — whose date is in the lookup key,
   * so new rates make new prices and existing subscriptions keep theirs). Returns the price's id.
   */
  async priceFor(plan: PlanId): Promise<string> {
    const planId = planIdOf(plan);
    const lookupKey = priceLookupKey(planId, BASE_CURRENCY, EXCHANGE_RATES_VERSION);
    const find = async () =>
      (await this.sdk.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })).data[0];
    const found = await find();
    if (found) return found.id;
    const options = SUPPORTED_CURRENCIES.filter((currency) => currency !== BASE_CURRENCY).map(
      (currency) => [currency.toLowerCase(), { unit_amount: planPriceIn(plan, currency) }] as const,
    );
    try {
      const created = await this.sdk.prices.create({
        currency: BASE_CURRENCY.toLowerCase(),
        unit_amount: planPriceIn(plan, BASE_CURRENCY),
        currency_options: Object.fromEntries(options),
        recurring: { interval: plan.interval === "yearly" ? "year" : "month" },
        product_data: { name: `Redline ${PLANS[plan.product][plan.tier].name}` },
        lookup_key: lookupKey,
        metadata: { planID: planId, rates: EXCHANGE_RATES.date },
      });
      return created.id;
    } catch (error) {
      // A twin request created it first (the lookup key is taken): use that one.
      const created = await find();
      if (created) return created.id;
      throw error;
    }
  }

  async account(customerId: string): Promise<StripeAccount> {
    const [customer, invoiceList] = await Promise.all([
      this.sdk.customers.retrieve(customerId, { expand: ["invoice_settings.default_payment_method"] }),
      this.sdk.invoices.list({ customer: customerId, limit: 24 }),
    ]);
    const open = invoiceList.data.find((invoice) => invoice.status === "open" && invoice.hosted_invoice_url);
    return {
      invoices: invoiceList.data.filter((invoice) => invoice.status !== "draft").map(presentInvoice),
      paymentMethod: customer.deleted
        ? null
        : presentPaymentMethod(customer.invoice_settings?.default_payment_method),
      openInvoiceUrl: open?.hosted_invoice_url ?? null,
    };
  }

  /**
   * The checkout page's address. Two submits at once (a double click, two tabs) get the same session, so
   * one subscription: the customer's latest session when it is still open for this plan, else one keyed
   * by that latest session — a twin that has not seen the other's new session yet sends the same key.
   * null when Stripe gave no page.
   */
  async openCheckout(request: CheckoutRequest): Promise<string | null> {
    const { customerId, userId, planId, priceId, currency } = request;
    const metadata = { uid: userId, planID: planId };
    const [latest] = (await this.sdk.checkout.sessions.list({ customer: customerId, limit: 1 })).data;
    if (
      latest?.status === "open" &&
      latest.url &&
      latest.metadata?.planID === planId &&
      latest.currency === currency
    )
      return latest.url;
    const session = await this.sdk.checkout.sessions.create(
      {
        mode: "subscription",
        customer: customerId,
        // The price's amount in this currency (one of its currency options) is what is charged.
        currency,
        client_reference_id: userId,
        line_items: [{ price: priceId, quantity: 1 }],
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata,
        subscription_data: { metadata },
      },
      { idempotencyKey: `checkout-${userId}-${planId}-${currency}-after-${latest?.id ?? "none"}` },
    );
    return session.url ?? null;
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    await this.sdk.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
  }

  /** Moves the subscription to `priceId`, invoiced now; the change stays pending until paid. */
  async changePrice(subscriptionId: string, priceId: string): Promise<void> {
    const live = await this.sdk.subscriptions.retrieve(subscriptionId);
    await this.sdk.subscriptions.update(subscriptionId, {
      items: [{ id: live.items.data[0]!.id, price: priceId }],
      payment_behavior: "pending_if_incomplete",
      proration_behavior: "always_invoice",
    });
  }

  /** The customer's recent payments that need the customer (SPEC §4's payment issue). */
  async issueIntents(customerId: string | null): Promise<{ id: string; status: string }[]> {
    const list = await this.sdk.paymentIntents.list({ customer: customerId ?? undefined, limit: 10 });
    return list.data
      .filter((intent) => (PAYMENT_ISSUE_INTENT_STATUSES as readonly string[]).includes(intent.status))
      .map((intent) => ({ id: intent.id, status: intent.status }));
  }

  /** Ends a plan change waiting for payment: on Stripe it lives until its invoice is paid, voided or expires. */
  async voidPendingUpdate(subscriptionId: string): Promise<void> {
    const live = await this.sdk.subscriptions.retrieve(subscriptionId);
    const invoiceId = idOf(live.latest_invoice);
    if (live.pending_update && invoiceId) await this.sdk.invoices.voidInvoice(invoiceId);
  }
}

/** null when this server takes no card payments (production without keys). */
export function createStripePayments(config: AppConfig): StripePayments | null {
  const sdk = createStripeClient(config);
  return sdk ? new StripePayments(sdk, config.payments.webhookSecret) : null;
}
