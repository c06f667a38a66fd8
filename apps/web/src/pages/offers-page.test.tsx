import { LIFETIME_TIERS, type User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FREE_PLAN, stubApi, user } from "../features/billing/billing-fixtures.ts";
import { OffersPage } from "./offers-page.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderOffers(me: User) {
  stubApi({ "GET /api/me": { body: { data: me } } });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={["/offers"]}>
        <OffersPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the offers page", () => {
  it("has the promo offers and ways to redeem a lifetime-deal or a partner code", async () => {
    renderOffers(user());
    expect(await screen.findByRole("heading", { level: 1, name: "Offers" })).toBeTruthy();
    expect(screen.getByRole("region", { name: "Have a lifetime deal code?" })).toBeTruthy();
    expect(screen.getByLabelText("Lifetime deal code")).toBeTruthy();
    expect(screen.getByRole("region", { name: "Have a partner code?" })).toBeTruthy();
    expect(screen.getByLabelText("Partner code")).toBeTruthy();
  });

  it("still takes a code when upsells are hidden (a lifetime holder may add a higher tier)", async () => {
    renderOffers(
      user({
        ...FREE_PLAN,
        name: "Lifetime tier 1",
        entitlements: LIFETIME_TIERS[1].entitlements,
        isFree: false,
        hideUpsells: true,
      }),
    );
    expect(
      await screen.findByText(
        /Lifetime tier 3 adds unlimited projects, unlimited collaborators and custom branding: redeem its code below\./,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/nothing to upgrade/)).toBeNull();
    expect(screen.getAllByRole("button", { name: "Redeem" })).toHaveLength(2);
  });
});
