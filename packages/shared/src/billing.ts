/**
 * Billing contracts (SPEC §2 billing and upgrade screens, §3 Subscription, §4 subscription rules, §8
 * subscription texts): what the API's /api/billing routes take and return, and the §4 rules both sides
 * read — when a subscription needs the payment notice, and what an update's outcome is. Pure.
 */
import { z } from "zod";
import { currencySchema } from "./currencies.ts";
import { PRODUCTS, type Product } from "./limits.ts";
import {
  type BillingInterval,
  type Discount,
  PLANS,
  type PlanId,
  type PlanTier,
  parsePlanId,
  planIdOf,
  promoDiscount,
  SUBSCRIPTION_STATUSES,
} from "./plans.ts";

/** SPEC §8 subscription texts, verbatim (the last two are ours: §8 has none for them). */
export const BILLING_MESSAGES = {
  undoCancel: "Your subscription will not cancel automatically.",
  cancellingUpdate: "Cancelling subscription update...",
  updateCancelled: "Subscription update cancelled.",
  noActiveSubscriptions: "No active subscriptions on Stripe.",
  cancelUpdateFailed: "Something went wrong.",
  /** Not in SPEC §8. */
  cancelScheduled: "Your subscription will cancel at the end of the billing period.",
  /** Not in SPEC §8. */
  planUpdated: "Your plan has been updated.",
  /** Not in SPEC §8. */
  invalidPromoCode: "This promo code does not apply to this plan.",
  /** Not in SPEC §8. */
  unknownPromoCode: "We don't know this promo code. Check its spelling.",
  /** Not in SPEC §8. */
  paypalCancelled: "Your PayPal subscription is cancelled.",
  /** Not in SPEC §8. */
  paypalApprovalCancelled:
    "You cancelled at PayPal, so nothing was charged. Choose how to pay when you are ready.",
  /** Not in SPEC §8. */
  paymentsUnavailable: "Payments are not configured on this server.",
} as const;

/** SPEC §9 offer bar. */
export const OFFER_BAR = {
  text: "Get upto 30% discount on annual and monthly plans",
  action: "Grab the deal",
  help: "Need help?",
} as const;

/**
 * Promo codes (SPEC §9 gives the discounts, not the codes' names; these are ours): each code applies
 * to the plans whose promo discount it carries.
 */
export const PROMO_CODES: Record<string, Discount> = {
  SAVE30: 30,
  SAVE20: 20,
  SAVE15: 15,
};

/** The plan id a promo code turns `plan` into (its discount variant), or null when it does not apply. */
export function applyPromoCode(plan: PlanId, code: string): PlanId | null {
  const discount = PROMO_CODES[code.trim().toUpperCase()];
  if (!discount || plan.discount !== null) return null;
  return promoDiscount(plan) === discount ? { ...plan, discount } : null;
}

/**
 * Why a promo code cannot be used on `plan`, in words for people — a code that does not exist is told
 * so, a real one meant for other plans is told that — or null when it applies.
 */
export function promoCodeProblem(plan: PlanId, code: string): string | null {
  if (applyPromoCode(plan, code)) return null;
  return PROMO_CODES[code.trim().toUpperCase()] === undefined
    ? BILLING_MESSAGES.unknownPromoCode
    : BILLING_MESSAGES.invalidPromoCode;
}

/** The discount a promo code carries, if it is one of ours (whatever plan it applies to). */
export function promoCodeDiscount(code: string): Discount | null {
  return PROMO_CODES[code.trim().toUpperCase()] ?? null;
}

/** The payment summary's address (SPEC §2 `/upgrade/confirm/{plan}`) for a plan, with the promo code to carry, if any. */
export function confirmPath(planId: string, promo?: string | null): string {
  const code = promo?.trim();
  return `/upgrade/confirm/${encodeURIComponent(planId)}${code ? `?promo=${encodeURIComponent(code)}` : ""}`;
}

