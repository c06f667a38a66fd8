import { BILLING_MESSAGES, type Billing } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  billing,
  NO_ABILITIES,
  type SentRequest,
  type StubResponse,
  stubApi,
  subscription,
} from "../features/billing/billing-fixtures.ts";
import { goToCheckout } from "../features/billing/checkout-redirect.ts";
import { PaymentSummaryPage } from "./payment-summary-page.tsx";

vi.mock("../features/billing/checkout-redirect.ts", () => ({ goToCheckout: vi.fn() }));

beforeEach(() => vi.mocked(goToCheckout).mockClear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderSummary(
  path: string,
  answer: Billing = billing(),
  routes: Record<string, StubResponse | ((body: unknown) => StubResponse | Promise<StubResponse>)> = {},
) {
  const sent = stubApi({ "GET /api/billing": { body: { data: answer } }, ...routes });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/upgrade/confirm/:plan" element={<PaymentSummaryPage />} />
          <Route path="/billing" element={<p>Billing page</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

/** The billing writes sent (the page also reports analytics events, SPEC §7). */
const billingWrites = (sent: SentRequest[]) =>
  sent.filter((request) => request.method === "POST" && request.path !== "/api/analytics/events");
const checkoutRequests = (sent: SentRequest[]) =>
  sent.filter((request) => request.method === "POST" && request.path === "/api/billing/checkout");

describe("the payment summary", () => {
  it("shows the not-found page for a plan id that does not exist", () => {
    renderSummary("/upgrade/confirm/gold-weekly");
    expect(screen.getByRole("heading", { level: 1, name: "Error: 404" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Take me home" })).toBeTruthy();
  });

  it("shows the plan, its price and, with a promo code that applies, the total after the discount", async () => {
    renderSummary("/upgrade/confirm/pro-yearly?promo=save30");
    await screen.findByText("Pro (yearly)");
    expect(document.title).toBe("Payment summary | Redline");
    expect(screen.getByText("$480.00 / year")).toBeTruthy();
    expect(screen.getByText("Promo code SAVE30 (30% off)")).toBeTruthy();
    expect(screen.getByText("−$144.00")).toBeTruthy();
    expect(screen.getByText("$336.00 / year")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("refuses a promo code that does not apply, inline, and does not send it", async () => {
    const sent = renderSummary("/upgrade/confirm/pro-yearly", billing(), {
      "POST /api/billing/checkout": { body: { data: { url: "https://pay.example/c/1" } } },
    });
    const field = await screen.findByLabelText("Promo code");
    await userEvent.type(field, "SAVE15");
    await userEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(screen.getByRole("alert").textContent).toBe(BILLING_MESSAGES.invalidPromoCode);
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getAllByText("$480.00 / year")).toHaveLength(2);

    await userEvent.click(screen.getByRole("button", { name: "Continue to payment" }));
    await vi.waitFor(() => expect(goToCheckout).toHaveBeenCalledWith("https://pay.example/c/1"));
    expect(checkoutRequests(sent).map((request) => request.body)).toEqual([{ planId: "pro-yearly" }]);
  });

  it("tells a code that does not exist so, not that it does not apply to this plan", async () => {
    renderSummary("/upgrade/confirm/pro-yearly?promo=SAVE99");
    await screen.findByText("Pro (yearly)");
    expect(screen.getByRole("alert").textContent).toBe("We don't know this promo code. Check its spelling.");
  });

  it("goes back to the plans with the interval and the promo code it came with", async () => {
    renderSummary("/upgrade/confirm/pro-yearly?promo=SAVE30");
    await screen.findByText("Pro (yearly)");
    expect(screen.getByRole("link", { name: "Back to plans" }).getAttribute("href")).toBe(
      "/upgrade?interval=yearly&promo=SAVE30",
    );
  });

  it("says nothing was charged when PayPal's approval was cancelled", async () => {
    renderSummary("/upgrade/confirm/pro-monthly?paypal=cancelled");
    await screen.findByText("Pro (monthly)");
    expect(screen.getByRole("status").textContent).toBe(
      "You cancelled at PayPal, so nothing was charged. Choose how to pay when you are ready.",
    );
    expect(screen.getByRole("button", { name: "Pay with PayPal" })).toBeTruthy();
  });

  it("applies a promo code typed in, and sends it with the checkout", async () => {
    const sent = renderSummary("/upgrade/confirm/standard-monthly", billing(), {
      "POST /api/billing/checkout": { body: { data: { url: "https://pay.example/c/2" } } },
    });
    await userEvent.type(await screen.findByLabelText("Promo code"), "save15");
    await userEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(screen.getByText("SAVE15 applied: 15% off.")).toBeTruthy();
    expect(screen.getByText("$12.75 / month")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Continue to payment" }));
    await vi.waitFor(() => expect(goToCheckout).toHaveBeenCalled());
    expect(checkoutRequests(sent).map((request) => request.body)).toEqual([
      { planId: "standard-monthly", promoCode: "SAVE15" },
    ]);
  });

  it("sends one checkout request for a double click, and waits with 'Please wait...'", async () => {
    let release: () => void = () => {};
    const sent = renderSummary("/upgrade/confirm/pro-monthly", billing(), {
      "POST /api/billing/checkout": () =>
        new Promise<StubResponse>((resolve) => {
          release = () => resolve({ body: { data: { url: "https://pay.example/c/3" } } });
        }),
    });
    const button = await screen.findByRole("button", { name: "Continue to payment" });
    // Two clicks in the same tick, before any re-render could disable the button, and a real double click.
    fireEvent.click(button);
    fireEvent.click(button);
    await userEvent.dblClick(button);
    const waiting = await screen.findByRole("button", { name: "Please wait..." });
    expect(waiting.hasAttribute("disabled")).toBe(true);
    release();
    await vi.waitFor(() => expect(goToCheckout).toHaveBeenCalledTimes(1));
    expect(checkoutRequests(sent)).toHaveLength(1);
  });

  it("pays with PayPal: the plan goes to the second provider's approval page, once; not with a promo code", async () => {
    const sent = renderSummary("/upgrade/confirm/pro-monthly", billing(), {
      "POST /api/billing/paypal/checkout": { body: { data: { url: "https://paypal.example/approve/I-1" } } },
    });
    const button = await screen.findByRole("button", { name: "Pay with PayPal" });
    fireEvent.click(button);
    fireEvent.click(button);
    await vi.waitFor(() => expect(goToCheckout).toHaveBeenCalledWith("https://paypal.example/approve/I-1"));
    const paypal = sent.filter((request) => request.path === "/api/billing/paypal/checkout");
    expect(paypal).toHaveLength(1);
    expect(paypal[0]!.body).toEqual({ planId: "pro-monthly" });
    expect(checkoutRequests(sent)).toHaveLength(0);
  });

  it("offers PayPal only without a promo code (codes are for card payments)", async () => {
    renderSummary("/upgrade/confirm/pro-yearly?promo=SAVE30");
    await screen.findByText("Promo code SAVE30 (30% off)");
    expect(screen.queryByRole("button", { name: "Pay with PayPal" })).toBeNull();
    expect(screen.getByText(/Promo codes apply to card payments\./)).toBeTruthy();
  });

  it("shows the server's refusal of a promo code next to the field", async () => {
    renderSummary("/upgrade/confirm/pro-yearly?promo=SAVE30", billing(), {
      "POST /api/billing/checkout": {
        status: 400,
        body: { error: "Bad Request", code: "promo-code", message: BILLING_MESSAGES.invalidPromoCode },
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Continue to payment" }));
    expect((await screen.findByRole("alert")).textContent).toBe(BILLING_MESSAGES.invalidPromoCode);
    expect(screen.queryByText("Promo code SAVE30 (30% off)")).toBeNull();
    expect(screen.getByRole("button", { name: "Continue to payment" }).hasAttribute("disabled")).toBe(false);
  });

  it("updates an existing subscription instead of a checkout, then goes to billing", async () => {
    const current = subscription({ abilities: { ...NO_ABILITIES, canUpdate: true } });
    const sent = renderSummary("/upgrade/confirm/team-monthly", billing({ subscriptions: [current] }), {
      "POST /api/billing/subscriptions/sub_1/update": {
        body: {
          data: { subscription: current, outcome: { result: "success" } },
          message: BILLING_MESSAGES.planUpdated,
        },
      },
    });
    expect(await screen.findByRole("button", { name: "Update plan" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Continue to payment" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Update plan" }));
    await screen.findByText("Billing page");
    expect(billingWrites(sent)).toEqual([
      { method: "POST", path: "/api/billing/subscriptions/sub_1/update", body: { planId: "team-monthly" } },
    ]);
  });

  it("changes a subscription at the plan's own price: a promo code is for new subscriptions", async () => {
    const current = subscription({ abilities: { ...NO_ABILITIES, canUpdate: true } });
    const sent = renderSummary(
      "/upgrade/confirm/pro-yearly?promo=SAVE30",
      billing({ subscriptions: [current] }),
      {
        "POST /api/billing/subscriptions/sub_1/update": {
          body: { data: { subscription: current, outcome: { result: "success" } } },
        },
      },
    );
    await screen.findByText(/Promo codes apply to new subscriptions/);
    expect(screen.queryByLabelText("Promo code")).toBeNull();
    expect(screen.getAllByText("$480.00 / year")).toHaveLength(2);
    await userEvent.click(screen.getByRole("button", { name: "Update plan" }));
    await screen.findByText("Billing page");
    expect(billingWrites(sent).map((request) => request.body)).toEqual([{ planId: "pro-yearly" }]);
  });

  it("does not offer to change a subscription its abilities keep as it is", async () => {
    renderSummary("/upgrade/confirm/team-monthly", billing({ subscriptions: [subscription()] }));
    await screen.findByText(/subscription cannot be changed right now/);
    expect(screen.queryByRole("button", { name: "Update plan" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Continue to payment" })).toBeNull();
  });

  it("says when an update's payment needs attention, with the way to pay", async () => {
    const current = subscription({ abilities: { ...NO_ABILITIES, canUpdate: true } });
    renderSummary(
      "/upgrade/confirm/team-monthly",
      billing({ subscriptions: [current], payUrl: "https://pay.example/in_2" }),
      {
        "POST /api/billing/subscriptions/sub_1/update": {
          body: {
            data: {
              subscription: { ...current, status: "past_due" },
              outcome: { result: "past_due", paymentIntents: [{ id: "pi_1", status: "requires_action" }] },
            },
          },
        },
      },
    );
    await userEvent.click(await screen.findByRole("button", { name: "Update plan" }));
    await screen.findByText("Your plan change is waiting for payment.");
    expect(screen.getByRole("link", { name: "Pay now" }).getAttribute("href")).toBe(
      "https://pay.example/in_2",
    );
    expect(screen.getByRole("link", { name: "Go to billing" }).getAttribute("href")).toBe("/billing");
  });

  it("turns a discount variant in the address into its promo code", async () => {
    renderSummary("/upgrade/confirm/pro-yearly-30off");
    await screen.findByText("Promo code SAVE30 (30% off)");
    expect(screen.getByTestId("where").textContent).toBe("/upgrade/confirm/pro-yearly?promo=SAVE30");
  });

  it("prices and checks out in the chosen currency, and says PayPal charges in dollars", async () => {
    localStorage.setItem("redline.currency", "EUR");
    const sent = renderSummary("/upgrade/confirm/pro-yearly?promo=SAVE30", billing(), {
      "POST /api/billing/checkout": { body: { data: { url: "https://pay.example/c/9" } } },
    });
    await screen.findByText("Pro (yearly)");
    expect(screen.getByText("€409.00 / year")).toBeTruthy();
    expect(screen.getByText("−€122.70")).toBeTruthy();
    expect(screen.getByText("€286.30 / year")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Continue to payment" }));
    await vi.waitFor(() => expect(goToCheckout).toHaveBeenCalledWith("https://pay.example/c/9"));
    expect(checkoutRequests(sent).map((request) => request.body)).toEqual([
      { planId: "pro-yearly", promoCode: "SAVE30", currency: "EUR" },
    ]);
  });

  it("names PayPal's dollar price beside a price in another currency", async () => {
    const sent = renderSummary("/upgrade/confirm/pro-monthly", billing(), {
      "GET /api/billing/prices": {
        body: {
          data: {
            currency: "JPY",
            source: "country",
            country: "JP",
            currencies: [],
            ratesDate: "",
            prices: [],
          },
        },
      },
    });
    await screen.findByRole("button", { name: "Pay with PayPal" });
    expect(screen.getAllByText("¥5,800 / month")).toHaveLength(2);
    expect(screen.getByText(/PayPal charges in US dollars: \$40\.00 \/ month\./)).toBeTruthy();
    expect(sent.some((request) => request.path === "/api/billing/prices")).toBe(true);
  });

  it("prices a plan change in the subscription's own currency", async () => {
    localStorage.setItem("redline.currency", "EUR");
    const current = subscription({
      currency: "jpy",
      amount: 5800,
      abilities: { ...NO_ABILITIES, canUpdate: true },
    });
    renderSummary("/upgrade/confirm/team-monthly", billing({ subscriptions: [current] }));
    await screen.findByRole("button", { name: "Update plan" });
    expect(screen.getAllByText("¥34,600 / month")).toHaveLength(2);
    expect(screen.queryByText(/€/)).toBeNull();
  });
});
