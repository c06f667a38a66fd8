import {
  type Billing,
  LIFETIME_TIERS,
  NO_TEAM_PLAN,
  UNLIMITED_ENTITLEMENTS,
  type User,
} from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  billing,
  FREE_PLAN,
  NO_ABILITIES,
  PRO_PLAN,
  type StubResponse,
  stubApi,
  subscription,
  user,
} from "../features/billing/billing-fixtures.ts";
import { UpgradePage } from "./upgrade-page.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function renderUpgrade(
  me: User,
  answer: Billing = billing(),
  path = "/upgrade",
  routes: Record<string, StubResponse> = {},
) {
  const sent = stubApi({
    "GET /api/me": { body: { data: me } },
    "GET /api/billing": { body: { data: answer } },
    ...routes,
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <UpgradePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

const card = (name: string) => screen.getByRole("heading", { level: 3, name }).closest("li")!;

describe("the upgrade page", () => {
  it("shows Standard, Pro and Team, and the monthly/yearly toggle changes the prices", async () => {
    renderUpgrade(user());
    await screen.findByRole("heading", { level: 1, name: "Upgrade" });
    expect(document.title).toBe("Upgrade | Redline");
    const monthly = screen.getByRole("radio", { name: "Monthly" });
    expect((monthly as HTMLInputElement).checked).toBe(true);
    expect(within(card("Standard")).getByText("$15.00")).toBeTruthy();
    expect(within(card("Pro")).getByText("$40.00")).toBeTruthy();
    expect(within(card("Team")).getByText("$240.00")).toBeTruthy();
    expect(within(card("Pro")).getByText("Unlimited projects")).toBeTruthy();
    expect(within(card("Standard")).getByText("2 projects")).toBeTruthy();
    expect(within(card("Pro")).getByRole("link", { name: "Choose Pro" }).getAttribute("href")).toBe(
      "/upgrade/confirm/pro-monthly",
    );

    await userEvent.click(screen.getByRole("radio", { name: "Yearly" }));
    expect((screen.getByRole("radio", { name: "Yearly" }) as HTMLInputElement).checked).toBe(true);
    expect(within(card("Standard")).getByText("$180.00")).toBeTruthy();
    expect(within(card("Pro")).getByText("$480.00")).toBeTruthy();
    expect(within(card("Team")).getByText("$2,880.00")).toBeTruthy();
    expect(within(card("Pro")).getByText("/ year", { exact: false })).toBeTruthy();
    expect(within(card("Pro")).getByRole("link", { name: "Choose Pro" }).getAttribute("href")).toBe(
      "/upgrade/confirm/pro-yearly",
    );
  });

  it("carries the promo code to the payment summary", async () => {
    renderUpgrade(user(), billing(), "/upgrade?promo=SAVE15");
    const field = await screen.findByLabelText("Promo code");
    expect((field as HTMLInputElement).value).toBe("SAVE15");
    expect(screen.getByRole("link", { name: "Choose Standard" }).getAttribute("href")).toBe(
      "/upgrade/confirm/standard-monthly?promo=SAVE15",
    );
    await userEvent.clear(field);
    await userEvent.type(field, "SAVE20");
    await userEvent.click(screen.getByRole("radio", { name: "Yearly" }));
    expect(screen.getByRole("link", { name: "Choose Standard" }).getAttribute("href")).toBe(
      "/upgrade/confirm/standard-yearly?promo=SAVE20",
    );
  });

  it("shows the Free plan beside the paid ones, with its limits from the catalog", async () => {
    renderUpgrade(user());
    await screen.findByRole("heading", { level: 1, name: "Upgrade" });
    const free = card("Free");
    expect(within(free).getByText("$0.00")).toBeTruthy();
    expect(within(free).getByText("Current plan")).toBeTruthy();
    for (const line of ["1 project", "5 collaborators", "5 pages per project"])
      expect(within(free).getByText(line)).toBeTruthy();
    expect(within(free).queryByRole("link")).toBeNull();
  });

  it("prices the cards with a promo code as it is typed, and tells an unknown code so", async () => {
    renderUpgrade(user(), billing(), "/upgrade?interval=yearly");
    const field = await screen.findByLabelText("Promo code");
    await userEvent.type(field, "save30");
    // 30 % off yearly Pro: $480.00 becomes $336.00; Standard has no such offer and keeps its price.
    expect(within(card("Pro")).getByText("$336.00")).toBeTruthy();
    expect(within(card("Pro")).getByText("$480.00").closest("s")).toBeTruthy();
    expect(within(card("Standard")).getByText("$180.00").closest("s")).toBeNull();
    expect(screen.getByText("SAVE30: 30% off yearly Pro.")).toBeTruthy();

    await userEvent.clear(field);
    await userEvent.type(field, "SAVE99");
    expect(screen.getByText("We don't know this promo code. Check its spelling.")).toBeTruthy();
    expect(screen.queryByText(/does not apply to this plan/)).toBeNull();
    expect(within(card("Pro")).getByText("$480.00").closest("s")).toBeNull();
  });

  it("has an offers section, where the offer bar's 'Grab the deal' goes", async () => {
    renderUpgrade(user());
    const offers = await screen.findByRole("region", { name: "Offers" });
    expect(offers.id).toBe("offers");
    expect(within(offers).getByRole("heading", { name: "30% off yearly Pro" })).toBeTruthy();
    expect(within(offers).getByText("SAVE30")).toBeTruthy();
  });

  it("offers nothing to a member of an enabled team (SPEC §4), but does once that team is disabled", async () => {
    const team = (isPaid: boolean) => ({
      body: { data: [{ id: "t1", name: "Acme", role: "member", plan: { ...NO_TEAM_PLAN, isPaid } }] },
    });
    renderUpgrade(user(), billing(), "/upgrade", { "GET /api/teams": team(true) });
    expect(await screen.findByRole("heading", { level: 3, name: "Pro" })).toBeTruthy();
    // The teams answer (already stubbed) lands within a tick; the section stays away after it too.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("region", { name: "Offers" })).toBeNull();
    cleanup();
    renderUpgrade(user(), billing(), "/upgrade", { "GET /api/teams": team(false) });
    expect(await screen.findByRole("region", { name: "Offers" })).toBeTruthy();
  });

  it("marks the current plan and the subscribed interval", async () => {
    renderUpgrade(
      user(PRO_PLAN),
      billing({
        subscriptions: [
          subscription({ planId: "pro-monthly", abilities: { ...NO_ABILITIES, canUpdate: true } }),
        ],
      }),
    );
    const subscribed = await screen.findByRole("button", { name: "Your current plan" });
    expect(subscribed.closest("li")).toBe(card("Pro"));
    expect(subscribed.hasAttribute("disabled")).toBe(true);
    expect(within(card("Pro")).getByText("Current plan")).toBeTruthy();
    expect(within(card("Standard")).queryByText("Current plan")).toBeNull();
    // Another interval of the same plan is a change, through the same summary (which offers the update).
    await userEvent.click(screen.getByRole("radio", { name: "Yearly" }));
    expect(within(card("Pro")).getByRole("link", { name: "Choose Pro" })).toBeTruthy();
  });

  it("has nothing to sell when upsells are hidden and the plan has everything", async () => {
    renderUpgrade(
      user({
        ...FREE_PLAN,
        name: "Team",
        entitlements: UNLIMITED_ENTITLEMENTS,
        isFree: false,
        hideUpsells: true,
      }),
    );
    await screen.findByText("Your plan includes everything — nothing to upgrade");
    expect(screen.queryByRole("radio")).toBeNull();
    expect(screen.queryByText("$40.00")).toBeNull();
    expect(screen.queryByRole("region", { name: "Offers" })).toBeNull();
  });

  it("tells lifetime tier 2 what tier 3 adds (custom branding), not that there is nothing to upgrade", async () => {
    renderUpgrade(
      user({
        ...FREE_PLAN,
        name: "Lifetime tier 2",
        entitlements: LIFETIME_TIERS[2].entitlements,
        isFree: false,
        hideUpsells: true,
      }),
    );
    await screen.findByRole("heading", { name: "Your plan is Lifetime tier 2" });
    expect(screen.queryByText(/nothing to upgrade/)).toBeNull();
    expect(
      screen.getByText(/Lifetime tier 3 adds unlimited collaborators and custom branding\./),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Redeem a code on Offers" }).getAttribute("href")).toBe(
      "/offers",
    );
    expect(screen.queryByRole("radio")).toBeNull();
  });

  it("prices the plans in the visitor's currency, and remembers the currency they choose", async () => {
    const sent = renderUpgrade(user(), billing(), "/upgrade", {
      "GET /api/billing/prices": {
        body: {
          data: {
            currency: "JPY",
            source: "language",
            country: "JP",
            currencies: [],
            ratesDate: "2025-06-30",
            prices: [],
          },
        },
      },
    });
    await screen.findByRole("heading", { level: 1, name: "Upgrade" });
    const select = screen.getByRole("combobox", { name: "Currency" }) as HTMLSelectElement;
    expect(select.value).toBe("JPY");
    expect(within(card("Pro")).getByText("¥5,800")).toBeTruthy();
    expect(within(card("Standard")).getByText("¥2,200")).toBeTruthy();
    expect(screen.queryByText("$40.00")).toBeNull();

    await userEvent.selectOptions(select, "EUR — Euro");
    expect(within(card("Pro")).getByText("€34.00")).toBeTruthy();
    await userEvent.click(screen.getByRole("radio", { name: "Yearly" }));
    expect(within(card("Pro")).getByText("€409.00")).toBeTruthy();
    expect(localStorage.getItem("redline.currency")).toBe("EUR");
    expect(sent.filter((request) => request.path === "/api/billing/prices")).toHaveLength(1);
  });

  it("shows the currency chosen before, without asking the server", async () => {
    localStorage.setItem("redline.currency", "GBP");
    const sent = renderUpgrade(user());
    await screen.findByRole("heading", { level: 1, name: "Upgrade" });
    expect((screen.getByRole("combobox", { name: "Currency" }) as HTMLSelectElement).value).toBe("GBP");
    expect(within(card("Pro")).getByText("£29.00")).toBeTruthy();
    expect(sent.some((request) => request.path === "/api/billing/prices")).toBe(false);
  });
});
