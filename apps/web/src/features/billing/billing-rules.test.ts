import { PLANS, toMinorUnits } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { billing, subscription } from "./billing-fixtures.ts";
import {
  currentCardSubscription,
  entitlementLines,
  formatMinorAmount,
  fromMinorUnits,
  offerTitle,
  promoOffers,
} from "./billing-rules.ts";

describe("billing rules", () => {
  it("reads amounts back from minor units, zero-decimal currencies as they are", () => {
    expect(fromMinorUnits(toMinorUnits(48, "usd"), "usd")).toBe(48);
    expect(fromMinorUnits(toMinorUnits(4800, "JPY"), "JPY")).toBe(4800);
    expect(formatMinorAmount(4000, "usd")).toBe("$40.00");
    expect(formatMinorAmount(4800, "jpy")).toBe("¥4,800");
  });

  it("lists what a plan allows", () => {
    expect(entitlementLines(PLANS.web.standard.entitlements)).toEqual([
      "2 projects",
      "10 collaborators",
      "Unlimited pages per project",
      "10 minutes of video comments",
      "30 GB storage",
    ]);
    expect(entitlementLines(PLANS.web.team.entitlements)).toEqual([
      "Unlimited projects",
      "Unlimited collaborators",
      "Unlimited pages per project",
      "Unlimited video comments",
      "Unlimited storage",
    ]);
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
