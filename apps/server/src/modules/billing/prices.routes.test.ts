/**
 * Prices in the visitor's currency (SPEC §2 /upgrade, §9 currencies), through the API and the embedded
 * provider: the proxy's country header, else the browser's language region, decides the default
 * currency; a checkout in EUR or JPY makes a session, subscription and invoices in that currency with
 * the catalog's amount in its minor units (whole yen); a plan change and a renewal stay in it; an
 * unsupported currency is refused before anything is created.
 */
import { CURRENCY_MESSAGES } from "@redline/shared";
import { count, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentProviderObjects, subscriptions, users } from "../../db/schema/index.ts";
import { createStripeClient } from "../../integrations/stripe/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { pressCheckout } from "../../testing/payments.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe("prices and checkout in the visitor's currency", () => {
  let t: TestApp;
  let stripe: Stripe;
  beforeAll(async () => {
    t = await startTestApp({
      driver: defaultDriver(),
      config: { plansEnabled: true, trustProxy: true, geoCountryHeader: "cf-ipcountry" },
    });
    stripe = createStripeClient(t.ctx.config)!;
  });
  afterAll(() => t.close());

  const prices = async (query = "", headers: Record<string, string> = {}) => {
    const answer = await fetch(`${t.url}/api/billing/prices${query}`, { headers });
    return { status: answer.status, body: await answer.json(), vary: answer.headers.get("vary") };
  };
  const amountOf = (body: { data: { prices: { planId: string; amount: number }[] } }, planId: string) =>
    body.data.prices.find((price) => price.planId === planId)?.amount;

  it("defaults to the country the proxy names, else the browser's language region, else USD", async () => {
    const swiss = await prices("", { "accept-language": "de-CH,de;q=0.9,en;q=0.8" });
    expect(swiss.status).toBe(200);
    expect(swiss.body.data).toMatchObject({ currency: "CHF", source: "language", country: "CH" });
    expect(swiss.vary).toBe("accept-language, cf-ipcountry");
    // 40 × 0.797 = 31.88 → CHF 32.
    expect(amountOf(swiss.body, "pro-monthly")).toBe(3200);

    const japan = await prices("", { "cf-ipcountry": "JP", "accept-language": "de-CH" });
    expect(japan.body.data).toMatchObject({ currency: "JPY", source: "country", country: "JP" });
    expect(amountOf(japan.body, "pro-monthly")).toBe(5800);
    expect(amountOf(japan.body, "pro-yearly-30off")).toBe(48370);
    expect(japan.body.data.currencies).toHaveLength(25);

    // A country whose currency is not supported pays in USD; Cloudflare's "unknown" says nothing.
    const korea = await prices("", { "cf-ipcountry": "KR", "accept-language": "de-CH" });
    expect(korea.body.data).toMatchObject({ currency: "USD", source: "country", country: "KR" });
    const unknown = await prices("", { "cf-ipcountry": "XX", "accept-language": "en-GB" });
    expect(unknown.body.data).toMatchObject({ currency: "GBP", source: "language", country: "GB" });

    const nothing = await prices("", { "accept-language": "fr" });
    expect(nothing.body.data).toMatchObject({ currency: "USD", source: "default", country: null });
    expect(amountOf(nothing.body, "pro-monthly")).toBe(4000);
    expect(amountOf(nothing.body, "browse-standard-yearly-20off")).toBe(37440);

    const asked = await prices("?currency=eur", { "cf-ipcountry": "JP" });
    expect(asked.body.data).toMatchObject({ currency: "EUR", source: "query" });
    expect(amountOf(asked.body, "pro-monthly")).toBe(3400);
  });

  it("refuses an unsupported currency with a clear message", async () => {
    const answer = await prices("?currency=KRW");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: "validation" });
    expect(answer.body.message).toContain(CURRENCY_MESSAGES.unsupported);
  });

  const signUp = (name: string) => signUpVerified(t.url, t.inbox!, email(name));
  const uidOf = async (client: ApiClient) => (await client.get("/api/me")).body.data.uid as string;
  const billing = async (client: ApiClient) => (await client.get("/api/billing")).body.data;
  const sessionIdOf = (url: string) => url.split("/").pop()!;

  async function checkout(client: ApiClient, body: Record<string, string>) {
    const started = await client.post("/api/billing/checkout", body);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const url = started.body.data.url as string;
    const page = await (await fetch(url)).text();
    const session = await stripe.checkout.sessions.retrieve(sessionIdOf(url));
    expect((await pressCheckout(url, "pay")).status).toBe(303);
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const subscription = await stripe.subscriptions.retrieve(paid.subscription as string, {
      expand: ["latest_invoice"],
    });
    return { page, session, subscription, invoice: subscription.latest_invoice as Stripe.Invoice };
  }

  it("charges a checkout in EUR in euro cents, and keeps the subscription in EUR through a plan change and a renewal", async () => {
    const client = await signUp("euro");
    const { page, session, subscription, invoice } = await checkout(client, {
      planId: "pro-monthly",
      currency: "eur",
    });
    expect(page).toContain("€34.00");
    expect(session).toMatchObject({ currency: "eur", amount_total: 3400 });
    expect(subscription.currency).toBe("eur");
    expect(invoice).toMatchObject({ currency: "eur", amount_paid: 3400, status: "paid" });

    // One price, in USD, with every other currency as an option — sent only when asked for.
    const price = subscription.items.data[0]!.price;
    expect(price).toMatchObject({ currency: "usd", unit_amount: 4000 });
    expect(price.currency_options).toBeUndefined();
    const expanded = await stripe.prices.retrieve(price.id, { expand: ["currency_options"] });
    expect(expanded.currency_options).toMatchObject({
      usd: { unit_amount: 4000 },
      eur: { unit_amount: 3400 },
      jpy: { unit_amount: 5800 },
      chf: { unit_amount: 3200 },
    });
    expect(Object.keys(expanded.currency_options!)).toHaveLength(25);

    const shown = await billing(client);
    expect(shown.subscriptions[0]).toMatchObject({ planId: "pro-monthly", amount: 3400, currency: "eur" });
    expect(shown.invoices[0]).toMatchObject({ currency: "eur", amountPaid: 3400 });

    // A change to Team bills the prorated difference in EUR; then Team's euro price applies.
    const changed = await client.post(`/api/billing/subscriptions/${subscription.id}/update`, {
      planId: "team-monthly",
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.outcome).toEqual({ result: "success" });
    // 240 × 0.853 = 204.72 → €205.
    expect(changed.body.data.subscription).toMatchObject({ amount: 20500, currency: "eur" });
    const renewal = await fetch(`${t.url}/dev/payments/subscriptions/${subscription.id}/renew`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(renewal.status).toBe(200);
    const invoices = (await billing(client)).invoices as { currency: string; amountPaid: number }[];
    expect(invoices.map((shownInvoice) => shownInvoice.currency)).toEqual(["eur", "eur", "eur"]);
    expect(invoices[0]!.amountPaid).toBe(20500);
  });

  it("charges a checkout in JPY in whole yen, after a promo code", async () => {
    const client = await signUp("yen");
    const { page, session, subscription, invoice } = await checkout(client, {
      planId: "pro-yearly",
      promoCode: "SAVE30",
      currency: "JPY",
    });
    // ¥69,100 less 30 % = ¥48,370: no minor unit.
    expect(page).toContain("¥48,370");
    expect(session).toMatchObject({ currency: "jpy", amount_total: 48370 });
    expect(subscription.currency).toBe("jpy");
    expect(invoice).toMatchObject({ currency: "jpy", amount_paid: 48370 });
    const invoicePage = await (await fetch(invoice.hosted_invoice_url!)).text();
    expect(invoicePage).toContain("¥48,370");
    const shown = await billing(client);
    expect(shown.subscriptions[0]).toMatchObject({
      planId: "pro-yearly-30off",
      amount: 48370,
      currency: "jpy",
    });
  });

  it("refuses a checkout in an unsupported currency before anything is created", async () => {
    const client = await signUp("won");
    const uid = await uidOf(client);
    const objects = async () =>
      (await t.ctx.database.db.select({ n: count() }).from(paymentProviderObjects))[0]!.n;
    const before = await objects();
    for (const currency of ["KRW", "euro", ""]) {
      const answer = await client.post("/api/billing/checkout", { planId: "pro-monthly", currency });
      expect(answer.status, currency).toBe(400);
      expect(answer.body.message).toContain(CURRENCY_MESSAGES.unsupported);
    }
    expect(await objects()).toBe(before);
    const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, uid));
    expect(user!.stripeCustomerId).toBeNull();
    expect(await t.ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, uid))).toEqual(
      [],
    );
  });
});
