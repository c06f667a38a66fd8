/**
 * Billing end to end through the API and the embedded provider's checkout page (SPEC §4, §9): a free
 * user pays for Pro with a promo code and may then create projects; a declined card changes nothing;
 * two checkouts at once make one subscription; cancel at period end and undo; a plan change left
 * pending by the card, then cancelled; a past_due subscription raises the payment notice; nobody acts
 * on another's subscription; plans switched off take no payment.
 */
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptions, users } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { eventually, pressCheckout, startCheckout, subscribe } from "../../testing/payments.ts";
import { routeIt } from "../../testing/route-it.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(drivers())("billing (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  const signUp = (name: string) => signUpVerified(t.url, t.inbox!, email(name));
  const uidOf = async (client: ApiClient) => (await client.get("/api/me")).body.data.uid as string;
  const rowsOf = async (uid: string) =>
    t.ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, uid));
  /** The user's subscriptions as the webhooks left them (no /api/billing visit, which re-reads). */
  const heldBy = async (uid: string) =>
    (await t.ctx.database.db.select().from(users).where(eq(users.id, uid)))[0]!.heldSubscriptions;
  const billing = async (client: ApiClient) => (await client.get("/api/billing")).body.data;
  const provider = (path: string, body: unknown = {}) =>
    fetch(`${t.url}/dev/payments${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  routeIt(driver)(
    "takes a free user at the project limit to Pro (yearly, with a promo code), after which projects can be created",
    async () => {
      const client = await signUp("upgrader");
      const uid = await uidOf(client);
      expect((await client.post("/api/projects", { type: "web", title: "One" })).status).toBe(201);
      const refused = await client.post("/api/projects", { type: "web", title: "Two" });
      expect(refused.status).toBe(402);

      const { url, answer } = await subscribe(client, "pro-yearly", "pay", "save30");
      expect(url).toMatch(new RegExp(`^${t.url}/dev/payments/checkout/cs_`));
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toMatch(
        new RegExp(`^${t.url}/payment-success/pro-yearly-30off\\?session_id=cs_`),
      );
      // The webhooks alone give the plan.
      await eventually(async () => (await heldBy(uid)).some((held) => held.status === "active"));
      const me = (await client.get("/api/me")).body.data;
      expect(me.plans.web).toMatchObject({ name: "Pro", isFree: false });
      expect(me.paymentIssue).toBe(false);

      const shown = await billing(client);
      expect(shown.subscriptions).toHaveLength(1);
      expect(shown.subscriptions[0]).toMatchObject({
        planId: "pro-yearly-30off",
        planName: "Pro (yearly, 30% off)",
        product: "web",
        status: "active",
        cancelAtPeriodEnd: false,
        amount: 33600,
        currency: "usd",
        pendingUpdate: null,
        abilities: { canCancel: true, canUndoCancel: false, canUpdate: true, canCancelPendingUpdate: false },
      });
      expect(new Date(shown.subscriptions[0].currentPeriodEnd).getTime()).toBeGreaterThan(
        Date.now() + 300 * 86_400_000,
      );
      expect(shown.paymentMethod).toMatchObject({ brand: "visa", last4: "4242" });
      expect(shown.invoices[0]).toMatchObject({ status: "paid", amountPaid: 33600 });
      expect(shown.canCheckout).toBe(true);

      expect((await client.post("/api/projects", { type: "web", title: "Two" })).status).toBe(201);
      expect((await client.post("/api/projects", { type: "web", title: "Three" })).status).toBe(201);
      // Holding a card subscription for the product, a second checkout is refused: change the plan instead.
      const again = await client.post("/api/billing/checkout", { planId: "standard-monthly" });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("already-subscribed");
    },
  );

  routeIt(driver)("leaves the plan as it was when the card is declined", async () => {
    const client = await signUp("declined");
    const uid = await uidOf(client);
    const { answer } = await subscribe(client, "pro-monthly", "decline");
    expect(answer.status).toBe(402);
    expect(await answer.text()).toContain("Your card was declined.");
    expect(await rowsOf(uid)).toEqual([]);
    expect((await billing(client)).subscriptions).toEqual([]);
    expect((await client.get("/api/me")).body.data.plans.web).toMatchObject({ name: "Free", isFree: true });
  });

  it("makes one subscription of two checkouts submitted at once, paid twice", async () => {
    const client = await signUp("double");
    const uid = await uidOf(client);
    const [first, second] = await Promise.all([
      startCheckout(client, "standard-yearly"),
      startCheckout(client, "standard-yearly"),
    ]);
    expect(second).toBe(first);
    const answers = await Promise.all([pressCheckout(first, "pay"), pressCheckout(second, "pay")]);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    await billing(client);
    const [row] = await t.ctx.database.db
      .select({ n: count() })
      .from(subscriptions)
      .where(eq(subscriptions.userId, uid));
    expect(row!.n).toBe(1);
    // One customer at the provider too, however many checkouts raced.
    expect(
      (await t.ctx.database.db.select().from(users).where(eq(users.id, uid)))[0]!.stripeCustomerId,
    ).toMatch(/^cus_/);
  });

  routeIt(driver)(
    "keeps the promo code on the provider checkout's way back to the payment summary",
    async () => {
      const client = await signUp("back-with-code");
      const started = await client.post("/api/billing/checkout", {
        planId: "pro-yearly",
        promoCode: "save30",
      });
      expect(started.status).toBe(200);
      const page = await (await fetch(started.body.data.url)).text();
      expect(page).toContain(`href="${t.url}/upgrade/confirm/pro-yearly?promo=SAVE30"`);
    },
  );

  routeIt(driver)(
    "refuses unknown plans, plan ids that carry their own discount, and promo codes that do not apply",
    async () => {
      const client = await signUp("bad-input");
      const uid = await uidOf(client);
      for (const planId of ["platinum-yearly", "pro-yearly-30off", "team-monthly-x10", ""]) {
        const answer = await client.post("/api/billing/checkout", { planId });
        expect([400, 404], planId).toContain(answer.status);
      }
      const promo = await client.post("/api/billing/checkout", {
        planId: "standard-yearly",
        promoCode: "SAVE30",
      });
      expect(promo.status).toBe(400);
      expect(promo.body).toMatchObject({
        code: "promo-code",
        message: "This promo code does not apply to this plan.",
      });
      // A code that does not exist is not told it "does not apply to this plan".
      const unknown = await client.post("/api/billing/checkout", {
        planId: "pro-yearly",
        promoCode: "SAVE99",
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        code: "promo-code",
        message: "We don't know this promo code. Check its spelling.",
      });
      const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, uid));
      expect(user!.stripeCustomerId).toBeNull();
    },
  );

  routeIt(driver)("cancels at period end, then undoes it", async () => {
    const client = await signUp("canceller");
    const uid = await uidOf(client);
    await subscribe(client, "pro-monthly");
    const [subscription] = (await billing(client)).subscriptions;
    const cancelled = await client.post(`/api/billing/subscriptions/${subscription.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      cancelAtPeriodEnd: true,
      status: "active",
      abilities: { canCancel: false, canUndoCancel: true, canUpdate: false },
    });
    // Still Pro until the period ends.
    expect((await client.get("/api/me")).body.data.plans.web.name).toBe("Pro");
    expect((await client.post(`/api/billing/subscriptions/${subscription.id}/cancel`)).status).toBe(409);

    const undone = await client.post(`/api/billing/subscriptions/${subscription.id}/undo-cancel`);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({
      message: "Your subscription will not cancel automatically.",
      data: { cancelAtPeriodEnd: false, abilities: { canCancel: true, canUndoCancel: false } },
    });
    const [row] = await rowsOf(uid);
    expect(row!.cancelAtPeriodEnd).toBe(false);
  });

  routeIt(driver)(
    "keeps a plan change pending while the card needs the customer, cancels it, then applies one that is paid",
    async () => {
      const client = await signUp("updater");
      const uid = await uidOf(client);
      await subscribe(client, "standard-monthly");
      const [subscription] = (await billing(client)).subscriptions;
      const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, uid));
      expect(
        (await provider(`/customers/${user!.stripeCustomerId}/card`, { behavior: "requires_action" })).status,
      ).toBe(200);

      const pending = await client.post(`/api/billing/subscriptions/${subscription.id}/update`, {
        planId: "pro-monthly",
      });
      expect(pending.status).toBe(200);
      expect(pending.body.data.outcome).toMatchObject({ result: "past_due" });
      expect(pending.body.data.outcome.paymentIntents[0]).toMatchObject({ status: "requires_action" });
      expect(pending.body.data.subscription).toMatchObject({
        planId: "standard-monthly",
        pendingUpdate: { planId: "pro-monthly", planName: "Pro (monthly)" },
        paymentIssue: true,
        abilities: { canUpdate: false, canCancelPendingUpdate: true },
      });
      expect((await client.get("/api/me")).body.data).toMatchObject({
        paymentIssue: true,
        plans: { web: { name: "Standard" } },
      });
      const shown = await billing(client);
      expect(shown.paymentIssue).toBe(true);
      expect(shown.payUrl).toMatch(/\/dev\/payments\/invoices\/in_/);

      const cancelled = await client.post(
        `/api/billing/subscriptions/${subscription.id}/cancel-pending-update`,
      );
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        message: "Subscription update cancelled.",
        data: { planId: "standard-monthly", pendingUpdate: null, paymentIssue: false },
      });
      expect((await client.get("/api/me")).body.data.paymentIssue).toBe(false);

      await provider(`/customers/${user!.stripeCustomerId}/card`, { behavior: "succeed" });
      const applied = await client.post(`/api/billing/subscriptions/${subscription.id}/update`, {
        planId: "pro-monthly",
      });
      expect(applied.body).toMatchObject({
        message: "Your plan has been updated.",
        data: {
          outcome: { result: "success" },
          subscription: { planId: "pro-monthly", pendingUpdate: null },
        },
      });
      expect((await client.get("/api/me")).body.data.plans.web.name).toBe("Pro");
      const same = await client.post(`/api/billing/subscriptions/${subscription.id}/update`, {
        planId: "pro-monthly",
      });
      expect(same.status).toBe(400);
      const other = await client.post(`/api/billing/subscriptions/${subscription.id}/update`, {
        planId: "browse-pro-monthly",
      });
      expect(other.status).toBe(400);
    },
  );

  routeIt(driver)(
    "raises the payment notice when a renewal fails (past_due keeps the plan), and clears it once paid",
    async () => {
      const client = await signUp("renewal");
      const uid = await uidOf(client);
      await subscribe(client, "pro-monthly");
      const [subscription] = (await billing(client)).subscriptions;
      expect((await provider(`/subscriptions/${subscription.id}/fail-renewal`)).status).toBe(200);
      await eventually(async () =>
        (await heldBy(uid)).some((held) => held.status === "past_due" && held.paymentIssue),
      );
      const me = (await client.get("/api/me")).body.data;
      expect(me.paymentIssue).toBe(true);
      expect(me.plans.web.name).toBe("Pro");

      const { payUrl } = await billing(client);
      // The invoice's page is told to send the customer back to Redline once paid.
      const pay = new URL(payUrl);
      expect(pay.searchParams.get("return")).toBe(`${t.url}/billing`);
      pay.pathname += "/pay";
      const paid = await fetch(pay, { method: "POST", redirect: "manual" });
      expect(paid.status).toBe(303);
      expect(paid.headers.get("location")).toBe(`${t.url}/billing`);
      await eventually(async () =>
        (await heldBy(uid)).some((held) => held.status === "active" && !held.paymentIssue),
      );
      expect((await client.get("/api/me")).body.data.paymentIssue).toBe(false);
    },
  );

  routeIt(driver)(
    "answers another user's subscription as if there were none, and changes nothing",
    async () => {
      const payer = await signUp("payer");
      const other = await signUp("other");
      await subscribe(payer, "pro-monthly");
      const [subscription] = (await billing(payer)).subscriptions;
      for (const action of ["cancel", "undo-cancel", "cancel-pending-update"]) {
        const answer = await other.post(`/api/billing/subscriptions/${subscription.id}/${action}`);
        expect(answer.status).toBe(404);
        expect(answer.body.message).toBe("No active subscriptions on Stripe.");
      }
      const update = await other.post(`/api/billing/subscriptions/${subscription.id}/update`, {
        planId: "standard-monthly",
      });
      expect(update.status).toBe(404);
      expect((await billing(other)).subscriptions).toEqual([]);
      const [row] = await t.ctx.database.db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.id, subscription.id)));
      expect(row).toMatchObject({ planId: "pro-monthly", cancelAtPeriodEnd: false });
    },
  );
});

describe("billing with plans switched off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { plansEnabled: false } });
  });
  afterAll(() => t.close());

  it("takes no payment and shows no upsell", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("self-hosted"));
    const checkout = await client.post("/api/billing/checkout", { planId: "pro-yearly" });
    expect(checkout.status).toBe(409);
    const shown = (await client.get("/api/billing")).body.data;
    expect(shown.canCheckout).toBe(false);
    const me = (await client.get("/api/me")).body.data;
    expect(me.plans.web).toMatchObject({ hideUpsells: true });
    expect(me.limits.web.projects).toBe(-1);
  });
});
