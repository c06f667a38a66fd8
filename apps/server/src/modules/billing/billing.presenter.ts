import {
  type BillingInvoice,
  type BillingSubscription,
  type PaymentMethodSummary,
  parsePlanId,
  planDisplayName,
  toMinorUnits,
} from "@redline/shared";
import type { PaypalTransaction } from "@redline/shared/paypal";
import type Stripe from "stripe";
import type { SubscriptionRow } from "../../db/schema/index.ts";
import { subscriptionAbilities } from "./billing.policy.ts";

const nameOf = (planId: string) => {
  const plan = parsePlanId(planId);
  return plan ? planDisplayName(plan) : planId;
};

export function presentSubscription(row: SubscriptionRow, readerId: string): BillingSubscription {
  const plan = parsePlanId(row.planId);
  return {
    id: row.id,
    provider: row.provider,
    planId: row.planId,
    planName: nameOf(row.planId),
    product: plan?.product ?? "web",
    status: row.status as BillingSubscription["status"],
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    pendingUpdate: row.pendingPlanId
      ? {
          planId: row.pendingPlanId,
          planName: nameOf(row.pendingPlanId),
          expiresAt: row.pendingExpiresAt?.toISOString() ?? null,
        }
      : null,
    paymentIssue: row.paymentIssue,
    amount: row.amount,
    currency: row.currency,
    abilities: subscriptionAbilities(readerId, row),
  };
}

export function presentInvoice(invoice: Stripe.Invoice): BillingInvoice {
  return {
    id: invoice.id ?? "",
    provider: "card",
    number: invoice.number ?? null,
    status: invoice.status ?? "draft",
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    createdAt: new Date(invoice.created * 1000).toISOString(),
    url: invoice.hosted_invoice_url ?? null,
  };
}

export function presentPaymentMethod(
  method: string | Stripe.PaymentMethod | null | undefined,
): PaymentMethodSummary | null {
  if (!method || typeof method === "string" || !method.card) return null;
  return {
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
}

/** A PayPal subscription's transaction as a payment on /billing (in its own currency; PayPal has no page). */
export function presentPaypalTransaction(transaction: PaypalTransaction): BillingInvoice {
  const { value, currency_code: currency } = transaction.amount_with_breakdown.gross_amount;
  const amount = toMinorUnits(Number(value), currency);
  return {
    id: transaction.id,
    provider: "second",
    number: null,
    status: transaction.status.toLowerCase(),
    amountDue: amount,
    amountPaid: transaction.status === "COMPLETED" ? amount : 0,
    currency: currency.toLowerCase(),
    createdAt: new Date(transaction.time).toISOString(),
    url: null,
  };
}
