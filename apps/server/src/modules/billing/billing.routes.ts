/**
 * Billing (SPEC §2 /billing and /upgrade, §4 subscription rules, §7 pay/* calls): the signed-in user's
 * subscriptions, checkout for a new one (in the chosen currency, ADR 0011), cancel at period end and
 * undo, a plan change that may stay pending, and cancelling that pending change — all through the Stripe
 * SDK (stripe-client.ts), against Stripe or the embedded provider. The provider's webhooks are in
 * billing.webhook.ts; the visitor's currency and prices in prices.routes.ts.
 */
import {
  applyPromoCode,
  BASE_CURRENCY,
  BILLING_MESSAGES,
  type Billing,
  type CheckoutStarted,
  CURRENT_STATUSES,
  checkoutInputSchema,
  confirmPath,
  EXCHANGE_RATES,
  EXCHANGE_RATES_VERSION,
  PAYMENT_ISSUE_INTENT_STATUSES,
  PLANS,
  type PlanId,
  parsePlanId,
  planIdOf,
  planPriceIn,
  promoCodeProblem,
  SUPPORTED_CURRENCIES,
  subscriptionUpdateSchema,
  updateOutcome,
} from "@redline/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type Stripe from "stripe";
import type { AppContext } from "../../context.ts";
import { type UserRow, users } from "../../db/schema/index.ts";
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { authorizeSubscription, type SubscriptionAction } from "./billing.policy.ts";
import { presentInvoice, presentPaymentMethod, presentSubscription } from "./billing.presenter.ts";
import {
  loadSubscription,
  priceLookupKey,
  subscriptionsOf,
  syncCustomer,
  syncSubscription,
} from "./billing.sync.ts";
import { cancelPaypalSubscription, paypalBillingOf } from "./paypal-account.ts";
import type { PaypalClient } from "./paypal-client.ts";

