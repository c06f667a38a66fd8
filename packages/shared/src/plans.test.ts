import { describe, expect, it } from "vitest";
import { UNLIMITED } from "./limits.ts";
import {
  formatPrice,
  limitsWithPlans,
  type PlanSources,
  parsePlanId,
  planIdOf,
  planPrice,
  promoDiscount,
  resolvePlan,
  showsOffers,
  showsProjectUpsell,
  toMinorUnits,
} from "./plans.ts";

const nothing: PlanSources = { privilege: null, lifetimeDeal: null, partnerPlan: null, subscriptions: [] };

describe("plan ids", () => {
  it("read the product, tier, interval, discount and seats, and write back the same id", () => {
    expect(parsePlanId("pro-yearly")).toEqual({
      product: "web",
      tier: "pro",
      interval: "yearly",
      discount: null,
      seats: null,
    });
    expect(parsePlanId("browse-standard-monthly-15off")).toMatchObject({
      product: "browse",
      tier: "standard",
      discount: 15,
    });
    expect(parsePlanId("team-monthly-x10")).toMatchObject({ tier: "team", seats: 10 });
    for (const id of ["pro-yearly", "browse-pro-yearly-30off", "team-yearly-x5", "standard-monthly-15off"])
      expect(planIdOf(parsePlanId(id)!)).toBe(id);
  });

  it.each(["", "pro", "gold-yearly", "pro-weekly", "team-yearly-30off", "pro-yearly-x5", "pro-yearly-25off"])(
    "refuse %j",
    (id) => {
      expect(parsePlanId(id)).toBeNull();
    },
  );

  it("price Pro yearly with its promo code at 30 % off, monthly plans at 15 %", () => {
    const pro = parsePlanId("pro-yearly")!;
    expect(promoDiscount(pro)).toBe(30);
    expect(planPrice({ ...pro, discount: 30 })).toBe(336);
    expect(promoDiscount(parsePlanId("browse-standard-yearly")!)).toBe(20);
    expect(promoDiscount(parsePlanId("pro-monthly")!)).toBe(15);
    expect(promoDiscount(parsePlanId("team-yearly")!)).toBeNull();
    expect(planPrice(parsePlanId("team-monthly-x10")!)).toBe(480);
  });
});

