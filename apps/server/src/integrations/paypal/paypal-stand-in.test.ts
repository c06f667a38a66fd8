/**
 * The embedded PayPal provider on its own: OAuth client credentials, the v1 endpoints the app's client
 * calls (PayPal's shapes and errors, PayPal-Request-Id), the approval page, the test controls, its
 * webhooks (stored in order, delivered to the app and accepted there) and its signature verification.
 */

import type { PaypalSubscription } from "@redline/shared/paypal";
import { paymentsDevIdle, transmissionHeaders } from "@redline/stand-ins";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingEvents, paymentProviderObjects } from "../../db/schema/index.ts";
import { pressCheckout } from "../../testing/payments.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}`;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

describe.each(routeDrivers())("the embedded PayPal provider (%s)", (driver) => {
  let t: TestApp;
  let api: string;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ driver, smtp: false });
    api = `${t.url}/paypal-api`;
    token = (await requestToken()).body.access_token as string;
  });
  afterAll(() => t.close());

  async function requestToken(
    authorization = basic(t.ctx.config.paypal.clientId!, t.ctx.config.paypal.clientSecret),
    body = "grant_type=client_credentials",
  ) {
    const response = await fetch(`${api}/v1/oauth2/token`, {
      method: "POST",
      headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  const cycle = (value: string, unit = "MONTH") => ({
    frequency: { interval_unit: unit, interval_count: 1 },
    tenure_type: "REGULAR",
    sequence: 1,
    total_cycles: 0,
    pricing_scheme: { fixed_price: { value, currency_code: "USD" } },
  });

  async function plan(options: { quantity?: boolean; price?: string } = {}) {
    const product = await call("POST", "/v1/catalogs/products", { name: "Redline test", type: "SERVICE" });
    const created = await call("POST", "/v1/billing/plans", {
      product_id: product.body.id,
      name: unique("Test plan"),
      billing_cycles: [cycle(options.price ?? "12.50")],
      quantity_supported: options.quantity ?? false,
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; product_id: string };
  }

  async function subscription(planId: string, quantity = "1", headers: Record<string, string> = {}) {
    return call(
      "POST",
      "/v1/billing/subscriptions",
      {
        plan_id: planId,
        quantity,
        custom_id: "user-1",
        subscriber: { email_address: "ada@example.com" },
        application_context: { return_url: `${t.url}/back?x=1`, cancel_url: `${t.url}/cancelled` },
      },
      headers,
    );
  }

  const eventsOf = async (subscriptionId: string) =>
    (
      await t.ctx.database.db
        .select()
        .from(paymentProviderObjects)
        .where(
          and(
            eq(paymentProviderObjects.type, "paypal_event"),
            eq(paymentProviderObjects.customer, subscriptionId),
          ),
        )
        .orderBy(asc(paymentProviderObjects.createdAt))
    ).map((row) => row.data as { id: string; event_type: string; resource: Record<string, unknown> });

  it("gives a bearer token for its client credentials only, and the API answers no one else", async () => {
    expect(token).toMatch(/^A21AA/);
    expect((await requestToken(basic(t.ctx.config.paypal.clientId!, "wrong"))).body).toMatchObject({
      error: "invalid_client",
    });
    expect((await requestToken(basic("someone", t.ctx.config.paypal.clientSecret))).status).toBe(401);
    expect((await requestToken("")).status).toBe(401);
    expect((await requestToken(undefined, "grant_type=password")).body).toMatchObject({
      error: "unsupported_grant_type",
    });

    for (const authorization of [undefined, "Bearer nope", `Bearer A21AA99999999999.${"x".repeat(43)}`]) {
      const response = await fetch(`${api}/v1/billing/plans`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ name: "AUTHENTICATION_FAILURE" });
    }
    expect((await call("GET", "/v1/billing/nothing-here")).body).toMatchObject({ name: "NOT_FOUND" });
  });

  it("keeps products, plans and subscriptions as PayPal does, one per PayPal-Request-Id", async () => {
    const productId = unique("REDLINE").toUpperCase();
    const product = await call("POST", "/v1/catalogs/products", { id: productId, name: "Redline" });
    expect(product).toMatchObject({ status: 201, body: { id: productId, type: "PHYSICAL" } });
    expect(
      (await call("POST", "/v1/catalogs/products", { id: productId, name: "Again" })).body,
    ).toMatchObject({
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "DUPLICATE_RESOURCE_IDENTIFIER" }],
    });
    expect((await call("GET", `/v1/catalogs/products/${productId}`)).body.name).toBe("Redline");

    const { id: planId } = await plan({ price: "12.50" });
    expect(planId).toMatch(/^P-[0-9A-Z]{24}$/);
    const shown = await call("GET", `/v1/billing/plans/${planId}`);
    expect(shown.body).toMatchObject({ status: "ACTIVE", quantity_supported: false });
    const listed = await call(
      "GET",
      `/v1/billing/plans?product_id=${shown.body.product_id}&total_required=true`,
    );
    expect(listed.body).toMatchObject({ plans: [{ id: planId }], total_items: 1, total_pages: 1 });
    expect(listed.body.plans[0].billing_cycles).toBeUndefined();
    const invalid = await call("POST", "/v1/billing/plans", { name: "No product", billing_cycles: [] });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ name: "INVALID_REQUEST" });

    expect((await subscription(planId, "2")).body).toMatchObject({
      details: [{ issue: "QUANTITY_NOT_SUPPORTED" }],
    });
    expect((await subscription("P-UNKNOWN")).status).toBe(404);
    const noReturn = await call("POST", "/v1/billing/subscriptions", { plan_id: planId });
    expect(noReturn.body.details[0]).toMatchObject({ field: "/application_context" });

    const requestId = { "paypal-request-id": unique("checkout") };
    const created = await subscription(planId, "1", requestId);
    expect(created.status).toBe(201);
    const sub = created.body as PaypalSubscription;
    expect(sub).toMatchObject({
      status: "APPROVAL_PENDING",
      quantity: "1",
      custom_id: "user-1",
      plan_id: planId,
    });
    expect(sub.id).toMatch(/^I-[0-9A-Z]{12}$/);
    expect(sub.links.find((l) => l.rel === "approve")?.href).toBe(`${t.url}/dev/paypal/approve/${sub.id}`);
    expect(JSON.stringify(sub)).not.toContain("_return_url");
    expect((await subscription(planId, "1", requestId)).body.id).toBe(sub.id);
    expect((await call("GET", `/v1/billing/subscriptions/${sub.id}`)).body.status).toBe("APPROVAL_PENDING");
    expect((await call("GET", "/v1/billing/subscriptions/I-000000000000")).body).toMatchObject({
      name: "RESOURCE_NOT_FOUND",
    });
    expect((await call("POST", `/v1/billing/subscriptions/${sub.id}/cancel`, { reason: "x" })).status).toBe(
      422,
    );
  });

  it("approves on its page: ACTIVE with one completed payment, its webhooks in order, then the return URL", async () => {
    const { id: planId } = await plan({ quantity: true, price: "39.00" });
    const sub = (await subscription(planId, "2")).body as PaypalSubscription;
    const approveUrl = sub.links.find((l) => l.rel === "approve")!.href;

    const page = await fetch(approveUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of ["Approve", "Cancel", "$78.00", "ada@example.com"]) expect(html).toContain(text);
    expect((await fetch(`${t.url}/dev/paypal/approve/I-000000000000`)).status).toBe(404);

    const cancelled = await pressCheckout(approveUrl, "cancel");
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("location")).toMatch(new RegExp(`^${t.url}/cancelled\\?token=`));
    expect((await call("GET", `/v1/billing/subscriptions/${sub.id}`)).body.status).toBe("APPROVAL_PENDING");

    const approved = await pressCheckout(approveUrl, "approve");
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(`${t.url}/back`);
    expect(back.searchParams.get("x")).toBe("1");
    expect(back.searchParams.get("subscription_id")).toBe(sub.id);
    expect((await pressCheckout(approveUrl, "approve")).status).toBe(303);
    expect(await (await fetch(approveUrl)).text()).toContain("Already approved");

    const active = (await call("GET", `/v1/billing/subscriptions/${sub.id}`)).body as PaypalSubscription;
    expect(active).toMatchObject({ status: "ACTIVE", subscriber: { email_address: "ada@example.com" } });
    expect(active.billing_info?.last_payment?.amount).toEqual({ currency_code: "USD", value: "78.00" });
    expect(new Date(active.billing_info!.next_billing_time!).getTime()).toBeGreaterThan(
      Date.now() + 27 * 86_400_000,
    );
    expect(active.links.map((l) => l.rel)).toEqual(["self", "edit", "cancel"]);

    const since = new Date(Date.now() - 60_000).toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    const transactions = await call(
      "GET",
      `/v1/billing/subscriptions/${sub.id}/transactions?start_time=${since}&end_time=${until}`,
    );
    expect(transactions.body.transactions).toHaveLength(1);
    expect(transactions.body.transactions[0]).toMatchObject({
      status: "COMPLETED",
      amount_with_breakdown: { gross_amount: { value: "78.00", currency_code: "USD" } },
      payer_email: "ada@example.com",
    });
    const before = await call(
      "GET",
      `/v1/billing/subscriptions/${sub.id}/transactions?start_time=2020-01-01T00:00:00Z&end_time=2020-02-01T00:00:00Z`,
    );
    expect(before.body.transactions).toEqual([]);
    expect((await call("GET", `/v1/billing/subscriptions/${sub.id}/transactions`)).status).toBe(400);

    const events = await eventsOf(sub.id);
    expect(events.map((e) => e.event_type)).toEqual([
      "BILLING.SUBSCRIPTION.ACTIVATED",
      "PAYMENT.SALE.COMPLETED",
    ]);
    expect(events[0]!.id).toMatch(/^WH-/);
    expect(events[1]!.resource).toMatchObject({ billing_agreement_id: sub.id, amount: { total: "78.00" } });
    // Delivered to the app, which asked the provider to verify them and recorded them as handled.
    await paymentsDevIdle(t.app);
    const handled = await t.ctx.database.db.select().from(billingEvents);
    expect(handled.map((e) => e.id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));
  });

  it("suspends and cancels through its test controls and its API, each with its webhook", async () => {
    const { id: planId } = await plan();
    const sub = (await subscription(planId)).body as PaypalSubscription;
    await pressCheckout(sub.links.find((l) => l.rel === "approve")!.href, "approve");
    const control = (action: string) =>
      fetch(`${t.url}/dev/paypal/subscriptions/${sub.id}/${action}`, { method: "POST" });

    const suspended = await control("suspend");
    expect(await suspended.json()).toMatchObject({ id: sub.id, status: "SUSPENDED" });
    expect((await control("suspend")).status).toBe(422);
    expect((await call("POST", `/v1/billing/subscriptions/${sub.id}/cancel`, {})).status).toBe(400);
    expect(
      (await call("POST", `/v1/billing/subscriptions/${sub.id}/cancel`, { reason: "Not needed" })).status,
    ).toBe(204);
    const cancelled = (await call("GET", `/v1/billing/subscriptions/${sub.id}`)).body as PaypalSubscription;
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.billing_info?.next_billing_time).toBeUndefined();
    expect((await control("cancel")).status).toBe(422);
    expect(
      (await fetch(`${t.url}/dev/paypal/subscriptions/I-000000000000/cancel`, { method: "POST" })).status,
    ).toBe(404);
    expect((await eventsOf(sub.id)).map((e) => e.event_type)).toEqual([
      "BILLING.SUBSCRIPTION.ACTIVATED",
      "PAYMENT.SALE.COMPLETED",
      "BILLING.SUBSCRIPTION.SUSPENDED",
      "BILLING.SUBSCRIPTION.CANCELLED",
    ]);
    await paymentsDevIdle(t.app);
  });

  it("answers malformed requests with PayPal's 4xx, never a 5xx", async () => {
    const bodies = [
      "{",
      "[]",
      "null",
      '"x"',
      JSON.stringify({ plan_id: "\u0000" }),
      JSON.stringify({ quantity: 2 }),
    ];
    const paths = [
      "/v1/catalogs/products",
      "/v1/billing/plans",
      "/v1/billing/subscriptions",
      "/v1/billing/subscriptions/I-000000000000/cancel",
      "/v1/notifications/verify-webhook-signature",
    ];
    for (const path of paths)
      for (const body of bodies) {
        const response = await fetch(`${api}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body,
        });
        expect(response.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${path} ${body}`).toBeLessThan(500);
      }
    for (const path of [
      "/v1/billing/plans?page_size=500",
      "/v1/billing/plans/%00",
      "/v1/billing/subscriptions/..%2F..",
      "/v1/billing/subscriptions/I-000000000000/transactions?start_time=yesterday&end_time=now",
    ]) {
      const response = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect([400, 404], path).toContain(response.status);
    }
    // A NUL in the path is the app's input boundary's 400; an unknown id is PayPal's 404.
    for (const path of [
      "/approve/%00/approve",
      "/approve/I-000000000000/approve",
      "/subscriptions/x/suspend",
    ])
      expect([400, 404], path).toContain(
        (await fetch(`${t.url}/dev/paypal${path}`, { method: "POST" })).status,
      );
  });

  it("verifies its own signatures and nothing else", async () => {
    const { paypal } = t.ctx.config;
    const body = JSON.stringify({ id: unique("WH-TEST"), event_type: "PING", resource: { n: 1 } });
    const headers = transmissionHeaders({
      secret: paypal.signingSecret,
      webhookId: paypal.webhookId,
      certUrl: `${api}/cert`,
      body,
    });
    const verify = (overrides: Record<string, unknown> = {}, event = JSON.parse(body)) =>
      call("POST", "/v1/notifications/verify-webhook-signature", {
        auth_algo: headers["paypal-auth-algo"],
        cert_url: headers["paypal-cert-url"],
        transmission_id: headers["paypal-transmission-id"],
        transmission_sig: headers["paypal-transmission-sig"],
        transmission_time: headers["paypal-transmission-time"],
        webhook_id: paypal.webhookId,
        webhook_event: event,
        ...overrides,
      });
    expect((await verify()).body).toEqual({ verification_status: "SUCCESS" });
    const failures = [
      await verify({}, { ...JSON.parse(body), resource: { n: 2 } }),
      await verify({ webhook_id: "WH-SOMEONE-ELSE" }),
      await verify({ auth_algo: "SHA256withRSA" }),
      await verify({ transmission_sig: Buffer.from("forged").toString("base64") }),
      await verify({ transmission_time: new Date(0).toISOString() }),
    ];
    for (const failure of failures) expect(failure.body).toEqual({ verification_status: "FAILURE" });
    expect((await verify({ webhook_event: "not an object" })).status).toBe(400);
  });
});
