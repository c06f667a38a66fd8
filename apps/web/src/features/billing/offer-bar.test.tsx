import { OFFER_BAR } from "@redline/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { FREE_PLAN, PRO_PLAN } from "./billing-fixtures.ts";
import { OfferBar } from "./offer-bar.tsx";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const renderAt = (path: string, plan = FREE_PLAN) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <OfferBar plan={plan} />
    </MemoryRouter>,
  );

describe("the offer bar", () => {
  it("leads to /offers from /projects, and once closed stays closed this session", async () => {
    renderAt("/projects");
    expect(screen.getByText(OFFER_BAR.text)).toBeTruthy();
    expect(screen.getByRole("link", { name: OFFER_BAR.action }).getAttribute("href")).toBe("/offers");
    await userEvent.click(screen.getByRole("button", { name: "Close offer" }));
    expect(screen.queryByText(OFFER_BAR.text)).toBeNull();
    cleanup();
    renderAt("/projects");
    expect(screen.queryByText(OFFER_BAR.text)).toBeNull();
    cleanup();
    renderAt("/billing");
    expect(screen.getByText(OFFER_BAR.text)).toBeTruthy();
  });

  it("on /upgrade scrolls to the offers section instead, and cannot be closed there", async () => {
    renderAt("/upgrade");
    const offers = document.createElement("section");
    offers.id = "offers";
    offers.tabIndex = -1;
    offers.scrollIntoView = () => {};
    document.body.append(offers);
    await userEvent.click(screen.getByRole("button", { name: OFFER_BAR.action }));
    expect(document.activeElement).toBe(offers);
    offers.remove();
    expect(screen.queryByRole("button", { name: "Close offer" })).toBeNull();
  });

  it("is not shown to a paid user", () => {
    renderAt("/projects", PRO_PLAN);
    expect(screen.queryByText(OFFER_BAR.text)).toBeNull();
  });
});
