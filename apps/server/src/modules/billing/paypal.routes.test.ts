/**
 * PayPal subscriptions end to end through the API and the embedded PayPal provider (SPEC §3, §4, §7): a
 * free user buys Pro through PayPal's approval page and may then create projects; a team plan's
 * quantity is recorded as seats × 5; the §7 lookup answers the payer only; a suspended subscription
 * still holds its plan, a cancelled one does not; webhooks are verified by the provider, idempotent
 * and indifferent to order.
 */

import { paymentsDevIdle, transmissionHeaders } from "@redline/stand-ins";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingEvents, paymentProviderObjects, subscriptions, users } from "../../db/schema/index.ts";
import { loadConfig } from "../../env.ts";
import { createPaypalClient } from "../../integrations/paypal/index.ts";
import { digest } from "../../testing/db-digest.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { eventually, paypalSubscription, pressCheckout } from "../../testing/payments.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(routeDrivers())("PayPal subscriptions (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  const signUp = (name: string) => signUpVerified(t.url, t.inbox!, email(name));
  const uidOf = async (client: ApiClient) => (await client.get("/api/me")).body.data.uid as string;
  const userRow = async (uid: string) =>
    (await t.ctx.database.db.select().from(users).where(eq(users.id, uid)))[0]!;
  const rowOf = async (id: string) =>
    (await t.ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
  const held = async (uid: string) => (await userRow(uid)).heldSubscriptions;
  const control = (id: string, action: "suspend" | "cancel") =>
    fetch(`${t.url}/dev/paypal/subscriptions/${id}/${action}`, { method: "POST" });
  const webhook = (body: string, headers: Record<string, string>) =>
    fetch(`${t.url}/api/billing/paypal/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
  const signed = (body: string, secret = t.ctx.config.paypal.signingSecret) =>
    transmissionHeaders({ secret, webhookId: t.ctx.config.paypal.webhookId, certUrl: `${t.url}/cert`, body });

  async function checkout(client: ApiClient, planId: string) {
    const started = await client.post("/api/billing/paypal/checkout", { planId });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return started.body.data.url as string;
  }

  /** Checkout, approval and return; resolves once the webhooks gave the plan. */
  async function buy(client: ApiClient, planId: string) {
    const url = await checkout(client, planId);
    const answer = await pressCheckout(url, "approve");
    expect(answer.status).toBe(303);
    const id = new URL(answer.headers.get("location")!).searchParams.get("subscription_id")!;
    await eventually(async () => (await rowOf(id))?.status === "active");
    await paymentsDevIdle(t.app);
    return { url, answer, id };
  }

  it("takes a free user at the project limit to Pro through PayPal, after which projects can be created", async () => {
    const client = await signUp("paypal-upgrader");
    const uid = await uidOf(client);
    expect((await client.post("/api/projects", { type: "web", title: "One" })).status).toBe(201);
    expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(402);

    const url = await checkout(client, "pro-monthly");
    expect(url).toMatch(new RegExp(`^${t.url}/dev/paypal/approve/I-[0-9A-Z]{12}$`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Redline Pro (monthly) [pro-monthly]");
    const answer = await pressCheckout(url, "approve");
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(`${t.url}/payment-success/pro-monthly`);
    const id = back.searchParams.get("subscription_id")!;
    expect(url.endsWith(id)).toBe(true);

    // The webhooks alone give the plan.
    await eventually(async () =>
      (await held(uid)).some((h) => h.provider === "second" && h.status === "active"),
    );
    expect((await userRow(uid)).paypalSubscriptionId).toBe(id);
    expect((await client.get("/api/me")).body.data.plans.web).toMatchObject({ name: "Pro", isFree: false });
    const shown = (await client.get("/api/billing")).body.data;
    expect(shown.subscriptions).toEqual([
      expect.objectContaining({
        id,
        provider: "second",
        planId: "pro-monthly",
        status: "active",
        amount: 4000,
        currency: "usd",
        // PayPal bills it: its payer may cancel it here (through PayPal); nothing else.
        abilities: {
          canCancel: true,
          canUndoCancel: false,
          canUpdate: false,
          canCancelPendingUpdate: false,
        },
      }),
    ]);
    expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(201);

    const again = await client.post("/api/billing/paypal/checkout", { planId: "pro-yearly" });
    expect(again).toMatchObject({ status: 409, body: { code: "already-subscribed" } });
    await paymentsDevIdle(t.app);
  });

  it("records a team plan bought for 10 seats as team-monthly-x10 from PayPal's quantity 2", async () => {
    const client = await signUp("paypal-team");
    const uid = await uidOf(client);
    for (const planId of ["team-monthly-x7", "pro-monthly-30off", "pro-monthly-x10", "gold-monthly"])
      expect((await client.post("/api/billing/paypal/checkout", { planId })).status, planId).toBe(404);
    expect((await client.post("/api/billing/paypal/checkout", {})).status).toBe(400);
    t.ctx.config.plansEnabled = false;
    try {
      expect((await client.post("/api/billing/paypal/checkout", { planId: "team-monthly-x10" })).status).toBe(
        409,
      );
    } finally {
      t.ctx.config.plansEnabled = true;
    }

    const { id } = await buy(client, "team-monthly-x10");
    const paypal = createPaypalClient(t.ctx.config)!;
    expect((await paypal.getSubscription(id))?.quantity).toBe("2");
    expect(await rowOf(id)).toMatchObject({
      planId: "team-monthly-x10",
      provider: "second",
      amount: 2 * 24000,
    });
    expect(await held(uid)).toEqual([{ planId: "team-monthly-x10", status: "active", provider: "second" }]);
  });

  it("looks a subscription up with its transactions for its payer only (SPEC §7)", async () => {
    const [payer, other] = await Promise.all([signUp("paypal-payer"), signUp("paypal-other")]);
    const id = await paypalSubscription(t, await uidOf(payer));
    const found = await payer.get(`/api/billing/paypal/subscriptions/${id}?include_transactions=true`);
    expect(found.status).toBe(200);
    expect(found.body.data.subscription).toMatchObject({ id, provider: "second", status: "active" });
    expect(found.body.data.paypal).toMatchObject({ id, status: "ACTIVE", quantity: "1" });
    expect(found.body.data.paypal.links).toBeUndefined();
    expect(found.body.data.transactions).toEqual([
      expect.objectContaining({
        status: "COMPLETED",
        amount_with_breakdown: expect.objectContaining({
          gross_amount: { currency_code: "USD", value: "40.00" },
        }),
      }),
    ]);
    const bare = await payer.get(`/api/billing/paypal/subscriptions/${id}?include_transactions=false`);
    expect(bare.body.data.transactions).toEqual([]);

    // Not yet approved nor recorded: PayPal's custom_id says whose it is.
    const pending = new URL(await checkout(other, "browse-pro-monthly")).pathname.split("/").pop()!;
    const before = await digest(t.ctx);
    for (const [client, target] of [
      [other, id],
      [payer, pending],
      [payer, "I-000000000000"],
    ] as const) {
      const refused = await client.get(`/api/billing/paypal/subscriptions/${target}`);
      expect(refused.status, target).toBe(404);
    }
    expect(await digest(t.ctx)).toEqual(before);
    const own = await other.get(`/api/billing/paypal/subscriptions/${pending}`);
    expect(own.body.data.subscription).toMatchObject({ status: "incomplete", planId: "browse-pro-monthly" });
    expect(own.body.data.transactions).toEqual([]);
    // Awaiting approval holds nothing.
    expect(await held(await uidOf(other))).toEqual([]);
  });

  it("keeps a suspended subscription's plan (SPEC §4: treated as active) and ends it when cancelled", async () => {
    const client = await signUp("paypal-states");
    const uid = await uidOf(client);
    const { id } = await buy(client, "pro-yearly");

    await control(id, "suspend");
    await eventually(async () => (await rowOf(id))?.status === "past_due");
    expect(await held(uid)).toEqual([{ planId: "pro-yearly", status: "past_due", provider: "second" }]);
    expect((await client.get("/api/me")).body.data).toMatchObject({
      plans: { web: { name: "Pro" } },
      paymentIssue: false,
    });

    await control(id, "cancel");
    await eventually(async () => (await rowOf(id))?.status === "canceled");
    expect(await held(uid)).toEqual([]);
    expect((await client.get("/api/me")).body.data.plans.web).toMatchObject({ name: "Free", isFree: true });
    await paymentsDevIdle(t.app);
  });

  it("shows PayPal as the payment method and its transactions as payments on /api/billing", async () => {
    const client = await signUp("paypal-billing");
    const { id } = await buy(client, "pro-monthly");
    const billing = (await client.get("/api/billing")).body.data;
    expect(billing.paypal).toEqual({ email: expect.stringMatching(/^paypal-billing-/) });
    expect(billing.invoices).toEqual([
      expect.objectContaining({
        provider: "second",
        status: "completed",
        amountPaid: 4000,
        currency: "usd",
        url: null,
      }),
    ]);
    expect(billing.subscriptions).toEqual([
      expect.objectContaining({
        id,
        provider: "second",
        abilities: expect.objectContaining({ canCancel: true }),
      }),
    ]);
  });

  it("cancels a PayPal subscription through PayPal for its payer only; the plan ends", async () => {
    const [payer, other] = await Promise.all([signUp("paypal-canceller"), signUp("paypal-stranger")]);
    const uid = await uidOf(payer);
    const { id } = await buy(payer, "pro-monthly");

    const before = await digest(t.ctx);
    expect((await other.post(`/api/billing/subscriptions/${id}/cancel`)).status).toBe(404);
    expect(await digest(t.ctx)).toEqual(before);

    const cancelled = await payer.post(`/api/billing/subscriptions/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      message: "Your PayPal subscription is cancelled.",
      data: { id, provider: "second", status: "canceled", abilities: { canCancel: false } },
    });
    // PayPal itself has it cancelled: nothing more will be charged.
    const paypal = createPaypalClient(t.ctx.config)!;
    expect((await paypal.getSubscription(id))?.status).toBe("CANCELLED");
    expect(await held(uid)).toEqual([]);
    expect((await payer.get("/api/me")).body.data.plans.web).toMatchObject({ name: "Free", isFree: true });
    // Once cancelled, there is nothing more to cancel.
    expect((await payer.post(`/api/billing/subscriptions/${id}/cancel`)).status).toBe(409);
    await paymentsDevIdle(t.app);
  });

  it("comes back from a cancelled approval to the payment summary, told so", async () => {
    const client = await signUp("paypal-changed-mind");
    const url = await checkout(client, "pro-monthly");
    const answer = await pressCheckout(url, "cancel");
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(`${t.url}/upgrade/confirm/pro-monthly`);
    expect(back.searchParams.get("paypal")).toBe("cancelled");
  });

  it("refuses a webhook with a bad, foreign or missing signature, or a malformed body, and changes nothing", async () => {
    const client = await signUp("paypal-forged");
    const { id } = await buy(client, "pro-monthly");
    const body = JSON.stringify({
      id: "WH-FORGED",
      event_type: "BILLING.SUBSCRIPTION.CANCELLED",
      resource: { id },
    });
    const before = await digest(t.ctx);
    const good = signed(body);
    const attempts = [
      await webhook(body, signed(body, "not-our-secret")),
      await webhook(body.replace("CANCELLED", "SUSPENDED"), good),
      await webhook(body, { ...good, "paypal-transmission-id": "another" }),
      await webhook(body, {}),
      await webhook("{not json", signed("{not json")),
      await webhook("[]", signed("[]")),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(400);
      expect(await attempt.json()).toMatchObject({ code: "bad-signature" });
    }
    expect(await digest(t.ctx)).toEqual(before);
    expect((await rowOf(id))?.status).toBe("active");
  });

  it("has one effect for an event delivered twice, and settles on PayPal's state whatever the order", async () => {
    const client = await signUp("paypal-replay");
    const uid = await uidOf(client);
    const { id } = await buy(client, "pro-monthly");
    const [activated] = (
      await t.ctx.database.db
        .select()
        .from(paymentProviderObjects)
        .where(and(eq(paymentProviderObjects.type, "paypal_event"), eq(paymentProviderObjects.customer, id)))
        .orderBy(asc(paymentProviderObjects.createdAt))
    ).map((row) => row.data);
    expect(activated).toMatchObject({ event_type: "BILLING.SUBSCRIPTION.ACTIVATED" });

    const replay = JSON.stringify({ ...activated, id: `${activated!.id}-REPLAYED` });
    const first = await webhook(replay, signed(replay));
    expect(await first.json()).toEqual({ received: true });
    const second = await webhook(replay, signed(replay));
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    const recorded = await t.ctx.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, `${activated!.id}-REPLAYED`));
    expect(recorded).toHaveLength(1);

    // An old ACTIVATED arriving after the cancellation does not revive it: PayPal is re-read.
    await control(id, "cancel");
    await eventually(async () => (await rowOf(id))?.status === "canceled");
    const late = JSON.stringify({ ...activated, id: `${activated!.id}-LATE` });
    expect((await webhook(late, signed(late))).status).toBe(200);
    expect((await rowOf(id))?.status).toBe("canceled");
    expect(await held(uid)).toEqual([]);
    await paymentsDevIdle(t.app);
  });
});

