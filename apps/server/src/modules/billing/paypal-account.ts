/**
 * What `/billing` shows and does for a user's PayPal subscriptions (ADR 0010): the PayPal account that pays
 * (the subscriber's e-mail, as PayPal has it) and each subscription's transactions as payments, read from
 * PayPal on each visit; and cancelling, which is PayPal's REST cancel — PayPal stops billing at once — then
 * the subscription read back and recorded like any other change.
 */
import type { BillingInvoice } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { SubscriptionRow } from "../../db/schema/index.ts";
import { type PaypalClient, PaypalError, presentPaypalTransaction } from "../../integrations/paypal/index.ts";
import { syncPaypalSubscription } from "./paypal.sync.ts";

export interface PaypalBilling {
  paypal: { email: string | null } | null;
  payments: BillingInvoice[];
}

/**
 * The PayPal account and payments behind `rows` (the user's subscriptions; only PayPal's are read). A
 * subscription PayPal no longer knows adds nothing; a PayPal outage is left to the caller (the page's error
 * state), as the card provider's is.
 */
export async function paypalBillingOf(
  paypal: PaypalClient | null,
  rows: readonly SubscriptionRow[],
  now = new Date(),
): Promise<PaypalBilling> {
  const own = rows.filter((row) => row.provider === "second" && row.status !== "incomplete");
  if (!paypal || own.length === 0) return { paypal: null, payments: [] };
  const read = await Promise.all(
    own.map(async (row) => {
      const subscription = await paypal.getSubscription(row.id);
      if (!subscription) return null;
      const transactions = await paypal.listTransactions(
        subscription.id,
        new Date(subscription.create_time),
        now,
      );
      return { subscription, transactions };
    }),
  );
  const found = read.filter((entry) => entry !== null);
  // The account of the subscription PayPal bills now, else of the latest one.
  const billed =
    found.find(
      ({ subscription }) => subscription.status === "ACTIVE" || subscription.status === "SUSPENDED",
    ) ?? found[0];
  const payments = found
    .flatMap(({ transactions }) => transactions.map(presentPaypalTransaction))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    paypal: billed ? { email: billed.subscription.subscriber?.email_address ?? null } : null,
    payments,
  };
}

/** Cancels at PayPal (billing stops now) and records what PayPal then has. */
export async function cancelPaypalSubscription(
  db: Database,
  paypal: PaypalClient,
  id: string,
): Promise<void> {
  try {
    await paypal.cancelSubscription(id, "Cancelled by the customer in Redline.");
  } catch (error) {
    // Already cancelled at PayPal (by the customer there): recording PayPal's state below is all there is to do.
    if (!(error instanceof PaypalError && error.status === 422)) throw error;
  }
  await syncPaypalSubscription(db, paypal, id);
}
