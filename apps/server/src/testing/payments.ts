/**
 * Paying as a customer would, against the embedded providers (packages/stand-ins: stripe/, paypal/):
 * start a checkout through the API, then press a button of the provider's checkout or approval page (a
 * form POST, as the browser's).
 */

import { paymentsDevIdle } from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.ts";
import { users } from "../db/schema/index.ts";
import { createPaypalClient } from "../integrations/paypal/index.ts";
import { createStripePayments, priceLookupKey } from "../integrations/stripe/index.ts";
import { syncSubscription } from "../modules/billing/billing.sync.ts";
import { syncPaypalSubscription } from "../modules/billing/paypal.sync.ts";
import type { ApiClient } from "./http-client.ts";

export type CheckoutAction = "pay" | "decline" | "requires-action";
/** The buttons of the embedded PayPal provider's approval page. */
export type ApprovalAction = "approve" | "cancel";

export async function startCheckout(client: ApiClient, planId: string, promoCode?: string): Promise<string> {
  const started = await client.post("/api/billing/checkout", { planId, ...(promoCode && { promoCode }) });
  if (started.status !== 200) throw new Error(`checkout: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.data.url as string;
}

/**
 * Presses a checkout (or PayPal approval) page button; returns the provider's answer (a 303 to the
 * success or return URL when paid or approved).
 */
export function pressCheckout(
  checkoutUrl: string,
  action: CheckoutAction | ApprovalAction,
): Promise<Response> {
  return fetch(`${checkoutUrl}/${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "",
    redirect: "manual",
  });
}

export async function subscribe(
  client: ApiClient,
  planId: string,
  action: CheckoutAction = "pay",
  promoCode?: string,
) {
  const url = await startCheckout(client, planId, promoCode);
  const answer = await pressCheckout(url, action);
  return { url, answer };
}

/** Waits until `check` returns a value other than undefined/false (webhooks arrive after the call). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A subscription for `userId` made straight at the embedded provider (no checkout through our API, so
 * a user may hold several), recorded once its webhooks are handled: active, set to cancel at period
 * end, or with a plan change pending on a card that needs authentication.
 */
export async function providerSubscription(
  app: { ctx: AppContext; app: FastifyInstance },
  userId: string,
  state: "active" | "cancelling" | "pending" = "active",
): Promise<string> {
  const { db } = app.ctx.database;
  const payments = createStripePayments(app.ctx.config)!;
  const stripe = payments.sdk;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  let customer = user!.stripeCustomerId;
  if (!customer) {
    customer = (await stripe.customers.create({ email: user!.email, metadata: { uid: userId } })).id;
    await db.update(users).set({ stripeCustomerId: customer }).where(eq(users.id, userId));
  }
  const price = async (planId: string, amount: number) =>
    (await stripe.prices.list({ lookup_keys: [priceLookupKey(planId, "usd")], limit: 1 })).data[0] ??
    (await stripe.prices.create({
      currency: "usd",
      unit_amount: amount,
      recurring: { interval: "month" },
      product_data: { name: planId },
      lookup_key: priceLookupKey(planId, "usd"),
    }));
  // A pending change must cost something: it goes up from Standard to Pro.
  const base = state === "pending" ? "standard-monthly" : "pro-monthly";
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    line_items: [{ price: (await price(base, base === "pro-monthly" ? 4000 : 1500)).id, quantity: 1 }],
    success_url: `${app.ctx.config.appUrl}/billing`,
    cancel_url: `${app.ctx.config.appUrl}/upgrade`,
    subscription_data: { metadata: { uid: userId, planID: base } },
  });
  await pressCheckout(session.url!, "pay");
  const subscription = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
  if (state === "cancelling") await stripe.subscriptions.update(subscription, { cancel_at_period_end: true });
  if (state === "pending") {
    await fetch(`${app.ctx.config.appUrl}/dev/payments/customers/${customer}/card`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ behavior: "requires_action" }),
    });
    const live = await stripe.subscriptions.retrieve(subscription);
    await stripe.subscriptions.update(subscription, {
      items: [{ id: live.items.data[0]!.id, price: (await price("pro-monthly", 4000)).id }],
      payment_behavior: "pending_if_incomplete",
      proration_behavior: "always_invoice",
    });
  }
  await paymentsDevIdle(app.app);
  await syncSubscription(db, payments, subscription);
  return subscription;
}

/**
 * A PayPal subscription for `userId` made straight at the embedded PayPal provider (no checkout through
 * our API) and approved, recorded once its webhooks are handled; a team plan takes `quantity` units of
 * five seats.
 */
export async function paypalSubscription(
  app: { ctx: AppContext; app: FastifyInstance },
  userId: string,
  planId = "pro-monthly",
  quantity = 1,
): Promise<string> {
  const paypal = createPaypalClient(app.ctx.config)!;
  const back = `${app.ctx.config.appUrl}/billing`;
  const created = await paypal.createSubscription({
    plan_id: await paypal.ensurePlan(planId),
    quantity: String(quantity),
    custom_id: userId,
    application_context: { return_url: back, cancel_url: back },
  });
  const approve = created.links.find((link) => link.rel === "approve")!.href;
  const answer = await pressCheckout(approve, "approve");
  if (answer.status !== 303) throw new Error(`approval: ${answer.status} ${await answer.text()}`);
  await paymentsDevIdle(app.app);
  await syncPaypalSubscription(app.ctx.database.db, paypal, created.id);
  return created.id;
}
