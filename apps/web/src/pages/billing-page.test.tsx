import { BILLING_MESSAGES, type Billing, type User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Snackbars } from "../components/snackbars.tsx";
import {
  billing,
  NO_ABILITIES,
  PRO_PLAN,
  stubApi,
  subscription,
  user,
} from "../features/billing/billing-fixtures.ts";
import { PAYMENT_ISSUE_TEXT } from "../features/billing/billing-rules.ts";
import { BillingPage } from "./billing-page.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderBilling(me: User, answer: Billing, path = "/billing") {
  let current = answer;
  const sent = stubApi({
    "GET /api/me": { body: { data: me } },
    "GET /api/billing": () => ({ body: { data: current } }),
    "POST /api/billing/subscriptions/sub_1/cancel": () => {
      const cancelled = subscription({
        cancelAtPeriodEnd: true,
        abilities: { ...NO_ABILITIES, canUndoCancel: true },
      });
      current = { ...current, subscriptions: [cancelled] };
      return { body: { data: cancelled, message: BILLING_MESSAGES.cancelScheduled } };
    },
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/billing" element={<BillingPage />} />
        </Routes>
      </MemoryRouter>
      <Snackbars />
    </QueryClientProvider>,
  );
  return sent;
}

const CONTROLS = ["Change plan", "Cancel update", "Undo cancel", "Cancel subscription"];

