import { describe, expect, it } from "vitest";
import {
  BASE_CURRENCY,
  billingPricesQuerySchema,
  CURRENCY_MESSAGES,
  convertFromBase,
  currencyFor,
  EXCHANGE_RATES,
  formatMoney,
  planPriceIn,
  priceIn,
  supportedCurrency,
} from "./currencies.ts";
import {
  type Currency,
  PLANS,
  parsePlanId,
  planPrice,
  SUPPORTED_CURRENCIES,
  toMinorUnits,
  ZERO_DECIMAL_CURRENCIES,
} from "./plans.ts";

const plan = (id: string) => parsePlanId(id)!;

describe("the visitor's currency (SPEC §9)", () => {
  it.each([
    ["CH", "CHF"],
    ["de", "EUR"],
    ["AT", "EUR"],
    ["JP", "JPY"],
    ["GB", "GBP"],
    ["LI", "CHF"],
    ["US", "USD"],
    ["TW", "TWD"],
  ])("a visitor from %s pays in %s", (country, currency) => {
    expect(currencyFor(country)).toBe(currency);
  });

  it.each([["KR"], ["AR"], ["IN"], ["ZZ"], [""], [null], [undefined]])(
    "a visitor from %s (currency not supported, or no country) pays in USD",
    (country) => {
      expect(currencyFor(country)).toBe("USD");
    },
  );

  it("reads supported codes in any case and refuses the others", () => {
    expect(supportedCurrency("eur")).toBe("EUR");
    expect(supportedCurrency(" JPY ")).toBe("JPY");
    expect(supportedCurrency("KRW")).toBeNull();
    expect(supportedCurrency("")).toBeNull();
    expect(billingPricesQuerySchema.parse({ currency: "chf" })).toEqual({ currency: "CHF" });
    const refused = billingPricesQuerySchema.safeParse({ currency: "KRW" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(CURRENCY_MESSAGES.unsupported);
    expect(billingPricesQuerySchema.safeParse({ currency: "EURO" }).success).toBe(false);
  });

  it("has a rate and a step for each of the 25 supported currencies", () => {
    expect(SUPPORTED_CURRENCIES).toHaveLength(25);
    expect(Object.keys(EXCHANGE_RATES.rates).sort()).toEqual([...SUPPORTED_CURRENCIES].sort());
    expect(EXCHANGE_RATES.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("prices in a currency", () => {
  it("keeps the catalog's dollars, in cents, for USD", () => {
    expect(priceIn(PLANS.web.pro, "monthly", "USD")).toBe(4000);
    expect(priceIn(PLANS.web.team, "yearly", "USD")).toBe(288000);
    for (const id of [
      "pro-yearly-30off",
      "standard-monthly-15off",
      "browse-pro-yearly-30off",
      "team-monthly",
    ])
      expect(planPriceIn(plan(id), "USD")).toBe(toMinorUnits(planPrice(plan(id)), "usd"));
  });

  it("gives JPY and other zero-decimal amounts in whole units, rounded to a nice step", () => {
    // 40 × 144 = 5,760 yen → ¥5,800 (steps of 100 yen); no minor unit.
    expect(priceIn(PLANS.web.pro, "monthly", "JPY")).toBe(5800);
    expect(priceIn(PLANS.web.standard, "monthly", "JPY")).toBe(2200);
    expect(priceIn(PLANS.web.pro, "yearly", "JPY")).toBe(69100);
    // A discount is taken off the local price, to the yen.
    expect(planPriceIn(plan("pro-yearly-30off"), "JPY")).toBe(48370);
  });

  it("gives two-decimal currencies in cents of a whole-unit price", () => {
    // 40 × 0.853 = 34.12 € → €34 → 3400 cents.
    expect(priceIn(PLANS.web.pro, "monthly", "EUR")).toBe(3400);
    expect(priceIn(PLANS.web.standard, "monthly", "EUR")).toBe(1300);
    expect(planPriceIn(plan("pro-monthly-15off"), "EUR")).toBe(2890);
    expect(priceIn(PLANS.browse.pro, "monthly", "MXN")).toBe(149000);
    expect(priceIn(PLANS.web.free, "monthly", "EUR")).toBe(0);
  });

  it("prices every plan in every currency with a positive, whole amount", () => {
    for (const currency of SUPPORTED_CURRENCIES)
      for (const product of ["web", "browse"] as const)
        for (const tier of ["standard", "pro", "team"] as const)
          for (const interval of ["monthly", "yearly"] as const) {
            const amount = priceIn(PLANS[product][tier], interval, currency);
            expect(Number.isInteger(amount) && amount > 0, `${product} ${tier} ${interval} ${currency}`).toBe(
              true,
            );
          }
  });

  it("stays within a step of the rate", () => {
    for (const currency of SUPPORTED_CURRENCIES) {
      const { rate, step } = EXCHANGE_RATES.rates[currency as Currency];
      const minor = ZERO_DECIMAL_CURRENCIES.has(currency.toLowerCase()) ? 1 : 100;
      const exact = 480 * rate;
      expect(Math.abs(convertFromBase(480, currency) / minor - exact)).toBeLessThanOrEqual(step / 2);
    }
  });
});

describe("formatting", () => {
  it("shows zero-decimal currencies without decimals", () => {
    expect(formatMoney(5800, "JPY")).toBe("¥5,800");
    expect(formatMoney(5800, "jpy")).toBe("¥5,800");
    expect(formatMoney(52000, "krw")).toBe("₩52,000");
  });

  it("shows the others with two decimals, from minor units", () => {
    expect(formatMoney(4000, "usd")).toBe("$40.00");
    expect(formatMoney(288000, BASE_CURRENCY)).toBe("$2,880.00");
    expect(formatMoney(3400, "EUR")).toBe("€34.00");
    expect(formatMoney(2890, "EUR")).toBe("€28.90");
    expect(formatMoney(3400, "EUR", "de-DE").replace(/\s/g, " ")).toBe("34,00 €");
    expect(formatMoney(1300, "GBP")).toBe("£13.00");
  });

  it("still shows an amount in a code Intl does not know", () => {
    expect(formatMoney(1234, "XYZ")).toMatch(/12\.34/);
  });
});
