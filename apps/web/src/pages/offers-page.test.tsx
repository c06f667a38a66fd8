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

function renderOffers(me: User, teams: { role: string; plan: { isPaid: boolean } }[] = []) {
  stubApi({ "GET /api/me": { body: { data: me } }, "GET /api/teams": { body: { data: teams } } });
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

  it("offers nothing to a member of an enabled team (SPEC §4); codes can still be redeemed", async () => {
    renderOffers(user(), [{ role: "member", plan: { isPaid: true } }]);
    expect(await screen.findByRole("heading", { name: "Your team's plan covers you" })).toBeTruthy();
    expect(screen.queryByText(/Save on a paid plan with a promo code/)).toBeNull();
    expect(screen.getByRole("link", { name: "Go to your team" }).getAttribute("href")).toBe("/team");
    expect(screen.getAllByRole("button", { name: "Redeem" })).toHaveLength(2);
  });

  it("still offers to a collaborator of a paid team, or a member of an unpaid one", async () => {
    renderOffers(user(), [
      { role: "collaborator", plan: { isPaid: true } },
      { role: "member", plan: { isPaid: false } },
    ]);
    expect(await screen.findByText(/Save on a paid plan with a promo code/)).toBeTruthy();
    expect(screen.queryByText("Your team's plan covers you")).toBeNull();
  });
});