describe("the billing page", () => {
  it("shows a subscription's controls only as its abilities allow", async () => {
    renderBilling(
      user(PRO_PLAN),
      billing({
        subscriptions: [
          subscription({
            id: "sub_1",
            planName: "Pro (monthly)",
            abilities: { ...NO_ABILITIES, canCancel: true, canUpdate: true },
          }),
          subscription({
            id: "sub_2",
            planName: "Standard (yearly)",
            status: "past_due",
            cancelAtPeriodEnd: true,
            pendingUpdate: { planId: "pro-yearly", planName: "Pro (yearly)", expiresAt: null },
            abilities: { ...NO_ABILITIES, canUndoCancel: true, canCancelPendingUpdate: true },
          }),
          subscription({ id: "sub_3", planName: "Team (monthly)", abilities: NO_ABILITIES }),
        ],
      }),
    );
    const pro = await screen.findByRole("listitem", { name: "Pro (monthly)" });
    const standard = screen.getByRole("listitem", { name: "Standard (yearly)" });
    const team = screen.getByRole("listitem", { name: "Team (monthly)" });
    const names = (item: HTMLElement) =>
      CONTROLS.filter(
        (name) =>
          within(item).queryByRole("button", { name }) !== null ||
          within(item).queryByRole("link", { name }) !== null,
      );
    expect(names(pro)).toEqual(["Change plan", "Cancel subscription"]);
    expect(names(standard)).toEqual(["Cancel update", "Undo cancel"]);
    expect(names(team)).toEqual([]);

    expect(within(pro).getByText("Next payment")).toBeTruthy();
    expect(within(pro).getByText("Dec 24, 2026 · $40.00")).toBeTruthy();
    expect(within(standard).getByText("Cancels on")).toBeTruthy();
    expect(within(standard).getByText("Past due")).toBeTruthy();
    expect(within(standard).getByText("Pending update to Pro (yearly)")).toBeTruthy();
  });

  it("cancels after a confirmation and shows the server's message", async () => {
    const sent = renderBilling(
      user(PRO_PLAN),
      billing({ subscriptions: [subscription({ abilities: { ...NO_ABILITIES, canCancel: true } })] }),
    );
    await userEvent.click(await screen.findByRole("button", { name: "Cancel subscription" }));
    const dialog = screen.getByRole("dialog", { name: "Cancel subscription?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await screen.findByText(BILLING_MESSAGES.cancelScheduled);
    expect(sent.filter((request) => request.method === "POST").map((request) => request.path)).toEqual([
      "/api/billing/subscriptions/sub_1/cancel",
    ]);
    await screen.findByRole("button", { name: "Undo cancel" });
  });

  it("offers the free plan's way up when there is no subscription", async () => {
    renderBilling(user(), billing());
    await screen.findByText("You are on the Free plan");
    expect(screen.getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("/upgrade");
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("shows the payment method, the invoices and a payment issue with its pay link", async () => {
    renderBilling(
      user(PRO_PLAN, { paymentIssue: true }),
      billing({
        subscriptions: [subscription({ status: "past_due", paymentIssue: true })],
        paymentMethod: { brand: "visa", last4: "4242", expMonth: 4, expYear: 2027 },
        paymentIssue: true,
        payUrl: "https://pay.example/invoice/1",
        invoices: [
          {
            id: "in_1",
            provider: "card",
            number: "RL-0001",
            status: "paid",
            amountDue: 4000,
            amountPaid: 4000,
            currency: "usd",
            createdAt: "2026-11-24T12:00:00.000Z",
            url: "https://pay.example/in_1",
          },
        ],
      }),
    );
    await screen.findByText(PAYMENT_ISSUE_TEXT);
    expect(screen.getByRole("link", { name: "Pay now" }).getAttribute("href")).toBe(
      "https://pay.example/invoice/1",
    );
    expect(screen.getByText("Visa •••• 4242")).toBeTruthy();
    expect(screen.getByText("Expires 04/2027")).toBeTruthy();
    const row = within(screen.getByRole("table", { name: "Invoices" })).getAllByRole("row")[1]!;
    expect(within(row).getByText("RL-0001")).toBeTruthy();
    expect(within(row).getByText("$40.00")).toBeTruthy();
    expect(within(row).getByRole("link", { name: "View invoice RL-0001" }).getAttribute("href")).toBe(
      "https://pay.example/in_1",
    );
  });

  it("shows PayPal as the payment method, its payments, and cancels a PayPal subscription now", async () => {
    const sent = renderBilling(
      user(PRO_PLAN),
      billing({
        subscriptions: [
          subscription({
            id: "sub_1",
            provider: "second",
            planName: "Pro (monthly)",
            abilities: { ...NO_ABILITIES, canCancel: true },
          }),
        ],
        paypal: { email: "ada@example.com" },
        invoices: [
          {
            id: "TX-1",
            provider: "second",
            number: null,
            status: "completed",
            amountDue: 4000,
            amountPaid: 4000,
            currency: "usd",
            createdAt: "2026-11-24T12:00:00.000Z",
            url: null,
          },
        ],
      }),
    );
    const method = await screen.findByRole("region", { name: "Payment method" });
    expect(within(method).getByText("PayPal")).toBeTruthy();
    expect(within(method).getByText("ada@example.com")).toBeTruthy();
    expect(screen.queryByText("No payment method on file.")).toBeNull();
    const row = within(screen.getByRole("table", { name: "Invoices" })).getAllByRole("row")[1]!;
    expect(within(row).getByText("PayPal payment")).toBeTruthy();
    expect(within(row).getByText("$40.00")).toBeTruthy();
    expect(within(row).getByText("Completed")).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Cancel subscription" }));
    const dialog = screen.getByRole("dialog", { name: "Cancel subscription?" });
    expect(within(dialog).getByText(/PayPal stops the payments now/)).toBeTruthy();
    expect(within(dialog).queryByText(/You can undo/)).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await vi.waitFor(() =>
      expect(sent.some((request) => request.path === "/api/billing/subscriptions/sub_1/cancel")).toBe(true),
    );
  });

  it("says the payment went through and reads billing again", async () => {
    const sent = renderBilling(user(), billing(), "/billing?payment_status=success");
    await screen.findByText("Payment successful");
    await vi.waitFor(() =>
      expect(sent.filter((request) => request.path === "/api/billing").length).toBeGreaterThanOrEqual(1),
    );
  });

  it("after a checkout that needs more from the customer, says that and not that the payment succeeded", async () => {
    renderBilling(
      user(PRO_PLAN, { paymentIssue: true }),
      billing({
        subscriptions: [subscription({ status: "incomplete", paymentIssue: true })],
        paymentIssue: true,
        payUrl: "https://pay.example/invoice/1",
      }),
      "/billing?payment_status=success",
    );
    await screen.findByText(PAYMENT_ISSUE_TEXT);
    expect(screen.getByRole("link", { name: "Pay now" })).toBeTruthy();
    expect(screen.queryByText("Payment successful")).toBeNull();
    expect(screen.queryByText(/Thank you/)).toBeNull();
  });

  it("shows the Free plan's limits from the catalog to a free user", async () => {
    renderBilling(user(), billing());
    const limits = await screen.findByRole("list", { name: "Free includes" });
    for (const line of ["1 project", "5 collaborators", "5 pages per project"])
      expect(within(limits).getByText(line)).toBeTruthy();
  });

  it("has an error state with a retry", async () => {
    stubApi({ "GET /api/me": { body: { data: user() } } });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={["/billing"]}>
          <BillingPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByText("Billing could not be loaded");
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
