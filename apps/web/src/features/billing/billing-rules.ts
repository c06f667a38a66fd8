/**
 * What the billing screens show, as pure functions of the contracts: plan prices in a currency, status
 * and entitlement wording, the promo offers of SPEC §9, and which subscription an upgrade would change.
 */
import {
  type Billing,
  type BillingInterval,
  type BillingSubscription,
  CURRENT_STATUSES,
  type Currency,
  type Discount,
  type Entitlements,
  formatMoney,
  type PlanId,
  PROMO_CODES,
  type Product,
  planPriceIn,
  promoDiscount,
  SHIPPED_FEATURES,
  SUPPORTED_CURRENCIES,
  UNLIMITED,
  upgradeChoices,
} from "@redline/shared";

/** Ours: SPEC §2 names the payment-issue notice, not its words. */
export const PAYMENT_ISSUE_TEXT =
  "There is a problem with your payment. Update your payment details to keep your plan.";

export const INTERVAL_LABELS: Record<BillingInterval, string> = { monthly: "Monthly", yearly: "Yearly" };
export const INTERVAL_UNITS: Record<BillingInterval, string> = { monthly: "month", yearly: "year" };

/** "$40.00", "€34.00", "¥5,800": a catalog plan's price in `currency`, after its discount. */
export function planAmount(plan: PlanId, currency: Currency): string {
  return formatMoney(planPriceIn(plan, currency), currency);
}

/** "$40.00 / month". */
export function planPriceLabel(plan: PlanId, currency: Currency): string {
  return `${planAmount(plan, currency)} / ${INTERVAL_UNITS[plan.interval]}`;
}

const currencyNames = new Intl.DisplayNames("en-US", { type: "currency" });

/** "EUR — Euro": a choice of the currency select. */
export function currencyLabel(currency: Currency): string {
  return `${currency} — ${currencyNames.of(currency) ?? currency}`;
}

/** The supported currencies in the order people look for them: by code. */
export const CURRENCY_CHOICES: readonly Currency[] = [...SUPPORTED_CURRENCIES].sort();

const STATUS_LABELS: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Past due",
  incomplete: "Incomplete",
  unpaid: "Unpaid",
  canceled: "Cancelled",
  incomplete_expired: "Expired",
  paused: "Paused",
};

/** A subscription status in words (SPEC §4 statuses). */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? capitalize(status.replaceAll("_", " "));
}

/** The tag tone of a status: calm when all is well, a warning when the payment needs the customer. */
export function statusTone(status: string): "success" | "info" | "warning" | "danger" | "neutral" {
  if (status === "active") return "success";
  if (status === "trialing") return "info";
  if (status === "past_due" || status === "incomplete") return "warning";
  if (status === "unpaid") return "danger";
  return "neutral";
}

