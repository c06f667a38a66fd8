/**
 * The provider's webhooks (SPEC §4 subscription states): verified by signature, idempotent, and
 * indifferent to order; each subscription transition reaches the user's plan through webhooks alone.
 */

import { paymentsDevIdle } from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingEvents, subscriptions, users } from "../../db/schema/index.ts";
import { createStripeClient } from "../../integrations/stripe/index.ts";
import { digest } from "../../testing/db-digest.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { eventually, subscribe } from "../../testing/payments.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe("billing webhooks", () => {
  let t: TestApp;
  let stripe: Stripe;
  beforeAll(async () => {
    t = await startTestApp({ config: { plansEnabled: true } });
    stripe = createStripeClient(t.ctx.config)!;
  });
  afterAll(() => t.close());

  const signUp = (name: string) => signUpVerified(t.url, t.inbox!, email(name));
  const uidOf = async (client: ApiClient) => (await client.get("/api/me")).body.data.uid as string;
  const userRow = async (uid: string) =>
    (await t.ctx.database.db.select().from(users).where(eq(users.id, uid)))[0]!;
  const rowOf = async (id: string) =>
    (await t.ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
  const post = async (payload: string, signature: string) =>
    fetch(`${t.url}/api/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
  const signed = async (event: object, secret = t.ctx.config.payments.webhookSecret) => {
    const payload = JSON.stringify(event);
    return { payload, signature: await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret }) };
  };
  const control = (path: string, body: unknown = {}) =>
    fetch(`${t.url}/dev/payments${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  /** A paying user whose subscription the webhooks have recorded. */
  async function payer(name: string, action: "pay" | "requires-action" = "pay") {
    const client = await signUp(name);
    const uid = await uidOf(client);
    await subscribe(client, "pro-monthly", action);
    const customer = await eventually(async () => (await userRow(uid)).stripeCustomerId ?? undefined);
    const id = await eventually(async () => (await stripe.subscriptions.list({ customer })).data[0]?.id);
    await eventually(async () => (await rowOf(id)) !== undefined);
    await paymentsDevIdle(t.app);
    return { client, uid, customer, id };
  }
  const held = async (uid: string) => (await userRow(uid)).heldSubscriptions;

  it("refuses an event with a bad, missing or foreign signature and changes nothing", async () => {
    const { id } = await payer("forged");
    const event = {
      id: "evt_forged",
      object: "event",
      type: "customer.subscription.deleted",
      data: { object: { id } },
    };
    const before = await digest(t.ctx);
    const foreign = await signed(event, "whsec_not_ours");
    expect((await post(foreign.payload, foreign.signature)).status).toBe(400);
    const good = await signed(event);
    expect((await post(good.payload.replace("deleted", "updated"), good.signature)).status).toBe(400);
    const unsigned = await fetch(`${t.url}/api/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: good.payload,
    });
    expect(unsigned.status).toBe(400);
    expect(await digest(t.ctx)).toEqual(before);
  });

  it("has one effect for an event delivered twice", async () => {
    const { id, uid } = await payer("replayed");
    const [latest] = (await stripe.events.list({ limit: 1 })).data;
    const replay = await signed({ ...latest!, id: "evt_replayed_once" });
    const first = await post(replay.payload, replay.signature);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const second = await post(replay.payload, replay.signature);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    const recorded = await t.ctx.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, "evt_replayed_once"));
    expect(recorded).toHaveLength(1);
    expect((await rowOf(id))!.status).toBe("active");
    expect(await held(uid)).toHaveLength(1);
  });

  it("settles on the provider's state whatever the order: an old 'created' after 'deleted' does not revive", async () => {
    const { id, uid } = await payer("out-of-order");
    const events = (await stripe.events.list({ limit: 100 })).data;
    const created = events.find(
      (event) =>
        event.type === "customer.subscription.created" && (event.data.object as { id: string }).id === id,
    )!;
    await stripe.subscriptions.cancel(id);
    await eventually(async () => (await rowOf(id))!.status === "canceled");
    expect(await held(uid)).toEqual([]);
    const late = await signed({ ...created, id: `${created.id}_late` });
    expect((await post(late.payload, late.signature)).status).toBe(200);
    expect((await rowOf(id))!.status).toBe("canceled");
    expect(await held(uid)).toEqual([]);
  });

  it("follows every §4 transition through webhooks alone", async () => {
    // incomplete (the card asked for authentication) → active once the invoice is paid.
    const { uid, id, client } = await payer("transitions", "requires-action");
    await eventually(async () =>
      (await held(uid)).some((h) => h.status === "incomplete" && h.paymentIssue === true),
    );
    const invoice = (await stripe.invoices.list({ subscription: id, limit: 1 })).data[0]!;
    expect(
      (await fetch(`${invoice.hosted_invoice_url}/pay`, { method: "POST", redirect: "manual" })).status,
    ).toBeLessThan(400);
    await eventually(async () => (await held(uid)).some((h) => h.status === "active" && !h.paymentIssue));

    // active → past_due (renewal failed; still a current plan) → active (renewal paid).
    await control(`/subscriptions/${id}/fail-renewal`);
    await eventually(async () =>
      (await held(uid)).some((h) => h.status === "past_due" && h.paymentIssue === true),
    );
    expect((await client.get("/api/me")).body.data.plans.web.name).toBe("Pro");
    await control(`/customers/${(await userRow(uid)).stripeCustomerId}/card`, { behavior: "succeed" });
    await control(`/subscriptions/${id}/renew`);
    await eventually(async () => (await held(uid)).some((h) => h.status === "active" && !h.paymentIssue));

    // cancel at period end → still active; the period ends → canceled, and the plan is gone.
    await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    await eventually(async () => (await rowOf(id))!.cancelAtPeriodEnd);
    expect(await held(uid)).toHaveLength(1);
    await control(`/subscriptions/${id}/renew`);
    await eventually(async () => (await rowOf(id))!.status === "canceled");
    expect(await held(uid)).toEqual([]);
    expect((await client.get("/api/me")).body.data.plans.web).toMatchObject({ name: "Free", isFree: true });
  });

  it("keeps the plan through a trial (trialing is live, no notice), and bills when the trial ends", async () => {
    const { uid, id, client } = await payer("trial");
    const trialEnd = Math.floor(Date.now() / 1000) + 14 * 86_400;
    const updated = await stripe.subscriptions.update(id, { trial_end: trialEnd });
    expect(updated.status).toBe("trialing");
    await eventually(async () => (await held(uid)).some((h) => h.status === "trialing" && !h.paymentIssue));
    const me = (await client.get("/api/me")).body.data;
    expect(me.plans.web.name).toBe("Pro");
    expect(me.paymentIssue).toBe(false);
    expect((await rowOf(id))!.currentPeriodEnd?.getTime()).toBe(trialEnd * 1000);
    // The trial's end is the period's end: the card is charged and the subscription is active again.
    await control(`/subscriptions/${id}/renew`);
    await eventually(async () => (await held(uid)).some((h) => h.status === "active" && !h.paymentIssue));
  });

  it("takes the plan away when a past_due subscription runs out of retries (unpaid), with the notice", async () => {
    const { uid, id, client } = await payer("unpaid");
    await control(`/subscriptions/${id}/fail-renewal`);
    await eventually(async () => (await held(uid)).some((h) => h.status === "past_due"));
    expect((await control(`/subscriptions/${id}/retries-exhausted`)).status).toBe(200);
    await eventually(async () =>
      (await held(uid)).some((h) => h.status === "unpaid" && h.paymentIssue === true),
    );
    const me = (await client.get("/api/me")).body.data;
    expect(me.plans.web).toMatchObject({ name: "Free", isFree: true });
    expect(me.paymentIssue).toBe(true);
    // Only a past_due subscription runs out of retries.
    expect((await control(`/subscriptions/${id}/retries-exhausted`)).status).toBe(400);
    // Paying the open invoice with a working card reactivates it (as on Stripe), and the plan is back.
    const invoice = (await stripe.invoices.list({ subscription: id, status: "open", limit: 1 })).data[0]!;
    await control(`/customers/${(await userRow(uid)).stripeCustomerId}/card`, { behavior: "succeed" });
    expect(
      (await fetch(`${invoice.hosted_invoice_url}/pay`, { method: "POST", redirect: "manual" })).status,
    ).toBeLessThan(400);
    await eventually(async () => (await held(uid)).some((h) => h.status === "active" && !h.paymentIssue));
    expect((await client.get("/api/me")).body.data.plans.web.name).toBe("Pro");
  });
});

describe("billing webhooks while the provider cannot be reached", () => {
  let t: TestApp;
  const webhookSecret = "whsec_unreachable_provider_test";
  beforeAll(async () => {
    t = await startTestApp({
      // The 503 below is this test's point.
      allowServerErrors: true,
      config: {
        plansEnabled: true,
        // Nothing listens on port 9: every call back to the provider fails to connect.
        payments: {
          embedded: false,
          secretKey: "sk_test_unreachable",
          webhookSecret,
          apiUrl: "http://127.0.0.1:9",
        },
      },
    });
  });
  afterAll(() => t.close());

  it("answers 503 so the provider delivers again, and records nothing", async () => {
    const payload = JSON.stringify({
      id: "evt_unreachable_1",
      object: "event",
      type: "customer.subscription.updated",
      data: { object: { id: "sub_unreachable_1", object: "subscription" } },
    });
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: webhookSecret });
    const answer = await fetch(`${t.url}/api/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    expect(answer.status).toBe(503);
    expect((await answer.json()).code).toBe("provider-unavailable");
    expect(await t.ctx.database.db.select().from(billingEvents)).toEqual([]);
  });
});
