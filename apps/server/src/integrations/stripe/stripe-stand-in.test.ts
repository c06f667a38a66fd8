import type { AddressInfo } from "node:net";
import { paymentsDevIdle, paymentsDevRoutes } from "@redline/stand-ins";
import Fastify, { type FastifyInstance } from "fastify";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { createStripeClient } from "./index.ts";

let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}`;

/** A form POST as the checkout page's buttons send it. */
const submit = (url: string) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "",
  });

const card = (baseUrl: string, customer: string, behavior: string) =>
  fetch(`${baseUrl}/dev/payments/customers/${customer}/card`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ behavior }),
  });

describe.each(drivers())("the embedded payment provider (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    // The app's own webhook handler receives this provider's events and may answer 5xx while it is
    // being built: only this provider's own routes must never answer 5xx (checked in afterAll).
    t = await startTestApp({ driver, smtp: false, allowServerErrors: true });
  });
  afterAll(async () => {
    // Let the app's own webhook handler finish with this provider's events (bounded: it may refuse some).
    await Promise.race([paymentsDevIdle(t.app), new Promise((resolve) => setTimeout(resolve, 2000))]);
    const own = t.serverErrors.filter((line) => / \/(v1|dev\/payments)\//.test(line));
    await t.close();
    expect(own).toEqual([]);
  });

  describe("API, pages and test controls", () => {
    let stripe: Stripe;
    beforeAll(() => {
      stripe = createStripeClient(t.ctx.config)!;
    });

    async function customerAndPrice(
      options: { currency?: string; amount?: number; interval?: "month" | "year" } = {},
    ) {
      const customer = await stripe.customers.create({
        email: `${unique("ada")}@example.com`,
        name: "Ada Lovelace",
        metadata: { uid: "user-1" },
      });
      const price = await stripe.prices.create({
        currency: options.currency ?? "usd",
        unit_amount: options.amount ?? 1200,
        recurring: { interval: options.interval ?? "month" },
        product_data: { name: "Redline Pro" },
        lookup_key: unique("redline_pro"),
        metadata: { planID: "pro" },
      });
      return { customer, price };
    }

    async function checkout(customer: Stripe.Customer, price: Stripe.Price) {
      return stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: `${t.url}/billing?session={CHECKOUT_SESSION_ID}`,
        cancel_url: `${t.url}/billing`,
        client_reference_id: "user-1",
        metadata: { uid: "user-1" },
        subscription_data: { metadata: { uid: "user-1", planID: "pro" } },
      });
    }

    /** A customer with an active subscription paid through the checkout page. */
    async function subscribed() {
      const { customer, price } = await customerAndPrice();
      const session = await checkout(customer, price);
      expect((await submit(`${session.url}/pay`)).status).toBe(303);
      const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
      return { customer, price, session, subscription: subscription! };
    }

    it("finds prices by lookup key and refuses a lookup key twice", async () => {
      const { price } = await customerAndPrice();
      expect(price).toMatchObject({ object: "price", unit_amount: 1200, currency: "usd", active: true });
      expect(price.id).toMatch(/^price_/);
      expect(price.recurring?.interval).toBe("month");
      const found = await stripe.prices.list({ lookup_keys: [price.lookup_key!], active: true, limit: 1 });
      expect(found.data.map((p) => p.id)).toEqual([price.id]);
      expect(found).toMatchObject({ object: "list", has_more: false, url: "/v1/prices" });
      const product = price.product as string;
      await expect(
        stripe.prices.create({
          currency: "usd",
          unit_amount: 1,
          recurring: { interval: "month" },
          product,
          lookup_key: price.lookup_key!,
        }),
      ).rejects.toMatchObject({ type: "StripeInvalidRequestError", param: "lookup_key" });
    });

    it("pays a checkout: one active subscription, even when Pay is sent twice at once", async () => {
      const { customer, price } = await customerAndPrice();
      const session = await checkout(customer, price);
      expect(session.url).toBe(`${t.ctx.config.appUrl}/dev/payments/checkout/${session.id}`);
      expect(session).toMatchObject({ status: "open", payment_status: "unpaid", amount_total: 1200 });

      const page = await fetch(session.url!);
      expect(page.status).toBe(200);
      const html = await page.text();
      for (const text of [
        "<title>Redline test checkout</title>",
        "Redline Pro",
        "$12.00",
        "per month",
        customer.email!,
        "no money moves",
      ])
        expect(html).toContain(text);
      for (const action of ["pay", "decline", "requires-action"])
        expect(html).toContain(`action="/dev/payments/checkout/${session.id}/${action}"`);
      expect(html).toMatch(/<button type="submit" class="primary">Pay<\/button>/);
      expect(html).toContain(`href="${t.url}/billing"`);

      const answers = await Promise.all([submit(`${session.url}/pay`), submit(`${session.url}/pay`)]);
      for (const answer of answers) {
        expect(answer.status).toBe(303);
        expect(answer.headers.get("location")).toBe(`${t.url}/billing?session=${session.id}`);
      }
      const list = await stripe.subscriptions.list({ customer: customer.id, status: "all" });
      expect(list.data).toHaveLength(1);
      const subscription = await stripe.subscriptions.retrieve(list.data[0]!.id, {
        expand: ["latest_invoice", "default_payment_method"],
      });
      expect(subscription.status).toBe("active");
      expect(subscription.metadata).toEqual({ uid: "user-1", planID: "pro" });
      const item = subscription.items.data[0]!;
      expect(item.price.id).toBe(price.id);
      expect(item.quantity).toBe(1);
      const start = new Date(item.current_period_start * 1000);
      start.setUTCMonth(start.getUTCMonth() + 1);
      expect(item.current_period_end).toBe(start.getTime() / 1000);
      const invoice = subscription.latest_invoice as Stripe.Invoice;
      expect(invoice).toMatchObject({
        status: "paid",
        amount_paid: 1200,
        billing_reason: "subscription_create",
      });
      const intentId = invoice.payments!.data[0]!.payment.payment_intent as string;
      expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe("succeeded");
      expect((subscription.default_payment_method as Stripe.PaymentMethod).card).toMatchObject({
        brand: "visa",
        last4: "4242",
      });

      const completed = await stripe.checkout.sessions.retrieve(session.id);
      expect(completed).toMatchObject({
        status: "complete",
        payment_status: "paid",
        subscription: subscription.id,
      });
      const withCard = await stripe.customers.retrieve(customer.id, {
        expand: ["invoice_settings.default_payment_method"],
      });
      const method = (withCard as Stripe.Customer).invoice_settings
        .default_payment_method as Stripe.PaymentMethod;
      expect(method.card?.last4).toBe("4242");
      expect((await stripe.paymentMethods.retrieve(method.id)).card?.exp_month).toBe(12);
    });

    it("declines without creating anything, and the session stays open", async () => {
      const { customer, price } = await customerAndPrice();
      const session = await checkout(customer, price);
      const declined = await submit(`${session.url}/decline`);
      expect(declined.status).toBe(402);
      expect(await declined.text()).toMatch(/role="alert">Your card was declined\.</);
      expect((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data).toEqual([]);
      expect((await stripe.paymentIntents.list({ customer: customer.id })).data).toEqual([]);
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    });

    it("leaves a subscription incomplete when authentication is required; paying the invoice activates it", async () => {
      const { customer, price } = await customerAndPrice();
      const session = await checkout(customer, price);
      const answer = await submit(`${session.url}/requires-action`);
      expect(answer.headers.get("location")).toBe(`${t.url}/billing?session=${session.id}`);
      const [subscription] = (
        await stripe.subscriptions.list({ customer: customer.id, expand: ["data.latest_invoice"] })
      ).data;
      expect(subscription!.status).toBe("incomplete");
      const invoice = subscription!.latest_invoice as Stripe.Invoice;
      expect(invoice.status).toBe("open");
      expect(invoice.hosted_invoice_url).toBe(`${t.url}/dev/payments/invoices/${invoice.id}`);
      const [intent] = (await stripe.paymentIntents.list({ customer: customer.id })).data;
      expect(intent!.status).toBe("requires_action");

      const page = await fetch(invoice.hosted_invoice_url!);
      expect(await page.text()).toContain("Pay invoice");
      const back = `${t.url}/billing?paid=1`;
      const paid = await submit(`${invoice.hosted_invoice_url}/pay?return=${encodeURIComponent(back)}`);
      expect(paid.status).toBe(303);
      expect(paid.headers.get("location")).toBe(back);
      expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe("active");
      expect((await stripe.invoices.retrieve(invoice.id)).status).toBe("paid");
      expect((await stripe.paymentIntents.retrieve(intent!.id)).status).toBe("succeeded");

      // Paying again changes nothing; a return address on another origin is not followed.
      const again = await submit(
        `${invoice.hosted_invoice_url}/pay?return=${encodeURIComponent("https://evil.example/")}`,
      );
      expect(again.status).toBe(200);
      expect(await again.text()).toContain("Paid");
    });

    it("sets and undoes cancel_at_period_end, and cancels at once", async () => {
      const { subscription } = await subscribed();
      const periodEnd = subscription.items.data[0]!.current_period_end;
      const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
      expect(canceling).toMatchObject({ cancel_at_period_end: true, cancel_at: periodEnd, status: "active" });
      const kept = await stripe.subscriptions.update(subscription.id, {
        cancel_at_period_end: false,
        metadata: { note: "kept", planID: "" },
      });
      expect(kept.metadata).toEqual({ uid: "user-1", note: "kept" });
      expect(kept).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
      const canceled = await stripe.subscriptions.cancel(subscription.id);
      expect(canceled.status).toBe("canceled");
      expect((await stripe.subscriptions.list({ customer: subscription.customer as string })).data).toEqual(
        [],
      );
      await expect(
        stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }),
      ).rejects.toMatchObject({
        type: "StripeInvalidRequestError",
      });
    });

    async function changeTo(subscription: Stripe.Subscription, price: Stripe.Price) {
      return stripe.subscriptions.update(subscription.id, {
        items: [{ id: subscription.items.data[0]!.id, price: price.id }],
        payment_behavior: "pending_if_incomplete",
        proration_behavior: "always_invoice",
        expand: ["latest_invoice"],
      });
    }

    it("changes plans at once when the card pays", async () => {
      const { subscription } = await subscribed();
      const { price: team } = await customerAndPrice({ amount: 3600 });
      const changed = await changeTo(subscription, team);
      expect(changed.pending_update).toBeNull();
      expect(changed.items.data[0]).toMatchObject({
        id: subscription.items.data[0]!.id,
        price: { id: team.id },
      });
      const invoice = changed.latest_invoice as Stripe.Invoice;
      expect(invoice).toMatchObject({ status: "paid", billing_reason: "subscription_update" });
      expect(invoice.amount_paid).toBeGreaterThan(0);
    });

    it("keeps a plan change pending while the card declines; voiding discards it, paying applies it", async () => {
      const { customer, subscription } = await subscribed();
      const { price: team } = await customerAndPrice({ amount: 3600 });
      expect((await card(t.url, customer.id, "decline")).status).toBe(200);

      const pending = await changeTo(subscription, team);
      expect(pending.status).toBe("active");
      expect(pending.items.data[0]!.price.id).toBe(subscription.items.data[0]!.price.id);
      expect(pending.pending_update?.subscription_items?.[0]).toMatchObject({ price: { id: team.id } });
      expect(Math.abs(pending.pending_update!.expires_at - (Date.now() / 1000 + 23 * 3600))).toBeLessThan(60);
      const open = pending.latest_invoice as Stripe.Invoice;
      expect(open.status).toBe("open");
      const intentId = open.payments!.data[0]!.payment.payment_intent as string;
      expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe("requires_payment_method");

      expect((await stripe.invoices.voidInvoice(open.id)).status).toBe("void");
      const discarded = await stripe.subscriptions.retrieve(subscription.id);
      expect(discarded.pending_update).toBeNull();
      expect(discarded.items.data[0]!.price.id).toBe(subscription.items.data[0]!.price.id);

      const again = await changeTo(subscription, team);
      expect(again.pending_update).not.toBeNull();
      const hosted = (again.latest_invoice as Stripe.Invoice).hosted_invoice_url!;
      expect((await submit(`${hosted}/pay`)).status).toBe(200);
      const applied = await stripe.subscriptions.retrieve(subscription.id);
      expect(applied.pending_update).toBeNull();
      expect(applied.items.data[0]!.price.id).toBe(team.id);
    });

    it("keeps a plan change pending while the card asks for authentication", async () => {
      const { customer, subscription } = await subscribed();
      const { price: team } = await customerAndPrice({ amount: 3600 });
      await card(t.url, customer.id, "requires_action");
      const pending = await changeTo(subscription, team);
      expect(pending.pending_update).not.toBeNull();
      const intentId = (pending.latest_invoice as Stripe.Invoice).payments!.data[0]!.payment
        .payment_intent as string;
      expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe("requires_action");
    });

    it("renews: a failed renewal is past_due, a paid one active, and one set to cancel ends", async () => {
      const { customer, subscription } = await subscribed();
      const end = subscription.items.data[0]!.current_period_end;
      const failed = await fetch(`${t.url}/dev/payments/subscriptions/${subscription.id}/fail-renewal`, {
        method: "POST",
      });
      expect(failed.status).toBe(200);
      const pastDue = await stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice"] });
      expect(pastDue.status).toBe("past_due");
      expect(pastDue.items.data[0]!.current_period_start).toBe(end);
      const invoice = pastDue.latest_invoice as Stripe.Invoice;
      expect(invoice).toMatchObject({ status: "open", billing_reason: "subscription_cycle" });
      const [intent] = (await stripe.paymentIntents.list({ customer: customer.id, limit: 1 })).data;
      expect(intent!.status).toBe("requires_payment_method");
      const invoices = await stripe.invoices.list({ subscription: subscription.id });
      expect(invoices.data.map((i) => i.id)).toContain(invoice.id);

      const renewed = await fetch(`${t.url}/dev/payments/subscriptions/${subscription.id}/renew`, {
        method: "POST",
      });
      expect(((await renewed.json()) as Stripe.Subscription).status).toBe("active");

      await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
      await fetch(`${t.url}/dev/payments/subscriptions/${subscription.id}/renew`, { method: "POST" });
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("canceled");
    });

    it("refuses calls without the secret key (401) and answers 404 for unknown ids", async () => {
      const bare = await fetch(`${t.url}/v1/customers/cus_x`);
      expect(bare.status).toBe(401);
      expect(((await bare.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
      const wrong = new Stripe("sk_test_wrong", {
        host: "127.0.0.1",
        port: t.ctx.config.port,
        protocol: "http",
      });
      await expect(wrong.customers.retrieve("cus_x")).rejects.toMatchObject({
        type: "StripeAuthenticationError",
        statusCode: 401,
      });

      await expect(stripe.customers.retrieve("cus_nope")).rejects.toMatchObject({
        type: "StripeInvalidRequestError",
        statusCode: 404,
        code: "resource_missing",
      });
      await expect(stripe.subscriptions.retrieve("sub_nope")).rejects.toMatchObject({ statusCode: 404 });
      await expect(
        stripe.checkout.sessions.create({
          mode: "subscription",
          customer: "cus_nope",
          line_items: [{ price: "price_x" }],
          success_url: `${t.url}/ok`,
        }),
      ).rejects.toMatchObject({ statusCode: 400, code: "resource_missing", param: "customer" });
      await expect(stripe.customers.create({ metadata: { ["k".repeat(41)]: "v" } })).rejects.toMatchObject({
        statusCode: 400,
      });
      expect((await fetch(`${t.url}/dev/payments/checkout/cs_nope`)).status).toBe(404);
      expect((await submit(`${t.url}/dev/payments/checkout/cs_nope/pay`)).status).toBe(404);
      expect((await fetch(`${t.url}/dev/payments/invoices/in_nope`)).status).toBe(404);
      expect((await card(t.url, "cus_nope", "decline")).status).toBe(404);
      expect(
        (await fetch(`${t.url}/dev/payments/subscriptions/sub_nope/renew`, { method: "POST" })).status,
      ).toBe(404);
      const { customer } = await customerAndPrice();
      expect((await card(t.url, customer.id, "sometimes")).status).toBe(400);
      expect(
        (
          await fetch(`${t.url}/v1/nothing-here`, {
            headers: { authorization: `Bearer ${t.ctx.config.payments.secretKey}` },
          })
        ).status,
      ).toBe(404);
    });

    it("expires a session: its page is gone", async () => {
      const { customer, price } = await customerAndPrice();
      const session = await checkout(customer, price);
      expect((await stripe.checkout.sessions.expire(session.id)).status).toBe("expired");
      expect((await fetch(session.url!)).status).toBe(404);
      expect((await submit(`${session.url}/pay`)).status).toBe(404);
    });

    it("lists a customer's checkout sessions, newest first, by status", async () => {
      const { customer, price } = await customerAndPrice();
      const other = await customerAndPrice();
      const older = await checkout(customer, price);
      const newer = await checkout(customer, price);
      await checkout(other.customer, other.price);
      await stripe.checkout.sessions.expire(older.id);
      const all = await stripe.checkout.sessions.list({ customer: customer.id });
      expect(all.data.map((session) => session.id)).toEqual([newer.id, older.id]);
      const open = await stripe.checkout.sessions.list({ customer: customer.id, status: "open" });
      expect(open.data.map((session) => session.id)).toEqual([newer.id]);
      const latest = await stripe.checkout.sessions.list({ customer: customer.id, limit: 1 });
      expect([latest.data.map((session) => session.id), latest.has_more]).toEqual([[newer.id], true]);
    });

    it("shows zero-decimal currencies without decimals", async () => {
      const { customer, price } = await customerAndPrice({ currency: "jpy", amount: 1200, interval: "year" });
      const session = await checkout(customer, price);
      const html = await (await fetch(session.url!)).text();
      expect(html).toContain("¥1,200");
      expect(html).toContain("per year");
      expect(html).not.toContain("¥12.00");
    });

    it("charges a price's currency option when the checkout names that currency", async () => {
      const customer = await stripe.customers.create({ email: `${unique("yen")}@example.com` });
      const price = await stripe.prices.create({
        currency: "usd",
        unit_amount: 4000,
        currency_options: { jpy: { unit_amount: 5800 }, eur: { unit_amount: 3400 } },
        recurring: { interval: "month" },
        product_data: { name: "Redline Pro" },
      });
      // Includable, as on Stripe: only when expanded, with the default currency too.
      expect(price.currency_options).toBeUndefined();
      const expanded = await stripe.prices.retrieve(price.id, { expand: ["currency_options"] });
      expect(expanded.currency_options).toMatchObject({
        usd: { unit_amount: 4000, unit_amount_decimal: "4000" },
        jpy: { unit_amount: 5800 },
        eur: { unit_amount: 3400 },
      });
      const refused = stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        currency: "gbp",
        line_items: [{ price: price.id }],
        success_url: `${t.url}/billing`,
      });
      await expect(refused).rejects.toMatchObject({ statusCode: 400, param: "currency" });

      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        currency: "jpy",
        line_items: [{ price: price.id }],
        success_url: `${t.url}/billing`,
      });
      expect(session).toMatchObject({ currency: "jpy", amount_total: 5800 });
      const html = await (await fetch(session.url!)).text();
      expect(html).toContain("¥5,800");
      expect((await submit(`${session.url}/pay`)).status).toBe(303);
      const paid = await stripe.checkout.sessions.retrieve(session.id, {
        expand: ["subscription.latest_invoice"],
      });
      const subscription = paid.subscription as Stripe.Subscription;
      const invoice = subscription.latest_invoice as Stripe.Invoice;
      expect(subscription.currency).toBe("jpy");
      expect(invoice).toMatchObject({ currency: "jpy", amount_paid: 5800, total: 5800 });
      expect(invoice.lines.data[0]).toMatchObject({ currency: "jpy", amount: 5800 });
      // The subscription's events do not carry the price's options either.
      const events = await stripe.events.list({ type: "customer.subscription.created", limit: 5 });
      const created = events.data.find(
        (event) => (event.data.object as { id: string }).id === subscription.id,
      );
      expect(JSON.stringify(created)).not.toContain("currency_options");
      expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]!.price).not.toHaveProperty(
        "currency_options",
      );
      // A plan change stays in yen: a price without a yen amount is refused.
      const euroOnly = await stripe.prices.create({
        currency: "eur",
        unit_amount: 3400,
        recurring: { interval: "month" },
        product_data: { name: "Redline Standard" },
      });
      const change = stripe.subscriptions.update(subscription.id, {
        items: [{ id: subscription.items.data[0]!.id, price: euroOnly.id }],
        payment_behavior: "pending_if_incomplete",
        proration_behavior: "always_invoice",
      });
      await expect(change).rejects.toMatchObject({ statusCode: 400, param: "items[0][price]" });
    });

    it("refuses the price's own currency among its currency options", async () => {
      const create = stripe.prices.create({
        currency: "usd",
        unit_amount: 4000,
        currency_options: { usd: { unit_amount: 3900 } },
        recurring: { interval: "month" },
        product_data: { name: "Redline Pro" },
      });
      await expect(create).rejects.toMatchObject({ statusCode: 400, param: "currency_options[usd]" });
    });

    it("lists events newest first", async () => {
      await subscribed();
      const events = await stripe.events.list({ limit: 5 });
      expect(events.data).toHaveLength(5);
      const created = events.data.map((event) => event.created);
      expect([...created].sort((a, b) => b - a)).toEqual(created);
      expect(events.data[0]!.type).toBe("checkout.session.completed");
      expect((await stripe.events.retrieve(events.data[0]!.id)).id).toBe(events.data[0]!.id);
    });
  });

  describe("webhooks", () => {
    const secret = "whsec_test_embedded";
    let receiver: FastifyInstance;
    let provider: FastifyInstance;
    let providerUrl: string;
    let stripe: Stripe;
    const received: Stripe.Event[] = [];
    let refusals = 1;

    beforeAll(async () => {
      receiver = Fastify();
      receiver.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
        done(null, body),
      );
      receiver.post("/hook", async (request, reply) => {
        // The first delivery fails: it must come again, before anything later.
        if (refusals-- > 0) return reply.status(503).send();
        const signature = request.headers["stripe-signature"] as string;
        received.push(await stripe.webhooks.constructEventAsync(request.body as string, signature, secret));
        return { received: true };
      });
      await receiver.listen({ host: "127.0.0.1", port: 0 });
      provider = Fastify();
      const hookUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
      await provider.register(paymentsDevRoutes, { ctx: t.ctx, webhookUrl: hookUrl, webhookSecret: secret });
      await provider.listen({ host: "127.0.0.1", port: 0 });
      const port = (provider.server.address() as AddressInfo).port;
      providerUrl = `http://127.0.0.1:${port}`;
      stripe = createStripeClient({ ...t.ctx.config, port })!;
    });
    afterAll(async () => {
      await provider.close();
      await receiver.close();
    });

    it("delivers every event signed, in order, retrying a refused delivery", async () => {
      const customer = await stripe.customers.create({ email: "hooks@example.com" });
      const price = await stripe.prices.create({
        currency: "eur",
        unit_amount: 900,
        recurring: { interval: "year" },
        product_data: { name: "Redline Pro" },
      });
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: `${t.url}/billing`,
      });
      const paid = await submit(`${providerUrl}/dev/payments/checkout/${session.id}/pay`);
      expect(paid.status).toBe(303);
      await paymentsDevIdle(provider);
      expect(received.map((event) => event.type)).toEqual([
        "invoice.created",
        "payment_intent.succeeded",
        "invoice.paid",
        "customer.subscription.created",
        "checkout.session.completed",
      ]);
      // In the order they were made (the list is newest first).
      const made = (await stripe.events.list({ limit: 50 })).data.map((event) => event.id).reverse();
      const positions = received.map((event) => made.indexOf(event.id));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      const completed = received.at(-1)!.data.object as Stripe.Checkout.Session;
      expect(completed).toMatchObject({ id: session.id, status: "complete" });
      expect(completed).not.toHaveProperty("_subscription_data");
      const created = received[3]!.data.object as Stripe.Subscription;
      expect(created.status).toBe("active");
    });
  });
});
