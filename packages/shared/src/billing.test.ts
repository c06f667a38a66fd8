import { describe, expect, it } from "vitest";
import {
  applyPromoCode,
  BILLING_MESSAGES,
  hasPaymentIssue,
  needsPaymentCheck,
  planDisplayName,
  promoCodeProblem,
  showsPaymentNotice,
  updateOutcome,
  upgradeChoices,
} from "./billing.ts";
import { parsePlanId, planIdOf, planPrice } from "./plans.ts";

const plan = (id: string) => parsePlanId(id)!;

describe("promo codes (SPEC §9)", () => {
  it.each([
    ["pro-yearly", "SAVE30", "pro-yearly-30off"],
    ["browse-pro-yearly", "save30", "browse-pro-yearly-30off"],
    ["standard-yearly", "SAVE20", "standard-yearly-20off"],
    ["browse-standard-yearly", " SAVE20 ", "browse-standard-yearly-20off"],
    ["pro-monthly", "SAVE15", "pro-monthly-15off"],
    ["standard-monthly", "SAVE15", "standard-monthly-15off"],
  ])("%s with %s becomes %s", (id, code, expected) => {
    expect(planIdOf(applyPromoCode(plan(id), code)!)).toBe(expected);
  });

  it.each([
    ["pro-yearly", "SAVE20"],
    ["standard-yearly", "SAVE30"],
    ["pro-monthly", "SAVE30"],
    ["team-yearly", "SAVE30"],
    ["team-monthly", "SAVE15"],
    ["pro-yearly", "NOPE"],
    ["pro-yearly-30off", "SAVE30"],
  ])("%s refuses %s", (id, code) => {
    expect(applyPromoCode(plan(id), code)).toBeNull();
  });

  it("tells a code that does not exist from a real one meant for other plans", () => {
    expect(promoCodeProblem(plan("pro-yearly"), "SAVE30")).toBeNull();
    expect(promoCodeProblem(plan("pro-yearly"), "NOPE")).toBe(BILLING_MESSAGES.unknownPromoCode);
    expect(promoCodeProblem(plan("pro-yearly"), "SAVE20")).toBe(BILLING_MESSAGES.invalidPromoCode);
    expect(promoCodeProblem(plan("team-yearly"), "save30")).toBe(BILLING_MESSAGES.invalidPromoCode);
  });

  it("takes 30 % off yearly Pro", () => {
    expect(planPrice(applyPromoCode(plan("pro-yearly"), "SAVE30")!)).toBe(336);
  });
});

describe("SPEC §4 payment notice", () => {
  it("checks payment intents only for past_due, incomplete, unpaid or a pending update", () => {
    expect(needsPaymentCheck("active", false)).toBe(false);
    expect(needsPaymentCheck("trialing", false)).toBe(false);
    expect(needsPaymentCheck("active", true)).toBe(true);
    for (const status of ["past_due", "incomplete", "unpaid"])
      expect(needsPaymentCheck(status, false)).toBe(true);
  });

  it("needs an intent that requires action or a payment method", () => {
    expect(hasPaymentIssue("past_due", false, ["succeeded", "requires_payment_method"])).toBe(true);
    expect(hasPaymentIssue("incomplete", false, ["requires_action"])).toBe(true);
    expect(hasPaymentIssue("past_due", false, ["succeeded", "processing"])).toBe(false);
    expect(hasPaymentIssue("active", false, ["requires_action"])).toBe(false);
    expect(hasPaymentIssue("active", true, ["requires_action"])).toBe(true);
  });

  it.each([
    ["/projects", true],
    ["/project/abc", true],
    ["/profile", true],
    ["/billing", false],
    ["/upgrade", false],
    ["/upgrade/confirm/pro-yearly", false],
    ["/billingsomething", true],
  ])("on %s: %s", (path, shown) => {
    expect(showsPaymentNotice(path)).toBe(shown);
  });
});

describe("SPEC §4 update outcome", () => {
  const intents = [{ id: "pi_1", status: "requires_action" }];
  it.each([
    ["active", false, { result: "success" }],
    ["trialing", false, { result: "success" }],
    ["active", true, { result: "past_due", paymentIntents: intents }],
    ["past_due", false, { result: "past_due", paymentIntents: intents }],
    ["incomplete", false, { result: "status", status: "incomplete" }],
    ["unpaid", false, { result: "status", status: "unpaid" }],
  ] as const)("%s, pending %s", (status, pending, expected) => {
    expect(updateOutcome(status, pending, intents)).toEqual(expected);
  });
});

describe("plan names and choices", () => {
  it("names a plan with its interval and discount", () => {
    expect(planDisplayName(plan("pro-yearly"))).toBe("Pro (yearly)");
    expect(planDisplayName(plan("browse-standard-monthly-15off"))).toBe("Standard (monthly, 15% off)");
    expect(planDisplayName(plan("team-monthly-x10"))).toBe("Team (monthly, 10 seats)");
  });

  it("offers Standard, Pro and Team of the product and interval", () => {
    expect(upgradeChoices("browse", "yearly").map((choice) => choice.planId)).toEqual([
      "browse-standard-yearly",
      "browse-pro-yearly",
      "browse-team-yearly",
    ]);
  });
});
