/**
 * Billing journeys in a real browser against the embedded payment provider (packages/stand-ins/src/stripe): a
 * free user at the project limit pays for Pro (yearly, promo code SAVE30) and may then create projects;
 * a declined card changes nothing; cancel at period end and undo; a plan change left pending by the
 * card, then cancelled; a failed renewal raises the payment notice (not on /billing); and with plans
 * switched off there is no limit and nothing to sell.
 */

import { paymentsDevIdle } from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../apps/server/src/db/schema/index.ts";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { subscribe } from "../apps/server/src/testing/payments.ts";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

const LIMIT_TEXT = "Your plan allows 1 website project. Upgrade to add more.";
const PAYMENT_ISSUE = "There is a problem with your payment. Update your payment details to keep your plan.";

/** Goes to /projects through the header's link (no reload), the way a user would. */
async function toProjects(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Projects", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/projects");
}

/** Creates a website project through the 'New project' modal of /projects; it opens. */
async function createInUi(page: Page, title: string): Promise<void> {
  await toProjects(page);
  await page.getByRole("button", { name: "New project" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Project title").fill(title);
  await dialog.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/project/"));
  await page.getByRole("heading", { name: title }).first().waitFor();
}

/** Tries to create one more website project in the modal and expects the plan's limit there. */
async function refusedInUi(page: Page, title: string) {
  await toProjects(page);
  await page.getByRole("button", { name: "New project" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Project title").fill(title);
  await dialog.getByRole("button", { name: "Create project" }).click();
  const alert = dialog.getByRole("alert");
  await alert.getByText(LIMIT_TEXT).waitFor();
  return alert;
}

const projectCount = async (api: ApiClient) =>
  ((await api.get("/api/projects?list=all")).body.data as unknown[]).length;

describe("billing with plans on", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { plansEnabled: true } });
  });
  afterAll(() => e2e.close());

  /** A card subscription made through the provider's checkout (as the browser would), webhooks handled. */
  const subscribed = async (api: ApiClient, planId: string) => {
    const { answer } = await subscribe(api, planId);
    expect(answer.status).toBe(303);
    await paymentsDevIdle(e2e.app.app);
    const [subscription] = (await api.get("/api/billing")).body.data.subscriptions;
    expect(subscription).toMatchObject({ planId, status: "active" });
    return subscription as { id: string; currentPeriodEnd: string };
  };

  const provider = (path: string, body: unknown = {}) =>
    fetch(`${e2e.baseUrl}/dev/payments${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("takes a free user at the project limit to Pro (yearly, SAVE30) through checkout, then allows more projects", async () => {
    const { page, api } = await signedIn(e2e, "upgrader");
    await newProject(api, "First site");

    // The upsell and the offer bar on /projects, and the Offers item a free user has in the profile menu.
    await page.reload();
    await page.getByText("Get unlimited projects.").waitFor();
    await page.getByRole("region", { name: "Offer" }).getByRole("link", { name: "Grab the deal" }).waitFor();
    expect(await page.getByRole("link", { name: "Upgrade now" }).getAttribute("href")).toBe("/upgrade");
    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Offers" }).waitFor();
    await page.keyboard.press("Escape");

    // A second website project is refused by the server (402), with the way up.
    const alert = await refusedInUi(page, "Second site");
    await alert.getByRole("link", { name: "Upgrade now" }).click();
    await page.waitForURL((url) => url.pathname === "/upgrade");
    await page.getByRole("heading", { name: "Upgrade", level: 1 }).waitFor();

    // Yearly prices, the promo code, then Pro.
    const plans = page.getByRole("region", { name: "Plans" });
    const proCard = plans
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Pro", exact: true }) });
    await proCard.getByText("$40.00").waitFor();
    await plans.getByText("Yearly", { exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("interval") === "yearly");
    // The address changes before React renders the toggle from it: wait for what the person sees.
    await expect.poll(() => plans.getByRole("radio", { name: "Yearly" }).isChecked()).toBe(true);
    await proCard.getByText("$480.00").waitFor();
    await proCard.getByText("Billed yearly").waitFor();
    await plans.getByLabel("Promo code").fill("SAVE30");
    await shot(page, "billing-01-upgrade-yearly");
    await proCard.getByRole("link", { name: "Choose Pro" }).click();
    await page.waitForURL(
      (url) => url.pathname === "/upgrade/confirm/pro-yearly" && url.searchParams.get("promo") === "SAVE30",
    );

    // The payment summary: 30 % off $480.00 a year.
    const summary = page.getByRole("region", { name: "Order summary" });
    await summary.getByText("Pro (yearly)", { exact: true }).waitFor();
    await summary.getByText("$480.00 / year", { exact: true }).waitFor();
    await summary.getByText("Promo code SAVE30 (30% off)", { exact: true }).waitFor();
    await summary.getByText("−$144.00", { exact: true }).waitFor();
    const total = summary.locator("div", { has: page.getByText("Total", { exact: true }) });
    await total.getByText("$336.00 / year", { exact: true }).waitFor();
    await summary.getByText("SAVE30 applied: 30% off.").waitFor();
    await shot(page, "billing-02-summary-save30");

    // The provider's checkout page asks for the discounted amount; Pay comes back to /billing.
    await summary.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/payments/checkout/cs_"));
    await page.getByRole("heading", { name: "Redline Pro" }).waitFor();
    await page.getByText("$336.00 per year").waitFor();
    await shot(page, "billing-03-checkout");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === "/billing" && url.searchParams.get("payment_status") === "success",
    );
    await page.getByRole("status").filter({ hasText: "Payment successful" }).waitFor();
    const item = page.getByRole("listitem").filter({
      has: page.getByRole("heading", { name: "Pro (yearly, 30% off)" }),
    });
    await item.getByText("Active", { exact: true }).waitFor();
    await item.getByText(/· \$336\.00$/).waitFor();
    await page.getByText("Visa •••• 4242").waitFor();
    // The plan the session user holds (GET /api/me, read again on the way back) is Pro.
    await page.getByRole("region", { name: "Your plan" }).getByText("Pro", { exact: true }).waitFor();
    await shot(page, "billing-04-paid");

    // Pro has no project limit: no upsell any more, and two more projects are created.
    await paymentsDevIdle(e2e.app.app);
    await createInUi(page, "Second site");
    await createInUi(page, "Third site");
    await toProjects(page);
    const list = page.getByRole("list", { name: "Projects" });
    await expect.poll(() => list.getByRole("listitem").count()).toBe(3);
    expect(await page.getByRole("link", { name: "Upgrade now" }).count()).toBe(0);
    expect(await projectCount(api)).toBe(3);
  });

  it("compares the Free plan on /upgrade, prices a promo code as typed, and 'Grab the deal' goes to the offers", async () => {
    const { page } = await signedIn(e2e, "comparer");
    await page.goto("/upgrade?interval=yearly");
    const plans = page.getByRole("region", { name: "Plans" });
    const proCard = plans
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Pro", exact: true }) });
    await proCard.getByText("$480.00").waitFor();
    // The Free plan is there to compare, with its limits.
    const freeCard = plans
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Free", exact: true }) });
    await freeCard.getByText("Current plan", { exact: true }).waitFor();
    await freeCard.getByText("5 pages per project", { exact: true }).waitFor();
    // The promo code prices the card it applies to as it is typed.
    await plans.getByLabel("Promo code").fill("SAVE30");
    await proCard.getByText("$336.00").waitFor();
    await plans.getByText("SAVE30: 30% off yearly Pro.").waitFor();
    await shot(page, "billing-01a-upgrade-free-and-promo");
    // 'Grab the deal' leads to the offers section on this page.
    await page.getByRole("region", { name: "Offer" }).getByRole("button", { name: "Grab the deal" }).click();
    const offers = page.getByRole("region", { name: "Offers" });
    await expect.poll(() => offers.evaluate((section) => section === document.activeElement)).toBe(true);
    await offers.getByRole("heading", { name: "30% off yearly Pro" }).waitFor();
    await shot(page, "billing-01b-upgrade-offers");
  });

  it("pays for Pro with PayPal: the approval page, back to /billing with the plan", async () => {
    const { page, api } = await signedIn(e2e, "paypal");
    await newProject(api, "First site");
    await page.goto("/upgrade/confirm/pro-monthly");
    const summary = page.getByRole("region", { name: "Order summary" });
    await summary.getByText("Pro (monthly)", { exact: true }).waitFor();
    await summary.getByRole("button", { name: "Pay with PayPal" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/paypal/approve/I-"));
    await shot(page, "billing-12-paypal-approve");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === "/billing" && url.searchParams.get("payment_status") === "success",
    );
    await page.getByText("Pro (monthly)", { exact: true }).waitFor();
    const [subscription] = (await api.get("/api/billing")).body.data.subscriptions;
    expect(subscription).toMatchObject({ provider: "second", planId: "pro-monthly", status: "active" });
    expect((await api.post("/api/projects", { type: "web", title: "Second site" })).status).toBe(201);

    // PayPal is the payment method, its payment is listed, and the subscription can be cancelled here.
    await page.reload();
    const method = page.getByRole("region", { name: "Payment method" });
    await method.getByText("PayPal", { exact: true }).waitFor();
    expect(await page.getByText("No payment method on file.").count()).toBe(0);
    const payment = page
      .getByRole("table", { name: "Invoices" })
      .getByRole("row")
      .filter({ hasText: "PayPal payment" });
    await payment.getByText("$40.00").waitFor();
    await payment.getByText("Completed").waitFor();
    await shot(page, "billing-13-paypal-billing");
    const item = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Pro (monthly)" }) });
    await item.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel subscription?" });
    await dialog.getByText(/PayPal stops the payments now/).waitFor();
    await dialog.getByRole("button", { name: "Cancel subscription" }).click();
    await page.getByText("Your PayPal subscription is cancelled.").waitFor();
    await item.getByText("Cancelled", { exact: true }).waitFor();
    await expect.poll(async () => (await api.get("/api/me")).body.data.plans.web.name).toBe("Free");
    await shot(page, "billing-13b-paypal-cancelled");
  });

  it("says nothing was charged when the PayPal approval is cancelled", async () => {
    const { page } = await signedIn(e2e, "paypal-cancel");
    await page.goto("/upgrade/confirm/pro-monthly");
    await page.getByRole("button", { name: "Pay with PayPal" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/paypal/approve/I-"));
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/upgrade/confirm/pro-monthly");
    await page
      .getByRole("status")
      .getByText("You cancelled at PayPal, so nothing was charged. Choose how to pay when you are ready.")
      .waitFor();
    await page.getByRole("button", { name: "Pay with PayPal" }).waitFor();
    await shot(page, "billing-13c-paypal-approval-cancelled");
  });

  it("prices /upgrade in the currency chosen there, and charges in it", async () => {
    const { page, api } = await signedIn(e2e, "euro");
    await page.goto("/upgrade");
    const standard = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Standard" }) });
    await standard.getByText("$15.00", { exact: true }).waitFor();
    await page.getByLabel("Currency").selectOption("EUR");
    // $15 at the table's rate, rounded to a whole euro (ADR 0011).
    await standard.getByText("€13.00", { exact: true }).waitFor();
    await shot(page, "billing-14-upgrade-euro");
    await standard.getByRole("link", { name: "Choose Standard" }).click();
    const summary = page.getByRole("region", { name: "Order summary" });
    await summary.getByText("€13.00 / month", { exact: true }).first().waitFor();
    await summary.getByText(/PayPal charges in US dollars: \$15\.00 \/ month\./).waitFor();
    await summary.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/payments/checkout/cs_"));
    await page.getByText("€13.00 per month").waitFor();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/billing");
    const item = page.getByRole("listitem").filter({
      has: page.getByRole("heading", { name: "Standard (monthly)" }),
    });
    await item.getByText(/· €13\.00$/).waitFor();
    await page.getByRole("cell", { name: "€13.00" }).waitFor();
    const [subscription] = (await api.get("/api/billing")).body.data.subscriptions;
    expect(subscription).toMatchObject({ planId: "standard-monthly", amount: 1300, currency: "eur" });
    // The choice is remembered: /upgrade shows euros again.
    await page.goto("/upgrade");
    await page.getByText("€34.00", { exact: true }).waitFor();
  });

  it("after a checkout that needs more, says so (not 'Payment successful'); paying the invoice ends back on Redline", async () => {
    const { page } = await signedIn(e2e, "needs-action");
    await page.goto("/upgrade/confirm/pro-monthly");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/payments/checkout/cs_"));
    await page.getByRole("button", { name: "Requires action" }).click();
    await page.waitForURL(
      (url) => url.pathname === "/billing" && url.searchParams.get("payment_status") === "success",
    );
    await paymentsDevIdle(e2e.app.app);
    const problem = page.getByRole("alert").filter({ hasText: PAYMENT_ISSUE });
    await problem.getByRole("link", { name: "Pay now" }).waitFor();
    expect(await page.getByText("Payment successful").count()).toBe(0);
    await shot(page, "billing-05b-needs-action");

    // The invoice's page sends the customer back to Redline's billing page once paid.
    await problem.getByRole("link", { name: "Pay now" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/payments/invoices/in_"));
    await page.getByRole("button", { name: "Pay invoice" }).click();
    await page.waitForURL((url) => url.pathname === "/billing");
    await page.getByRole("heading", { name: "Your plan" }).waitFor();
  });

  it("changes nothing when the card is declined", async () => {
    const { page, api } = await signedIn(e2e, "declined");
    await newProject(api, "Only site");
    await page.goto("/upgrade/confirm/pro-monthly");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/dev/payments/checkout/cs_"));
    await page.getByRole("button", { name: "Decline" }).click();
    await page.getByRole("alert").getByText("Your card was declined.", { exact: true }).waitFor();
    await shot(page, "billing-05-declined");
    await page.getByRole("link", { name: "Back" }).click();
    await page.waitForURL((url) => url.pathname === "/upgrade/confirm/pro-monthly");
    await page.getByRole("button", { name: "Continue to payment" }).waitFor();

    await page.goto("/billing");
    await page.getByText("You are on the Free plan").waitFor();
    // The Free plan's limits, to compare with the paid plans.
    await page.getByRole("list", { name: "Free includes" }).getByText("1 project", { exact: true }).waitFor();
    await shot(page, "billing-05c-free-billing");
    expect(await page.getByRole("heading", { name: /^Pro / }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Invoices" }).count()).toBe(0);
    await refusedInUi(page, "Second site");
    expect(await projectCount(api)).toBe(1);
    expect((await api.get("/api/billing")).body.data.subscriptions).toEqual([]);
  });

  it("cancels a subscription at period end, then undoes it", async () => {
    const { page, api } = await signedIn(e2e, "canceller");
    const { currentPeriodEnd } = await subscribed(api, "pro-monthly");
    const periodEnd = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(
      new Date(currentPeriodEnd),
    );
    await page.goto("/billing");
    const item = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Pro (monthly)" }) });
    await item.getByText(`${periodEnd} · $40.00`).waitFor();

    await item.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel subscription?" });
    await dialog.getByText(`stays active until ${periodEnd}`).waitFor();
    await dialog.getByRole("button", { name: "Cancel subscription" }).click();
    await page.getByText("Your subscription will cancel at the end of the billing period.").waitFor();
    await dialog.waitFor({ state: "detached" });
    await item.getByText("Cancels on", { exact: true }).waitFor();
    await item.getByText(periodEnd, { exact: true }).waitFor();
    expect(await item.getByRole("button", { name: "Cancel subscription" }).count()).toBe(0);
    await shot(page, "billing-06-cancels-on");

    await item.getByRole("button", { name: "Undo cancel" }).click();
    await page.getByText("Your subscription will not cancel automatically.", { exact: true }).waitFor();
    await item.getByText("Next payment", { exact: true }).waitFor();
    await item.getByRole("button", { name: "Cancel subscription" }).waitFor();
    expect(await item.getByText("Cancels on").count()).toBe(0);
    expect(await item.getByRole("button", { name: "Undo cancel" }).count()).toBe(0);
    expect((await api.get("/api/billing")).body.data.subscriptions[0].cancelAtPeriodEnd).toBe(false);
  });

  it("leaves a plan change pending while the card needs action, and cancels the pending update", async () => {
    const { page, api, email } = await signedIn(e2e, "updater");
    await subscribed(api, "standard-monthly");
    const [user] = await e2e.app.ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(user!.stripeCustomerId).toMatch(/^cus_/);
    expect(
      (await provider(`/customers/${user!.stripeCustomerId}/card`, { behavior: "requires_action" })).status,
    ).toBe(200);

    await page.goto("/upgrade");
    const plans = page.getByRole("region", { name: "Plans" });
    const card = (name: string) =>
      plans.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await card("Standard").getByRole("button", { name: "Your current plan" }).waitFor();
    await card("Pro").getByRole("link", { name: "Choose Pro" }).click();
    await page.waitForURL((url) => url.pathname === "/upgrade/confirm/pro-monthly");
    const summary = page.getByRole("region", { name: "Order summary" });
    await summary.getByText("This changes your current Standard (monthly) subscription").waitFor();
    await summary.getByRole("button", { name: "Update plan" }).click();
    const outcome = summary.getByRole("alert");
    await outcome.getByText("Your plan change is waiting for payment.").waitFor();
    expect(await outcome.getByRole("link", { name: "Pay now" }).getAttribute("href")).toMatch(
      /\/dev\/payments\/invoices\/in_/,
    );
    await shot(page, "billing-07-update-needs-payment");

    await outcome.getByRole("link", { name: "Go to billing" }).click();
    await page.waitForURL((url) => url.pathname === "/billing");
    const item = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Standard (monthly)" }) });
    await item.getByText(/^Pending update to Pro \(monthly\)/).waitFor();
    await item.getByText("Payment needs attention", { exact: true }).waitFor();
    const problem = page.getByRole("alert").filter({ hasText: PAYMENT_ISSUE });
    await problem.getByRole("link", { name: "Pay now" }).waitFor();
    expect(await item.getByRole("link", { name: "Change plan" }).count()).toBe(0);
    await shot(page, "billing-08-pending-update");

    await item.getByRole("button", { name: "Cancel update" }).click();
    await page.getByText("Subscription update cancelled.", { exact: true }).waitFor();
    await item.getByText(/^Pending update/).waitFor({ state: "detached" });
    await problem.waitFor({ state: "detached" });
    await item.getByRole("link", { name: "Change plan" }).waitFor();
    expect(await item.getByText("Payment needs attention").count()).toBe(0);
    const [subscription] = (await api.get("/api/billing")).body.data.subscriptions;
    expect(subscription).toMatchObject({ planId: "standard-monthly", pendingUpdate: null });
  });

  it("shows the payment notice for a past-due subscription on /projects, not on /billing", async () => {
    const { page, api } = await signedIn(e2e, "past-due");
    const { id } = await subscribed(api, "pro-monthly");
    const notice = page.getByRole("region", { name: "Payment problem" });
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    expect(await notice.count()).toBe(0);

    expect((await provider(`/subscriptions/${id}/fail-renewal`)).status).toBe(200);
    await paymentsDevIdle(e2e.app.app);
    await page.reload();
    await notice.getByText(PAYMENT_ISSUE, { exact: true }).waitFor();
    await shot(page, "billing-09-payment-notice");

    await notice.getByRole("link", { name: "Go to billing" }).click();
    await page.waitForURL((url) => url.pathname === "/billing");
    const item = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Pro (monthly)" }) });
    await item.getByText("Past due", { exact: true }).waitFor();
    // The billing page's own payment box says it; the notice bar does not.
    await page
      .getByRole("alert")
      .filter({ hasText: PAYMENT_ISSUE })
      .getByRole("link", { name: "Pay now" })
      .waitFor();
    expect(await notice.count()).toBe(0);
    await page.reload();
    await item.getByText("Past due", { exact: true }).waitFor();
    expect(await notice.count()).toBe(0);
    await shot(page, "billing-10-billing-past-due");
  });
});

describe("billing with plans switched off", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ config: { plansEnabled: false } });
  });
  afterAll(() => e2e.close());

  it("shows no limit and no upsell, and has nothing to upgrade", async () => {
    const { page, api } = await signedIn(e2e, "self-hosted");
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New project" }).first().waitFor();
    expect(await page.getByText("Get unlimited projects.").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Upgrade now" }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Offer" }).count()).toBe(0);

    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "My Plan" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Offers" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    for (const title of ["Site one", "Site two", "Site three"]) await createInUi(page, title);
    await toProjects(page);
    await expect
      .poll(() => page.getByRole("list", { name: "Projects" }).getByRole("listitem").count())
      .toBe(3);
    expect(await projectCount(api)).toBe(3);

    await page.goto("/upgrade");
    await page.getByRole("heading", { name: "Your plan includes everything — nothing to upgrade" }).waitFor();
    expect(await page.getByRole("region", { name: "Plans" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /^Choose / }).count()).toBe(0);
    await shot(page, "billing-11-plans-off-upgrade");
  });
});