/** "Pro (yearly)", "Standard (monthly, 15% off)", "Team (yearly, 10 seats)". */
export function planDisplayName(plan: PlanId): string {
  const details: string[] = [plan.interval];
  if (plan.discount) details.push(`${plan.discount}% off`);
  if (plan.seats) details.push(`${plan.seats} seats`);
  return `${PLANS[plan.product][plan.tier].name} (${details.join(", ")})`;
}

/** The plans `/upgrade` offers for a product and interval, cheapest first. */
export function upgradeChoices(product: Product, interval: BillingInterval) {
  return (["standard", "pro", "team"] as const satisfies readonly Exclude<PlanTier, "free">[]).map(
    (tier) => ({
      planId: planIdOf({ product, tier, interval, discount: null }),
      plan: PLANS[product][tier],
    }),
  );
}

export { parsePlanId };

/** Payment-intent statuses that need the customer (SPEC §4). */
export const PAYMENT_ISSUE_INTENT_STATUSES = ["requires_action", "requires_payment_method"] as const;

/** Statuses (or a pending update) for which payment intents are checked (SPEC §4). */
export function needsPaymentCheck(status: string, hasPendingUpdate: boolean): boolean {
  return hasPendingUpdate || status === "past_due" || status === "incomplete" || status === "unpaid";
}

/** SPEC §4: the payment notice shows when a checked subscription has an intent that needs the customer. */
export function hasPaymentIssue(
  status: string,
  hasPendingUpdate: boolean,
  paymentIntentStatuses: readonly string[],
): boolean {
  return (
    needsPaymentCheck(status, hasPendingUpdate) &&
    paymentIntentStatuses.some((s) => (PAYMENT_ISSUE_INTENT_STATUSES as readonly string[]).includes(s))
  );
}

/** The payment-issue notice shows on every screen but these (SPEC §4). */
export function showsPaymentNotice(pathname: string): boolean {
  return !/^\/(billing|upgrade)(\/|$)/.test(pathname);
}

const paymentIntentSchema = z.strictObject({ id: z.string(), status: z.string() });

export const updateOutcomeSchema = z.discriminatedUnion("result", [
  z.strictObject({ result: z.literal("success") }),
  z.strictObject({ result: z.literal("past_due"), paymentIntents: z.array(paymentIntentSchema) }),
  z.strictObject({ result: z.literal("status"), status: z.string() }),
]);
export type UpdateOutcome = z.infer<typeof updateOutcomeSchema>;

/**
 * SPEC §4, after an update: active or trialing without a pending update is success; past_due or a
 * pending update is past_due (with the payment intents fetched); anything else reports its status.
 */
export function updateOutcome(
  status: string,
  hasPendingUpdate: boolean,
  paymentIntents: { id: string; status: string }[],
): UpdateOutcome {
  if ((status === "active" || status === "trialing") && !hasPendingUpdate) return { result: "success" };
  if (status === "past_due" || hasPendingUpdate) return { result: "past_due", paymentIntents };
  return { result: "status", status };
}

const planIdInput = z.string().trim().min(1).max(64);

export const checkoutInputSchema = z.object({
  planId: planIdInput,
  promoCode: z.string().trim().max(40).optional(),
  /** The currency to pay in (currencies.ts); USD when left out. */
  currency: currencySchema.optional(),
});
export type CheckoutInput = z.infer<typeof checkoutInputSchema>;

export const subscriptionUpdateSchema = z.object({ planId: planIdInput });
export type SubscriptionUpdateInput = z.infer<typeof subscriptionUpdateSchema>;

export const subscriptionAbilitiesSchema = z.strictObject({
  canCancel: z.boolean(),
  canUndoCancel: z.boolean(),
  canUpdate: z.boolean(),
  canCancelPendingUpdate: z.boolean(),
});
export type SubscriptionAbilities = z.infer<typeof subscriptionAbilitiesSchema>;

const paymentProviderSchema = z.enum(["card", "second"]);

