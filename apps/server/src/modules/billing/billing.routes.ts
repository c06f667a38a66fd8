/**
 * Billing (SPEC §2 /billing and /upgrade, §4 subscription rules, §7 pay/* calls): the signed-in user's
 * subscriptions, checkout for a new one (in the chosen currency, ADR 0011), cancel at period end and
 * undo, a plan change that may stay pending, and cancelling that pending change — all through the Stripe
 * SDK (integrations/stripe), against Stripe or the embedded provider. The provider's webhooks are in
 * billing.webhook.ts; the visitor's currency and prices in prices.routes.ts.
 */
import {
  applyPromoCode,
  BASE_CURRENCY,
  BILLING_MESSAGES,
  type Billing,
  billingSchema,
  billingSubscriptionSchema,
  type CheckoutStarted,
  CURRENT_STATUSES,
  checkoutInputSchema,
  checkoutStartedSchema,
  confirmPath,
  dataAnswer,
  type PlanId,
  parsePlanId,
  planIdOf,
  promoCodeProblem,
  subscriptionUpdatedSchema,
  subscriptionUpdateSchema,
  updateOutcome,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import type { PaypalClient } from "../../integrations/paypal/index.ts";
import type { StripeAccount, StripePayments } from "../../integrations/stripe/index.ts";
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { authorizeSubscription, type SubscriptionAction } from "./billing.policy.ts";
import { presentSubscription } from "./billing.presenter.ts";
import {
  customerOf,
  loadSubscription,
  subscriptionsOf,
  syncCustomer,
  syncSubscription,
} from "./billing.sync.ts";
import { cancelPaypalSubscription, paypalBillingOf } from "./paypal-account.ts";

export async function billingRoutes(
  app: FastifyInstance,
  { ctx, stripe, paypal }: { ctx: AppContext; stripe: StripePayments | null; paypal: PaypalClient | null },
) {
  const { database, config } = ctx;
  const { db } = database;

  const provider = (): StripePayments => {
    if (!stripe)
      throw new ServiceUnavailableError(BILLING_MESSAGES.paymentsUnavailable, "payments-unavailable");
    return stripe;
  };

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
    route({
      summary: "Your subscriptions, invoices and payment method",
      action: "self",
      accepts: ["session"],
      response: dataAnswer(billingSchema),
    }),
    async (request): Promise<{ data: Billing }> => {
      const { user } = await requireActor(request, { allowUnverified: true });
      let account: StripeAccount = { invoices: [], paymentMethod: null, openInvoiceUrl: null };
      if (stripe && user.stripeCustomerId) {
        await syncCustomer(db, stripe, user.stripeCustomerId);
        account = await stripe.account(user.stripeCustomerId);
      }
      const rows = await subscriptionsOf(db, user.id);
      const paypalBilling = await paypalBillingOf(paypal, rows);
      const presented = rows.map((row) => presentSubscription(row, user.id));
      const paymentIssue = presented.some((s) => s.paymentIssue);
      return {
        data: {
          subscriptions: presented,
          invoices: [...account.invoices, ...paypalBilling.payments].sort((a, b) =>
            b.createdAt.localeCompare(a.createdAt),
          ),
          paymentMethod: account.paymentMethod,
          paypal: paypalBilling.paypal,
          paymentIssue,
          payUrl: paymentIssue && account.openInvoiceUrl ? payUrlOf(account.openInvoiceUrl) : null,
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
      accepts: ["session"],
      response: dataAnswer(checkoutStartedSchema),
    }),
    async (request): Promise<{ data: CheckoutStarted }> => {
      const { user } = await requireActor(request);
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
      const customerId = await customerOf(db, stripe, user);
      const planId = planIdOf(chosen);
      const url = await stripe.openCheckout({
        customerId,
        userId: user.id,
        planId,
        priceId: await stripe.priceFor(chosen),
        currency: (input.currency ?? BASE_CURRENCY).toLowerCase(),
        successUrl: `${config.appUrl}/payment-success/${planId}?session_id={CHECKOUT_SESSION_ID}`,
        // Back from the provider's page: the same summary, with the promo code still applied.
        cancelUrl: `${config.appUrl}${confirmPath(planIdOf(plan), chosen.discount ? input.promoCode?.toUpperCase() : null)}`,
      });
      if (!url)
        throw new ServiceUnavailableError(BILLING_MESSAGES.paymentsUnavailable, "payments-unavailable");
      return { data: { url } };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/cancel",
    route({
      summary: "Cancel a subscription at the end of its period",
      action: "subscriptions.cancel",
      accepts: ["session"],
      response: dataAnswer(billingSubscriptionSchema),
    }),
    async (request) => {
      const { user } = await requireActor(request);
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
      await provider().setCancelAtPeriodEnd(subscriptionId, true);
      return { data: await reread(user.id, subscriptionId), message: BILLING_MESSAGES.cancelScheduled };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/undo-cancel",
    route({
      summary: "Keep a subscription that was to cancel at period end",
      action: "subscriptions.undoCancel",
      accepts: ["session"],
      response: dataAnswer(billingSubscriptionSchema),
    }),
    async (request) => {
      const { user } = await requireActor(request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      await loadForAction(user.id, subscriptionId, "subscriptions.undoCancel");
      await provider().setCancelAtPeriodEnd(subscriptionId, false);
      return { data: await reread(user.id, subscriptionId), message: BILLING_MESSAGES.undoCancel };
    },
  );

  app.post(
    "/api/billing/subscriptions/:subscriptionId/update",
    route({
      summary: "Change a subscription's plan",
      body: subscriptionUpdateSchema,
      action: "subscriptions.update",
      accepts: ["session"],
      response: dataAnswer(subscriptionUpdatedSchema),
    }),
    async (request) => {
      const { user } = await requireActor(request);
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
      await stripe.changePrice(subscriptionId, await stripe.priceFor(target));
      const subscription = await reread(user.id, subscriptionId);
      let intents: { id: string; status: string }[] = [];
      if (subscription.status === "past_due" || subscription.pendingUpdate)
        intents = await stripe.issueIntents(row.customerId);
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
      accepts: ["session"],
      response: dataAnswer(billingSubscriptionSchema),
    }),
    async (request) => {
      const { user } = await requireActor(request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      await loadForAction(user.id, subscriptionId, "subscriptions.cancelPendingUpdate");
      await provider().voidPendingUpdate(subscriptionId);
      return { data: await reread(user.id, subscriptionId), message: BILLING_MESSAGES.updateCancelled };
    },
  );
}
