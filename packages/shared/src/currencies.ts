/**
 * Prices in the visitor's currency (SPEC §2 `/upgrade`, §9 supported and zero-decimal currencies). The
 * catalog is priced in US dollars (plans.ts); every other supported currency gets its price from a kept,
 * dated table of rates, rounded to a "nice" step of that currency (¥5,800, not ¥5,760) — ADR 0011 says
 * why a table and not live rates, and how to update it. Amounts leave here in minor units, as payment
 * providers count them: cents for USD, whole yen for JPY (zero-decimal). Pure: the server prices
 * checkouts with it, the web shows the same numbers.
 */
import { z } from "zod";
import {
  type BillingInterval,
  type CatalogPlan,
  type Currency,
  PLANS,
  type PlanId,
  SUPPORTED_CURRENCIES,
  ZERO_DECIMAL_CURRENCIES,
} from "./plans.ts";

/** The catalog's currency, the default when the visitor's is not supported. */
export const BASE_CURRENCY: Currency = "USD";

/**
 * Units of each currency for one US dollar, and the step (in whole units) a converted price is
 * rounded to. Mid-market rates of the date below, rounded; a price list, not a quote — see ADR 0011.
 * The date is part of the provider's price lookup keys: changing it creates new prices for new
 * checkouts, while existing subscriptions keep the price they were sold at.
 */
export const EXCHANGE_RATES = {
  date: "2025-06-30",
  rates: {
    AUD: { rate: 1.53, step: 1 },
    BRL: { rate: 5.45, step: 1 },
    CAD: { rate: 1.36, step: 1 },
    CNY: { rate: 7.17, step: 1 },
    CZK: { rate: 21.1, step: 10 },
    DKK: { rate: 6.36, step: 1 },
    EUR: { rate: 0.853, step: 1 },
    HKD: { rate: 7.85, step: 1 },
    HUF: { rate: 341, step: 100 },
    ILS: { rate: 3.37, step: 1 },
    JPY: { rate: 144, step: 100 },
    MYR: { rate: 4.21, step: 1 },
    MXN: { rate: 18.8, step: 10 },
    TWD: { rate: 29.2, step: 10 },
    NZD: { rate: 1.65, step: 1 },
    NOK: { rate: 10.1, step: 1 },
    PHP: { rate: 56.3, step: 10 },
    PLN: { rate: 3.62, step: 1 },
    GBP: { rate: 0.73, step: 1 },
    RUB: { rate: 78.5, step: 10 },
    SGD: { rate: 1.27, step: 1 },
    SEK: { rate: 9.5, step: 1 },
    CHF: { rate: 0.797, step: 1 },
    THB: { rate: 32.5, step: 10 },
    USD: { rate: 1, step: 1 },
  },
} as const satisfies { date: string; rates: Record<Currency, { rate: number; step: number }> };

/** "fx20250630": names the rates table in the provider's price lookup keys. */
export const EXCHANGE_RATES_VERSION = `fx${EXCHANGE_RATES.date.replaceAll("-", "")}`;

/**
 * Countries whose currency (the first the `countries-list` dataset names for them, as GET /api/countries
 * reports it) is a supported one other than USD; every other country pays in USD. The server's tests
 * check this table against the dataset.
 */
const COUNTRIES_BY_CURRENCY: Record<Exclude<Currency, "USD">, readonly string[]> = {
  AUD: ["AU", "CC", "CX", "HM", "KI", "NF", "NR", "TV"],
  BRL: ["BR"],
  CAD: ["CA"],
  CHF: ["CH", "LI"],
  CNY: ["CN"],
  CZK: ["CZ"],
  DKK: ["DK", "FO", "GL"],
  EUR: [
    ...["AD", "AT", "AX", "BE", "BG", "BL", "CY", "DE", "EE", "ES", "FI", "FR", "GF", "GP", "GR", "HR"],
    ...["IE", "IT", "LT", "LU", "LV", "MC", "ME", "MF", "MQ", "MT", "NL", "PM", "PT", "RE", "SI", "SK"],
    ...["SM", "TF", "VA", "XK", "YT"],
  ],
  GBP: ["GB", "GG", "GS", "IM", "JE"],
  HKD: ["HK"],
  HUF: ["HU"],
  ILS: ["IL", "PS"],
  JPY: ["JP"],
  MXN: ["MX"],
  MYR: ["MY"],
  NOK: ["BV", "NO", "SJ"],
  NZD: ["CK", "NU", "NZ", "PN", "TK"],
  PHP: ["PH"],
  PLN: ["PL"],
  RUB: ["RU"],
  SEK: ["SE"],
  SGD: ["SG"],
  THB: ["TH"],
  TWD: ["TW"],
};

