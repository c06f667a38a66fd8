/**
 * Stripe ids, times and lists, the test cards, and the catalogue's objects (customers, products,
 * prices, payment methods) with Stripe's defaults for everything the app does not set.
 */
import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import type {
  ApiList,
  CustomerObject,
  PaymentMethodObject,
  PriceObject,
  ProductObject,
} from "./stripe-types.ts";

export type * from "./stripe-types.ts";

export const API_VERSION = "2026-10-28.endive";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A Stripe-style id: `cus_` and 24 alphanumerics. */
export function newId(prefix: string): string {
  const bytes = randomBytes(24);
  let id = "";
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

/** Unix seconds, Stripe's timestamps. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The end of one billing interval after `start` (calendar months, as Stripe counts them). */
export function addInterval(start: number, interval: Stripe.Price.Recurring.Interval, count = 1): number {
  const date = new Date(start * 1000);
  if (interval === "year") date.setUTCFullYear(date.getUTCFullYear() + count);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + count);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7 * count);
  else date.setUTCDate(date.getUTCDate() + count);
  return Math.floor(date.getTime() / 1000);
}

export function listOf<T>(data: T[], url: string, hasMore = false): ApiList<T> {
  return { object: "list", data, has_more: hasMore, url };
}

/** The card numbers of Stripe's test cards, and what each does when charged. */
export type CardBehavior = "succeed" | "decline" | "requires_action";
export const CARD_LAST4: Record<CardBehavior, string> = {
  succeed: "4242",
  decline: "0002",
  requires_action: "3184",
};

export function behaviorOfCard(last4: string | undefined): CardBehavior {
  if (last4 === CARD_LAST4.decline) return "decline";
  if (last4 === CARD_LAST4.requires_action) return "requires_action";
  return "succeed";
}

export function paymentMethodObject(
  customer: Pick<CustomerObject, "id" | "email" | "name">,
  behavior: CardBehavior,
): PaymentMethodObject {
  return {
    id: newId("pm"),
    object: "payment_method",
    billing_details: {
      address: null,
      email: customer.email,
      name: customer.name ?? null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: "visa",
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: "visa",
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 4,
      funding: "credit",
      generated_from: null,
      last4: CARD_LAST4[behavior],
      networks: { available: ["visa"], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(),
    customer: customer.id,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

type Metadata = Record<string, string>;

export function customerObject(input: {
  email?: string;
  name?: string;
  metadata?: Metadata;
}): CustomerObject {
  return {
    id: newId("cus"),
    object: "customer",
    balance: 0,
    created: nowSeconds(),
    default_source: null,
    delinquent: false,
    description: null,
    email: input.email ?? null,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: input.metadata ?? {},
    name: input.name ?? null,
    phone: null,
    shipping: null,
  };
}

export function productObject(name: string): ProductObject {
  const created = nowSeconds();
  return {
    id: newId("prod"),
    object: "product",
    active: true,
    created,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name,
    package_dimensions: null,
    shippable: null,
    type: "service",
    updated: created,
    url: null,
  };
}

export function priceObject(input: {
  currency: string;
  unitAmount: number;
  /** Amounts in other currencies, by lower-case code. */
  currencyOptions?: Record<string, number>;
  interval: "month" | "year";
  product: string;
  lookupKey?: string;
  metadata?: Metadata;
}): PriceObject {
  return {
    id: newId("price"),
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: nowSeconds(),
    currency: input.currency.toLowerCase(),
    custom_unit_amount: null,
    livemode: false,
    lookup_key: input.lookupKey ?? null,
    metadata: input.metadata ?? {},
    nickname: null,
    product: input.product,
    recurring: {
      interval: input.interval,
      interval_count: 1,
      meter: null,
      trial_period_days: null,
      usage_type: "licensed",
    },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: input.unitAmount,
    unit_amount_decimal: String(input.unitAmount),
    ...(input.currencyOptions && {
      _currency_options: Object.fromEntries(
        Object.entries(input.currencyOptions).map(([code, amount]) => [code, { unit_amount: amount }]),
      ),
    }),
  };
}

/** What one unit of `price` costs in `currency` (its default or a currency option), or null if nothing. */
export function unitAmountIn(price: PriceObject, currency: string): number | null {
  const code = currency.toLowerCase();
  if (code === price.currency) return price.unit_amount ?? 0;
  return price._currency_options?.[code]?.unit_amount ?? null;
}

/** A price's `currency_options` as Stripe shows them when expanded: every currency, the default too. */
export function currencyOptionsOf(
  price: PriceObject,
): Record<
  string,
  Omit<Stripe.Price.CurrencyOptions, "unit_amount_decimal"> & { unit_amount_decimal: string }
> {
  const amounts: [string, number][] = [
    [price.currency, price.unit_amount ?? 0],
    ...Object.entries(price._currency_options ?? {}).map(
      ([code, { unit_amount }]) => [code, unit_amount] as [string, number],
    ),
  ];
  return Object.fromEntries(
    amounts.map(([code, amount]) => [
      code,
      {
        custom_unit_amount: null,
        tax_behavior: price.tax_behavior ?? "unspecified",
        unit_amount: amount,
        unit_amount_decimal: String(amount),
      },
    ]),
  );
}

/** Metadata after an update: keys given are set, "" removes one, `metadata=""` removes all. */
/** A metadata parameter: keys to set ("" removes one), or "" to remove all. */
export type MetadataUpdate = Record<string, string> | "";

export function mergeMetadata(
  current: Record<string, string>,
  update: MetadataUpdate | undefined,
): Record<string, string> {
  if (update === undefined) return current;
  if (update === "") return {};
  const merged = { ...current, ...update };
  for (const [key, value] of Object.entries(update)) if (value === "") delete merged[key];
  return merged;
}