export async function billingRoutes(
  app: FastifyInstance,
  { ctx, stripe, paypal }: { ctx: AppContext; stripe: Stripe | null; paypal: PaypalClient | null },
) {
  const { auth, database, config } = ctx;
  const { db } = database;

  const provider = (): Stripe => {
    if (!stripe)
      throw new ServiceUnavailableError(BILLING_MESSAGES.paymentsUnavailable, "payments-unavailable");
    return stripe;
  };

  /** The user's customer at the provider, created once (a racing twin's customer is left unused). */
  async function customerOf(user: UserRow): Promise<string> {
    if (user.stripeCustomerId) return user.stripeCustomerId;
    const customer = await provider().customers.create({
      email: user.email,
      name: user.displayName || undefined,
      metadata: { uid: user.id },
    });
    const [claimed] = await db
      .update(users)
      .set({ stripeCustomerId: customer.id, updatedAt: new Date() })
      .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)))
      .returning({ id: users.stripeCustomerId });
    if (claimed?.id) return claimed.id;
    const [row] = await db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, user.id));
    return row!.id!;
  }

  /**
   * The provider's price for a plan id, found by its lookup key or created: in US dollars, with an
   * amount in each other supported currency (`currency_options`, from the rates table — whose date is
   * in the lookup key, so new rates make new prices and existing subscriptions keep theirs).
   */
  async function priceOf(plan: PlanId): Promise<Stripe.Price> {
    const planId = planIdOf(plan);
    const lookupKey = priceLookupKey(planId, BASE_CURRENCY, EXCHANGE_RATES_VERSION);
    const find = async () =>
      (await provider().prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })).data[0];
    const found = await find();
    if (found) return found;
    const options = SUPPORTED_CURRENCIES.filter((currency) => currency !== BASE_CURRENCY).map(
      (currency) => [currency.toLowerCase(), { unit_amount: planPriceIn(plan, currency) }] as const,
    );
    try {
      return await provider().prices.create({
        currency: BASE_CURRENCY.toLowerCase(),
        unit_amount: planPriceIn(plan, BASE_CURRENCY),
        currency_options: Object.fromEntries(options),
        recurring: { interval: plan.interval === "yearly" ? "year" : "month" },
        product_data: { name: `Redline ${PLANS[plan.product][plan.tier].name}` },
        lookup_key: lookupKey,
        metadata: { planID: planId, rates: EXCHANGE_RATES.date },
      });
    } catch (error) {
      // A twin request created it first (the lookup key is taken): use that one.
      const created = await find();
      if (created) return created;
      throw error;
    }
  }

  /** A plan id a user may buy with a card: known, without a discount (that comes from a promo code) or seats. */
  function purchasable(planId: string): PlanId {
    const plan = parsePlanId(planId);
    if (!plan || plan.discount !== null || plan.seats !== null) throw new NotFoundError("Plan not found.");
    return plan;
  }

  async function loadForAction(userId: string, id: string, action: SubscriptionAction) {
    const row = await loadSubscription(db, id);
    if (!row || row.userId !== userId)
      throw new NotFoundError(BILLING_MESSAGES.noActiveSubscriptions, "no-subscription");
    authorizeSubscription(userId, action, row);
    return row;
  }

  /**
   * The open invoice's page, told where to send the customer once paid (`return`, spoken by the embedded
   * provider; Stripe's own page ignores it): paying ends back on Redline's billing page.
   */
  function payUrlOf(hostedInvoiceUrl: string): string {
    const url = new URL(hostedInvoiceUrl);
    url.searchParams.set("return", `${config.appUrl}/billing`);
    return url.href;
  }

  async function reread(userId: string, id: string) {
    await syncSubscription(db, provider(), id);
    const row = await loadSubscription(db, id);
    return presentSubscription(row!, userId);
  }

  app.get(
    "/api/billing",
    route({ summary: "Your subscriptions, invoices and payment method", action: "self" }),
    async (request): Promise<{ data: Billing }> => {
      const { user } = await requireActor(auth, db, request, { allowUnverified: true });
      let invoices: Stripe.Invoice[] = [];
      let paymentMethod: Billing["paymentMethod"] = null;
      if (stripe && user.stripeCustomerId) {
        await syncCustomer(db, stripe, user.stripeCustomerId);
        const [customer, invoiceList] = await Promise.all([
          stripe.customers.retrieve(user.stripeCustomerId, {
            expand: ["invoice_settings.default_payment_method"],
          }),
          stripe.invoices.list({ customer: user.stripeCustomerId, limit: 24 }),
        ]);
        invoices = invoiceList.data;
        if (!customer.deleted)
          paymentMethod = presentPaymentMethod(customer.invoice_settings?.default_payment_method);
      }
      const rows = await subscriptionsOf(db, user.id);
      const paypalBilling = await paypalBillingOf(paypal, rows);
      const presented = rows.map((row) => presentSubscription(row, user.id));
      const paymentIssue = presented.some((s) => s.paymentIssue);
      const open = invoices.find((invoice) => invoice.status === "open" && invoice.hosted_invoice_url);
      return {
        data: {
          subscriptions: presented,
          invoices: [
            ...invoices.filter((invoice) => invoice.status !== "draft").map(presentInvoice),
            ...paypalBilling.payments,
          ].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
          paymentMethod,
          paypal: paypalBilling.paypal,
          paymentIssue,
          payUrl: paymentIssue && open?.hosted_invoice_url ? payUrlOf(open.hosted_invoice_url) : null,
          canCheckout: stripe !== null && config.plansEnabled,
        },
      };
    },
  );

  app.post(
    "/api/billing/checkout",
    route({
      summary: "Start paying for a plan (the provider's checkout page)",
      body: checkoutInputSchema,
      action: "self",
    }),
    async (request): Promise<{ data: CheckoutStarted }> => {
      const { user } = await requireActor(auth, db, request);
      const input = checkoutInputSchema.parse(request.body);
      const plan = purchasable(input.planId);
      const chosen = input.promoCode ? applyPromoCode(plan, input.promoCode) : plan;
      if (!chosen)
        throw new BadRequestError(promoCodeProblem(plan, input.promoCode ?? "") ?? "", "promo-code");
      if (!config.plansEnabled)
        throw new ConflictError("Plans are switched off on this server.", "plans-off");
      const stripe = provider();
      const held = (await subscriptionsOf(db, user.id)).some(
        (row) =>
          row.provider === "card" &&
          (CURRENT_STATUSES as readonly string[]).includes(row.status) &&
          parsePlanId(row.planId)?.product === plan.product,
      );
      if (held)
        throw new ConflictError(
          "You already have a subscription for this product: change its plan instead.",
          "already-subscribed",
        );
      const customer = await customerOf(user);
      const price = await priceOf(chosen);
      const planId = planIdOf(chosen);
      const currency = (input.currency ?? BASE_CURRENCY).toLowerCase();
      const metadata = { uid: user.id, planID: planId };
      // Two submits at once (a double click, two tabs) get the same session, so one subscription: the
      // customer's latest session when it is still open for this plan, else one keyed by that latest
      // session — a twin that has not seen the other's new session yet sends the same key.
      const [latest] = (await stripe.checkout.sessions.list({ customer, limit: 1 })).data;
      if (
        latest?.status === "open" &&
        latest.url &&
        latest.metadata?.planID === planId &&
        latest.currency === currency
      )
        return { data: { url: latest.url } };
      const session = await stripe.checkout.sessions.create(
        {
          mode: "subscription",
          customer,
          // The price's amount in this currency (one of its currency options) is what is charged.
          currency,
          client_reference_id: user.id,
          line_items: [{ price: price.id, quantity: 1 }],
          success_url: `${config.appUrl}/payment-success/${planId}?session_id={CHECKOUT_SESSION_ID}`,
          // Back from the provider's page: the same summary, with the promo code still applied.
          cancel_url: `${config.appUrl}${confirmPath(planIdOf(plan), chosen.discount ? input.promoCode?.toUpperCase() : null)}`,
          metadata,
          subscription_data: { metadata },
        },
        { idempotencyKey: `checkout-${user.id}-${planId}-${currency}-after-${latest?.id ?? "none"}` },
      );
      if (!session.url)
        throw new ServiceUnavailableError(BILLING_MESSAGES.paymentsUnavailable, "payments-unavailable");
      return { data: { url: session.url } };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/cancel",
    route({ summary: "Cancel a subscription at the end of its period", action: "subscriptions.cancel" }),
    async (request) => {
      const { user } = await requireActor(auth, db, request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      const row = await loadForAction(user.id, subscriptionId, "subscriptions.cancel");
      if (row.provider === "second") {
        // PayPal has no cancel at period end: its REST cancel stops billing now (ADR 0010).
        if (!paypal)
          throw new ServiceUnavailableError(BILLING_MESSAGES.paymentsUnavailable, "payments-unavailable");
        await cancelPaypalSubscription(db, paypal, subscriptionId);
        const cancelled = await loadSubscription(db, subscriptionId);
        return { data: presentSubscription(cancelled!, user.id), message: BILLING_MESSAGES.paypalCancelled };
      }
      await provider().subscriptions.update(subscriptionId, { cancel_at_period_end: true });
      return { data: await reread(user.id, subscriptionId), message: BILLING_MESSAGES.cancelScheduled };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/undo-cancel",
    route({
      summary: "Keep a subscription that was to cancel at period end",
      action: "subscriptions.undoCancel",
    }),
    async (request) => {
      const { user } = await requireActor(auth, db, request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      await loadForAction(user.id, subscriptionId, "subscriptions.undoCancel");
      await provider().subscriptions.update(subscriptionId, { cancel_at_period_end: false });
      return { data: await reread(user.id, subscriptionId), message: BILLING_MESSAGES.undoCancel };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/update",
    route({
      summary: "Change a subscription's plan",
      body: subscriptionUpdateSchema,
      action: "subscriptions.update",
    }),
    async (request) => {
      const { user } = await requireActor(auth, db, request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      const input = subscriptionUpdateSchema.parse(request.body);
      const row = await loadForAction(user.id, subscriptionId, "subscriptions.update");
      const target = purchasable(input.planId);
      const current = parsePlanId(row.planId);
      if (current?.product !== target.product)
        throw new BadRequestError("Choose a plan of the same product.", "other-product");
      if (planIdOf(target) === row.planId)
        throw new BadRequestError("This is already your plan.", "same-plan");
      const stripe = provider();
      const [price, live] = await Promise.all([
        priceOf(target),
        stripe.subscriptions.retrieve(subscriptionId),
      ]);
      await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: live.items.data[0]!.id, price: price.id }],
        payment_behavior: "pending_if_incomplete",
        proration_behavior: "always_invoice",
      });
      const subscription = await reread(user.id, subscriptionId);
      let intents: { id: string; status: string }[] = [];
      if (subscription.status === "past_due" || subscription.pendingUpdate) {
        const list = await stripe.paymentIntents.list({ customer: row.customerId ?? undefined, limit: 10 });
        intents = list.data
          .filter((intent) => (PAYMENT_ISSUE_INTENT_STATUSES as readonly string[]).includes(intent.status))
          .map((intent) => ({ id: intent.id, status: intent.status }));
      }
      const outcome = updateOutcome(subscription.status, subscription.pendingUpdate !== null, intents);
      return {
        data: { subscription, outcome },
        ...(outcome.result === "success" && { message: BILLING_MESSAGES.planUpdated }),
      };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/cancel-pending-update",
    route({
      summary: "Cancel a plan change waiting for payment",
      action: "subscriptions.cancelPendingUpdate",
    }),
    async (request) => {
      const { user } = await requireActor(auth, db, request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      await loadForAction(user.id, subscriptionId, "subscriptions.cancelPendingUpdate");
      const stripe = provider();
      // On Stripe a pending update lives until its invoice is paid, voided or expires: voiding ends it.
      const live = await stripe.subscriptions.retrieve(subscriptionId);
      const invoiceId =
        typeof live.latest_invoice === "string" ? live.latest_invoice : live.latest_invoice?.id;
      if (live.pending_update && invoiceId) await stripe.invoices.voidInvoice(invoiceId);
      return { data: await reread(user.id, subscriptionId), message: BILLING_MESSAGES.updateCancelled };
    },
  );
}