const CURRENCY_OF_COUNTRY = new Map<string, Currency>(
  Object.entries(COUNTRIES_BY_CURRENCY).flatMap(([currency, countries]) =>
    countries.map((country) => [country, currency as Currency] as const),
  ),
);

/** The supported currency of a code in any case ("eur" → "EUR"), or null. */
export function supportedCurrency(code: string | null | undefined): Currency | null {
  const upper = code?.trim().toUpperCase();
  return upper && (SUPPORTED_CURRENCIES as readonly string[]).includes(upper) ? (upper as Currency) : null;
}

/** The currency a visitor from `countryCode` pays in: their country's when supported, else USD. */
export function currencyFor(countryCode: string | null | undefined): Currency {
  return CURRENCY_OF_COUNTRY.get(countryCode?.trim().toUpperCase() ?? "") ?? BASE_CURRENCY;
}

export const isZeroDecimal = (currency: string) => ZERO_DECIMAL_CURRENCIES.has(currency.toLowerCase());

/** Minor units per whole unit: 1 for a zero-decimal currency, else 100. */
const minorPerUnit = (currency: string) => (isZeroDecimal(currency) ? 1 : 100);

/** A catalog amount in dollars, in `currency`'s minor units: converted, then rounded to its step. */
export function convertFromBase(dollars: number, currency: Currency): number {
  if (currency === BASE_CURRENCY) return Math.round(dollars * 100);
  const { rate, step } = EXCHANGE_RATES.rates[currency];
  const whole = dollars === 0 ? 0 : Math.max(step, Math.round((dollars * rate) / step) * step);
  return whole * minorPerUnit(currency);
}

/** A catalog plan's price for one interval, in `currency`'s minor units. */
export function priceIn(plan: CatalogPlan, interval: BillingInterval, currency: Currency): number {
  return convertFromBase(plan.price[interval], currency);
}

/**
 * What a plan id costs per interval in `currency`'s minor units: the catalog price converted, times its
 * seats, less its discount (to the minor unit — in USD exactly `planPrice`).
 */
export function planPriceIn(plan: PlanId, currency: Currency): number {
  const base = priceIn(PLANS[plan.product][plan.tier], plan.interval, currency);
  const seated = plan.seats ? Math.round((base * plan.seats) / 5) : base;
  return plan.discount ? Math.round((seated * (100 - plan.discount)) / 100) : seated;
}

/**
 * An amount in minor units for people: 4000 USD → "$40.00", 5800 JPY → "¥5,800" (a zero-decimal
 * currency has no fraction digits; the others always show two, as the plan cards do).
 */
export function formatMoney(amountMinor: number, currency: string, locale = "en-US"): string {
  const code = currency.toUpperCase();
  const digits = isZeroDecimal(code) ? 0 : 2;
  const major = amountMinor / minorPerUnit(code);
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(major);
  } catch {
    return `${major.toFixed(digits)} ${code}`;
  }
}

/** Not in SPEC §8. */
export const CURRENCY_MESSAGES = {
  unsupported: `This currency is not supported. Choose one of ${SUPPORTED_CURRENCIES.join(", ")}.`,
  /** The second provider bills in US dollars only (followed by the plan's price in dollars). */
  paypalUsd: "PayPal charges in US dollars",
} as const;

/** A supported currency code, in any case ("eur" is EUR). */
export const currencySchema = z
  .string()
  .trim()
  .max(3, CURRENCY_MESSAGES.unsupported)
  .transform((code, context) => {
    const currency = supportedCurrency(code);
    if (!currency) context.addIssue({ code: "custom", message: CURRENCY_MESSAGES.unsupported });
    return currency ?? z.NEVER;
  });

/** GET /api/billing/prices. */
export const billingPricesQuerySchema = z.object({ currency: currencySchema.optional() });
export type BillingPricesQuery = z.infer<typeof billingPricesQuerySchema>;

/** How the server chose the currency: asked for, the visitor's country, their browser's region, or none. */
export const CURRENCY_SOURCES = ["query", "country", "language", "default"] as const;
export type CurrencySource = (typeof CURRENCY_SOURCES)[number];

/** GET /api/billing/prices: the visitor's currency and what each plan /upgrade sells costs in it. */
export const billingPricesSchema = z.strictObject({
  currency: z.enum(SUPPORTED_CURRENCIES),
  source: z.enum(CURRENCY_SOURCES),
  /** The country the currency came from (a proxy's geo header or the browser's language region). */
  country: z.string().nullable(),
  currencies: z.array(z.enum(SUPPORTED_CURRENCIES)).readonly(),
  /** The rates table's date (EXCHANGE_RATES). */
  ratesDate: z.string(),
  /** Every card plan of both products and both intervals, with its promo variants, in minor units. */
  prices: z.array(z.strictObject({ planId: z.string(), amount: z.number().int() })),
});
export type BillingPrices = z.infer<typeof billingPricesSchema>;