describe("what a user may do (SPEC §4, §6, §9)", () => {
  it("is the free plan when nothing is held: web 1 project, 5 pages, 5 collaborators; browse 2 projects, 20 tickets", () => {
    const web = resolvePlan(nothing, "web");
    expect(web).toMatchObject({ name: "Free", isFree: true, hideUpsells: false });
    expect(web.entitlements).toMatchObject({
      projects: 1,
      pages: 5,
      collaborators: 5,
      guestCommenting: false,
    });
    expect(resolvePlan(nothing, "browse").entitlements).toMatchObject({
      projects: 2,
      tickets: 20,
      collaborators: 5,
    });
  });

  it("counts a subscription only while current and only in its own product", () => {
    const pro = (status: "active" | "canceled" | "past_due") => ({
      ...nothing,
      subscriptions: [{ planId: "pro-yearly", status, provider: "card" as const }],
    });
    expect(resolvePlan(pro("active"), "web").entitlements.projects).toBe(UNLIMITED);
    expect(resolvePlan(pro("past_due"), "web").name).toBe("Pro");
    expect(resolvePlan(pro("canceled"), "web").isFree).toBe(true);
    expect(resolvePlan(pro("active"), "browse").isFree).toBe(true);
    // The second provider's subscriptions count as active whatever they report.
    const second = {
      ...nothing,
      subscriptions: [
        { planId: "browse-standard-monthly", status: "unpaid" as const, provider: "second" as const },
      ],
    };
    expect(resolvePlan(second, "browse").name).toBe("Standard");
  });

  it("grants lifetime tiers, partner plans and privileges, hiding upsells for lifetime and privilege", () => {
    const tier2 = { ...nothing, lifetimeDeal: { isDisabled: false, invoices: [{ plan: "redline_tier2" }] } };
    expect(resolvePlan(tier2, "web")).toMatchObject({ name: "Lifetime tier 2", hideUpsells: true });
    expect(resolvePlan(tier2, "web").entitlements).toMatchObject({ projects: UNLIMITED, collaborators: 5 });
    const refunded = {
      ...nothing,
      lifetimeDeal: { isDisabled: true, invoices: [{ plan: "redline_tier3" }] },
    };
    expect(resolvePlan(refunded, "web").isFree).toBe(true);
    const partnerD = resolvePlan({ ...nothing, partnerPlan: "D" }, "web");
    expect(partnerD.entitlements).toMatchObject({ collaborators: 50, customDomain: true, branding: true });
    expect(partnerD.hideUpsells).toBe(false);
    const privileged = resolvePlan({ ...nothing, privilege: "team" }, "browse");
    expect(privileged).toMatchObject({ name: "Team", hideUpsells: true });
  });

  it("takes the most of each entitlement across everything held", () => {
    const both = {
      ...nothing,
      lifetimeDeal: { isDisabled: false, invoices: [{ plan: "tier1" }] },
      subscriptions: [{ planId: "standard-monthly", status: "active" as const, provider: "card" as const }],
    };
    // Tier 1: 10 projects, 1 user; Standard: 2 projects, 10 collaborators.
    expect(resolvePlan(both, "web").entitlements).toMatchObject({ projects: 10, collaborators: 10 });
  });

  it("offers unlimited projects only to a plan with limited projects and upsells shown", () => {
    expect(showsProjectUpsell(resolvePlan(nothing, "web"))).toBe(true);
    expect(showsProjectUpsell(resolvePlan({ ...nothing, partnerPlan: "A" }, "web"))).toBe(false);
    const tier1 = { ...nothing, lifetimeDeal: { isDisabled: false, invoices: [{ plan: "tier1" }] } };
    expect(showsProjectUpsell(resolvePlan(tier1, "web"))).toBe(false); // 10 projects, but upsells hidden
    expect(showsProjectUpsell(resolvePlan(nothing, "web", false))).toBe(false);
    // Offers: only without any paid plan.
    expect(showsOffers(resolvePlan(nothing, "web"))).toBe(true);
    const standard = {
      ...nothing,
      subscriptions: [{ planId: "standard-yearly", status: "active" as const, provider: "card" as const }],
    };
    expect(showsProjectUpsell(resolvePlan(standard, "web"))).toBe(true); // 2 projects: more to gain
    expect(showsOffers(resolvePlan(standard, "web"))).toBe(false);
  });

  it("is unlimited, with no upsell, when plans are switched off", () => {
    const off = resolvePlan(nothing, "web", false);
    expect(off.entitlements.projects).toBe(UNLIMITED);
    expect(off.hideUpsells).toBe(true);
  });
});

describe("the limits that apply", () => {
  it("are the larger of the user's stored limits and what their plans give", () => {
    const free = { web: { projects: 1, pages: 5 }, browse: { projects: 2, pages: 5 } };
    expect(limitsWithPlans(free, nothing)).toEqual(free);
    expect(limitsWithPlans(free, { ...nothing, privilege: "pro" })).toEqual({
      web: { projects: -1, pages: -1 },
      browse: { projects: -1, pages: -1 },
    });
    const raised = { web: { projects: 3, pages: 5 }, browse: { projects: 2, pages: 5 } };
    const standard = {
      ...nothing,
      subscriptions: [{ planId: "standard-monthly", status: "active" as const, provider: "card" as const }],
    };
    // Standard gives 2 projects and unlimited pages; the user's own 3 projects stay.
    expect(limitsWithPlans(raised, standard).web).toEqual({ projects: 3, pages: -1 });
  });
});

describe("money", () => {
  it("keeps zero-decimal currencies whole", () => {
    expect(toMinorUnits(480, "usd")).toBe(48000);
    expect(toMinorUnits(4800, "JPY")).toBe(4800);
    expect(formatPrice(480, "usd")).toBe("$480.00");
    expect(formatPrice(4800, "jpy")).toBe("¥4,800");
  });
});