/** A subscription as `/billing` shows it. */
export const billingSubscriptionSchema = z.strictObject({
  id: z.string(),
  provider: paymentProviderSchema,
  planId: z.string(),
  planName: z.string(),
  product: z.enum(PRODUCTS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  cancelAtPeriodEnd: z.boolean(),
  /** Next payment (or the end of service when cancelling), ISO. */
  currentPeriodEnd: z.string().nullable(),
  pendingUpdate: z
    .strictObject({ planId: z.string(), planName: z.string(), expiresAt: z.string().nullable() })
    .nullable(),
  /** SPEC §4: an intent needs the customer (requires_action or requires_payment_method). */
  paymentIssue: z.boolean(),
  /** Per interval, in the currency's minor unit (whole units for zero-decimal currencies). */
  amount: z.number().int(),
  currency: z.string(),
  abilities: subscriptionAbilitiesSchema,
});
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>;

/** An invoice of the card provider, or a payment (transaction) of a PayPal subscription. */
export const billingInvoiceSchema = z.strictObject({
  id: z.string(),
  provider: paymentProviderSchema,
  number: z.string().nullable(),
  status: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
  /** The provider's page to view or pay it. */
  url: z.string().nullable(),
});
export type BillingInvoice = z.infer<typeof billingInvoiceSchema>;

export const paymentMethodSummarySchema = z.strictObject({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type PaymentMethodSummary = z.infer<typeof paymentMethodSummarySchema>;

/** GET /api/billing. */
export const billingSchema = z.strictObject({
  subscriptions: z.array(billingSubscriptionSchema),
  invoices: z.array(billingInvoiceSchema),
  paymentMethod: paymentMethodSummarySchema.nullable(),
  /** The PayPal account paying for a PayPal subscription, when there is one. */
  paypal: z.strictObject({ email: z.string().nullable() }).nullable(),
  paymentIssue: z.boolean(),
  /** Where the customer completes a payment that needs them (the open invoice's page), if any. */
  payUrl: z.string().nullable(),
  /** Whether this server can take payments (a provider configured, or the embedded one). */
  canCheckout: z.boolean(),
});
export type Billing = z.infer<typeof billingSchema>;

/** POST /api/billing/checkout: where the browser goes to pay. */
export const checkoutStartedSchema = z.strictObject({ url: z.string() });
export type CheckoutStarted = z.infer<typeof checkoutStartedSchema>;

/** POST …/subscriptions/{id}/update: the subscription as it is now, and how the change went (SPEC §4). */
export const subscriptionUpdatedSchema = z.strictObject({
  subscription: billingSubscriptionSchema,
  outcome: updateOutcomeSchema,
});

/** What a payment provider's webhook is answered: received, and whether it was seen before. */
export const webhookReceivedSchema = z.strictObject({
  received: z.literal(true),
  duplicate: z.literal(true).optional(),
});

/** POST /api/me/privilege: the privilege link's plan (its path) and token (its query), after sign-up. */
export const privilegeRedeemSchema = z.object({
  plan: z.enum(["team", "pro", "standard"]),
  token: z.string().trim().min(1).max(200),
});
export type PrivilegeRedeemInput = z.infer<typeof privilegeRedeemSchema>;

/** GET /api/privilege-links/{plan}?token=: whether the link can still be taken, else why not. */
export const privilegeLinkStateSchema = z.strictObject({
  usable: z.boolean(),
  message: z.string().nullable(),
});
export type PrivilegeLinkState = z.infer<typeof privilegeLinkStateSchema>;

/** POST /api/me/lifetime-deal: a lifetime-deal code (tiers 1–3). */
export const lifetimeRedeemSchema = z.object({ code: z.string().trim().min(1).max(64) });
export type LifetimeRedeemInput = z.infer<typeof lifetimeRedeemSchema>;

/** Not in SPEC §8. */
export const GRANT_MESSAGES = {
  privilegeGranted: "Your plan has been activated.",
  lifetimeRedeemed: "Your lifetime deal is active.",
  partnerRedeemed: "Your partner plan is active.",
} as const;

/** SPEC §3 Country entry (GET /api/countries). */
export const countryEntrySchema = z.strictObject({
  countryCode: z.string(),
  countryName: z.string(),
  currencyCode: z.string(),
});
export type CountryEntry = z.infer<typeof countryEntrySchema>;
