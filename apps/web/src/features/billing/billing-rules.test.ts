import { PLANS, parsePlanId, SHIPPED_FEATURES } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { billing, subscription } from "./billing-fixtures.ts";
import {
  CURRENCY_CHOICES,
  currencyLabel,
  currentCardSubscription,
  entitlementGains,
  entitlementLines,
  offerTitle,
  planPriceLabel,
  promoOffers,
} from "./billing-rules.ts";

describe("billing rules", () => {
  it("prices a plan in a currency, zero-decimal currencies without decimals", () => {
    expect(planPriceLabel(parsePlanId("pro-monthly")!, "USD")).toBe("$40.00 / month");
    expect(planPriceLabel(parsePlanId("pro-monthly")!, "JPY")).toBe("¥5,800 / month");
    expect(planPriceLabel(parsePlanId("pro-yearly-30off")!, "EUR")).toBe("€286.30 / year");
  });

  it("names the 25 currencies, by code", () => {
    expect(CURRENCY_CHOICES).toHaveLength(25);
    expect(CURRENCY_CHOICES.slice(0, 3)).toEqual(["AUD", "BRL", "CAD"]);
    expect(currencyLabel("EUR")).toBe("EUR — Euro");
    expect(currencyLabel("JPY")).toBe("JPY — Japanese Yen");
  });

  it("lists exactly what a plan allows (SPEC §9), video comments included now that they are recorded", () => {
    expect(SHIPPED_FEATURES.videoComments).toBe(true);
    expect(entitlementLines(PLANS.web.standard.entitlements)).toEqual([
      "2 projects",
      "10 collaborators",
      "Unlimited pages per project",
      "10 minutes of video comments",
      "30 GB storage",
    ]);
    // Free website feedback has no video comments: no line for them.
    expect(entitlementLines(PLANS.web.free.entitlements)).not.toContainEqual(expect.stringMatching(/video/));
    expect(entitlementLines(PLANS.browse.free.entitlements)).toContain("1 minute of video comments");
    expect(entitlementLines(PLANS.browse.free.entitlements)).toContain("1 GB storage");
    expect(entitlementLines(PLANS.browse.standard.entitlements)).toContain("10 minutes of video comments");
    expect(entitlementLines(PLANS.browse.pro.entitlements)).toEqual(
      expect.arrayContaining(["10 minutes of video comments", "150 GB storage"]),
    );
    expect(entitlementLines(PLANS.web.team.entitlements)).toEqual([
      "Unlimited projects",
      "Unlimited collaborators",
      "Unlimited pages per project",
      "Unlimited video comments",
      "Unlimited storage",
    ]);
    const gains = entitlementGains(PLANS.browse.free.entitlements, PLANS.browse.standard.entitlements);
    expect(gains).toContain("10 minutes of video comments");
  });

  it("offers SPEC §9's promo codes, largest first", () => {
    const offers = promoOffers("web");
    expect(offers.map(offerTitle)).toEqual([
      "30% off yearly Pro",
      "20% off yearly Standard",
      "15% off monthly Standard and Pro",
    ]);
    expect(offers.map((offer) => offer.code)).toEqual(["SAVE30", "SAVE20", "SAVE15"]);
  });

  it("finds the card subscription an upgrade changes: current, of this product", () => {
    const cancelled = subscription({ id: "old", status: "canceled" });
    const browse = subscription({ id: "b", product: "browse", planId: "browse-pro-monthly" });
    const second = subscription({ id: "s", provider: "second" });
    const current = subscription({ id: "c", status: "past_due" });
    expect(
      currentCardSubscription(billing({ subscriptions: [cancelled, browse, second] }), "web"),
    ).toBeNull();
    expect(currentCardSubscription(billing({ subscriptions: [cancelled, current] }), "web")?.id).toBe("c");
  });
});