/** An invoice status in words ('paid' → 'Paid', 'uncollectible' → 'Uncollectible'). */
export function invoiceStatusLabel(status: string): string {
  return capitalize(status.replaceAll("_", " "));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** "Dec 24, 2026". */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

function count(value: number, one: string, many: string, unlimited = `Unlimited ${many}`): string {
  if (value === UNLIMITED) return unlimited;
  return `${value} ${value === 1 ? one : many}`;
}

/**
 * The entitlements a plan card lists (SPEC §9): projects, collaborators, pages, video and storage — video only
 * once the product records video comments (`SHIPPED_FEATURES`).
 */
export function entitlementLines(entitlements: Entitlements): string[] {
  const lines = [
    count(entitlements.projects, "project", "projects"),
    count(entitlements.collaborators, "collaborator", "collaborators"),
    count(entitlements.pages, "page per project", "pages per project"),
  ];
  if (SHIPPED_FEATURES.videoComments && entitlements.videoMinutes !== 0)
    lines.push(
      count(
        entitlements.videoMinutes,
        "minute of video comments",
        "minutes of video comments",
        "Unlimited video comments",
      ),
    );
  lines.push(
    entitlements.storageGb === UNLIMITED ? "Unlimited storage" : `${entitlements.storageGb} GB storage`,
  );
  return lines;
}

const GATED_FEATURES = [
  ["branding", "custom branding"],
  ["customDomain", "a custom domain"],
] as const satisfies readonly (readonly [keyof Entitlements, string])[];

/**
 * What `better` gives that `held` does not, in words ("unlimited collaborators", "custom branding"): the
 * allowances a plan card lists and the plan-gated features that set plans apart (SPEC §6, §9).
 */
export function entitlementGains(held: Entitlements, better: Entitlements): string[] {
  const gains: string[] = [];
  const more = (a: number, b: number) => a !== UNLIMITED && (b === UNLIMITED || b > a);
  const lines = entitlementLines(better);
  const keys = ["projects", "collaborators", "pages"] as const;
  keys.forEach((key, index) => {
    if (more(held[key], better[key])) gains.push(lowerFirst(lines[index]!));
  });
  if (SHIPPED_FEATURES.videoComments && more(held.videoMinutes, better.videoMinutes))
    gains.push(
      better.videoMinutes === UNLIMITED
        ? "unlimited video comments"
        : `${better.videoMinutes} minutes of video comments`,
    );
  if (more(held.storageGb, better.storageGb))
    gains.push(better.storageGb === UNLIMITED ? "unlimited storage" : `${better.storageGb} GB storage`);
  for (const [key, words] of GATED_FEATURES) if (better[key] && !held[key]) gains.push(words);
  return gains;
}

/** "a, b and c". */
export function listInWords(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items.at(-1)}` : (items[0] ?? "");
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The card subscription an upgrade in `product` would change instead of starting a checkout: the one the
 * server refuses a second checkout for (409 already-subscribed) — current by SPEC §4, of this product.
 */
export function currentCardSubscription(billing: Billing, product: Product): BillingSubscription | null {
  return (
    billing.subscriptions.find(
      (subscription) =>
        subscription.provider === "card" &&
        subscription.product === product &&
        (CURRENT_STATUSES as readonly string[]).includes(subscription.status),
    ) ?? null
  );
}

/**
 * Whether a payment still needs the customer: a payment issue (SPEC §4), or a subscription whose first
 * payment is not through (incomplete). Back from a checkout, the page then says so — never "Payment
 * successful" beside it.
 */
export function paymentNeedsCustomer(billing: Billing, userHasIssue: boolean): boolean {
  return (
    userHasIssue ||
    billing.paymentIssue ||
    billing.subscriptions.some(
      (subscription) => subscription.paymentIssue || subscription.status === "incomplete",
    )
  );
}

/** The promo code that carries a discount (PROMO_CODES read backwards). */
export function promoCodeFor(discount: Discount): string | null {
  return Object.entries(PROMO_CODES).find(([, value]) => value === discount)?.[0] ?? null;
}

export interface Offer {
  discount: Discount;
  code: string;
  interval: BillingInterval;
  /** The plans it applies to, without their discount (the code brings it). */
  plans: { planId: PlanId; name: string }[];
}

/**
 * SPEC §9 offers, from the promo rule itself (`promoDiscount`): 30 % off yearly Pro, 20 % off yearly
 * Standard, 15 % off monthly plans — largest first.
 */
export function promoOffers(product: Product): Offer[] {
  const offers = new Map<Discount, Offer>();
  for (const interval of ["yearly", "monthly"] as const)
    for (const { plan } of upgradeChoices(product, interval)) {
      const planId: PlanId = {
        product,
        tier: plan.tier as PlanId["tier"],
        interval,
        discount: null,
        seats: null,
      };
      const discount = promoDiscount(planId);
      const code = discount ? promoCodeFor(discount) : null;
      if (!discount || !code) continue;
      const offer = offers.get(discount) ?? { discount, code, interval, plans: [] };
      offer.plans.push({ planId, name: plan.name });
      offers.set(discount, offer);
    }
  return [...offers.values()].sort((a, b) => b.discount - a.discount);
}

/** "30% off yearly Pro", "15% off monthly Standard and Pro". */
export function offerTitle(offer: Offer): string {
  return `${offer.discount}% off ${offer.interval} ${listInWords(offer.plans.map((plan) => plan.name))}`;
}