describe("PayPal configuration", () => {
  const base = { DATA_DIR: "/tmp/redline-env-test", AUTH_SECRET: "s".repeat(32) };
  const real = { PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_WEBHOOK_ID: "WH-1" };

  it("is the embedded provider by default outside production, and none in production", () => {
    const embedded = loadConfig(base).paypal;
    expect(embedded).toMatchObject({
      embedded: true,
      clientId: "redline-embedded-paypal",
    });
    expect(embedded.apiUrl).toBeUndefined();
    expect(embedded.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(embedded.signingSecret).not.toBe(embedded.clientSecret);
    expect(loadConfig({ ...base, AUTH_SECRET: "t".repeat(32) }).paypal.clientSecret).not.toBe(
      embedded.clientSecret,
    );
    expect(loadConfig({ ...base, NODE_ENV: "production" }).paypal).toMatchObject({
      embedded: false,
      clientId: null,
    });
  });

  it("talks to PayPal with credentials, and fails fast without all three", () => {
    expect(loadConfig({ ...base, ...real }).paypal).toEqual({
      embedded: false,
      clientId: "id",
      clientSecret: "secret",
      webhookId: "WH-1",
      apiUrl: "https://api-m.paypal.com",
      signingSecret: "",
    });
    expect(
      loadConfig({ ...base, ...real, PAYPAL_API_URL: "https://api-m.sandbox.paypal.com/" }).paypal.apiUrl,
    ).toBe("https://api-m.sandbox.paypal.com");
    expect(() => loadConfig({ ...base, ...real, PAYPAL_WEBHOOK_ID: "" })).toThrow(/PAYPAL_WEBHOOK_ID/);
    expect(() => loadConfig({ ...base, PAYPAL_CLIENT_ID: "id" })).toThrow(/PAYPAL_CLIENT_SECRET/);
    expect(() => loadConfig({ ...base, ...real, PAYPAL_API_URL: "not a url" })).toThrow(/PAYPAL_API_URL/);
  });
});
