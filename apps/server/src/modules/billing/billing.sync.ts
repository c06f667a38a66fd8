/**
 * Subscriptions as the payment provider has them. The provider is the source of truth: a webhook, a
 * visit to /billing or an action re-reads the subscription and `recordSubscription` overwrites our row
 * with it, so an event delivered twice or out of order settles on the provider's state. The user row's
 * `held_subscriptions` (what the plan checks read, with no extra query) is rewritten in the same
 * transaction, under a lock on the user row, from every subscription row of that user.
 *
 * No provider call is made inside a database transaction: with the embedded provider the provider is
 * this same process, and PGlite runs one transaction at a time.
 */
import {
  CURRENT_STATUSES,
  type HeldSubscription,
  hasPaymentIssue,
  needsPaymentCheck,
  parsePlanId,
} from "@redline/shared";
import { eq, gte, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Database } from "../../db/index.ts";
import { type SubscriptionRow, subscriptions, users } from "../../db/schema/index.ts";

/**
 * Prices carry the plan id in their lookup key: `redline_<planId>_<currency>`, and for the catalog's
 * multi-currency prices the rates table they were made from (`redline_pro-yearly_usd_fx20250630`).
 */
export const priceLookupKey = (planId: string, currency: string, rates?: string) =>
  `redline_${planId}_${currency.toLowerCase()}${rates ? `_${rates}` : ""}`;

export function planIdOfPrice(price: Stripe.Price | string | null | undefined): string | null {
  if (!price || typeof price === "string") return null;
  const match = /^redline_([^_]+)_[a-z]{3}(?:_[a-z0-9]+)?$/.exec(price.lookup_key ?? "");
  const planId = match?.[1] ?? price.metadata?.planID ?? null;
  return planId && parsePlanId(planId) ? planId : null;
}

/** A provider reference that may come expanded (an object) or as its id. */
export const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** What we keep of a provider subscription. */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string | null;
  uid: string | null;
  planId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  pendingPlanId: string | null;
  pendingExpiresAt: Date | null;
  paymentIssue: boolean;
  amount: number;
  currency: string;
}

/**
 * What one unit of `price` costs in `currency` (minor units): its default amount, or one of its
 * currency options — which Stripe sends only when asked for (an "includable" field; nested under a
 * list of subscriptions it would exceed the four levels `expand` allows), so the price is read again.
 */
export async function unitAmountIn(
  stripe: Stripe,
  price: Stripe.Price | undefined,
  currency: string,
): Promise<number> {
  if (!price) return 0;
  if (price.currency === currency) return price.unit_amount ?? 0;
  const options =
    price.currency_options ??
    (await stripe.prices.retrieve(price.id, { expand: ["currency_options"] })).currency_options;
  const option = options?.[currency];
  if (option?.unit_amount == null)
    throw new Error(`price ${price.id} has no amount in ${currency} (subscription in that currency)`);
  return option.unit_amount;
}

/** Reads a subscription (and, where SPEC §4 asks, its customer's payment intents) from the provider. */
export async function fetchSubscription(stripe: Stripe, id: string): Promise<SubscriptionSnapshot | null> {
  let subscription: Stripe.Subscription;
  try {
    subscription = await stripe.subscriptions.retrieve(id);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null;
    throw error;
  }
  return snapshotOf(stripe, subscription);
}

export async function snapshotOf(
  stripe: Stripe,
  subscription: Stripe.Subscription,
): Promise<SubscriptionSnapshot | null> {
  const item = subscription.items.data[0];
  const planId = planIdOfPrice(item?.price) ?? subscription.metadata?.planID ?? null;
  if (!planId || !parsePlanId(planId)) return null;
  const pendingItem = subscription.pending_update?.subscription_items?.[0];
  let pendingPrice = pendingItem?.price ?? null;
  if (pendingItem && typeof pendingPrice === "string")
    pendingPrice = await stripe.prices.retrieve(pendingPrice);
  const pendingPlanId = pendingItem ? (planIdOfPrice(pendingPrice) ?? "unknown") : null;
  const customerId = idOf(subscription.customer);
  let paymentIssue = false;
  if (customerId && needsPaymentCheck(subscription.status, pendingPlanId !== null)) {
    const intents = await stripe.paymentIntents.list({ customer: customerId, limit: 10 });
    paymentIssue = hasPaymentIssue(
      subscription.status,
      pendingPlanId !== null,
      intents.data.map((intent) => intent.status),
    );
  }
  return {
    id: subscription.id,
    customerId,
    uid: subscription.metadata?.uid ?? null,
    planId,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    pendingPlanId,
    pendingExpiresAt: subscription.pending_update
      ? new Date(subscription.pending_update.expires_at * 1000)
      : null,
    paymentIssue,
    // Charged in the subscription's currency, which may be one of its price's currency options.
    amount: (await unitAmountIn(stripe, item?.price, subscription.currency)) * (item?.quantity ?? 1),
    currency: subscription.currency,
  };
}

/** Statuses kept on the user row: those that hold a plan, and unpaid (it may still need the notice). */
const KEPT = new Set<string>([...CURRENT_STATUSES, "unpaid"]);
/**
 * The second provider's subscriptions count as active whatever their state (SPEC §4) once approved:
 * active and suspended (past_due) ones are kept; one awaiting approval (incomplete) was never paid,
 * and a cancelled or expired one (canceled) holds nothing.
 */
const KEPT_SECOND = new Set<string>(["active", "past_due"]);

export function heldFrom(rows: Pick<SubscriptionRow, "planId" | "status" | "provider" | "paymentIssue">[]) {
  return rows
    .filter((row) => (row.provider === "second" ? KEPT_SECOND : KEPT).has(row.status))
    .map(
      (row): HeldSubscription => ({
        planId: row.planId,
        status: row.status as HeldSubscription["status"],
        provider: row.provider,
        ...(row.paymentIssue && { paymentIssue: true }),
      }),
    );
}

/**
 * Writes what the provider said, read at `readAt`. A row read later is never overwritten by an older
 * read (two syncs racing). Returns the user it belongs to, or null when no user claims it. A card
 * subscription belongs to the user of its customer (else its `uid`); a second-provider one to its `uid`
 * (PayPal's custom_id), and it becomes the user's `paypal_subscription_id` once it holds a plan (or
 * while they have none).
 */
export async function recordSubscription(
  db: Database,
  snapshot: SubscriptionSnapshot,
  readAt: Date,
  provider: SubscriptionRow["provider"] = "card",
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [owner] =
      provider === "card" && snapshot.customerId
        ? await tx
            .select({ id: users.id })
            .from(users)
            .where(eq(users.stripeCustomerId, snapshot.customerId))
            .limit(1)
        : [];
    const userId = owner?.id ?? snapshot.uid;
    if (!userId) return null;
    const [locked] = await tx
      .select({ id: users.id, paypalSubscriptionId: users.paypalSubscriptionId })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!locked) return null;
    const values = {
      userId,
      provider,
      customerId: snapshot.customerId,
      planId: snapshot.planId,
      status: snapshot.status,
      cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
      currentPeriodEnd: snapshot.currentPeriodEnd,
      pendingPlanId: snapshot.pendingPlanId,
      pendingExpiresAt: snapshot.pendingExpiresAt,
      paymentIssue: snapshot.paymentIssue,
      amount: snapshot.amount,
      currency: snapshot.currency,
      updatedAt: readAt,
    };
    await tx
      .insert(subscriptions)
      .values({ id: snapshot.id, ...values })
      .onConflictDoUpdate({
        target: subscriptions.id,
        set: values,
        setWhere: gte(sql`excluded.updated_at`, subscriptions.updatedAt),
      });
    const rows = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    const recorded = rows.find((row) => row.id === snapshot.id && row.userId === userId);
    const isPointer =
      provider === "second" &&
      recorded !== undefined &&
      (!locked.paypalSubscriptionId || KEPT_SECOND.has(recorded.status));
    await tx
      .update(users)
      .set({
        heldSubscriptions: heldFrom(rows),
        ...(isPointer && { paypalSubscriptionId: snapshot.id }),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    return userId;
  });
}

/** Re-reads one subscription from the provider and records it. */
export async function syncSubscription(db: Database, stripe: Stripe, id: string): Promise<string | null> {
  const readAt = new Date();
  const snapshot = await fetchSubscription(stripe, id);
  if (!snapshot) return null;
  return recordSubscription(db, snapshot, readAt);
}

/** Re-reads every subscription of a customer (the /billing visit, a payment intent's event). */
export async function syncCustomer(db: Database, stripe: Stripe, customerId: string): Promise<void> {
  const readAt = new Date();
  const list = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 20 });
  for (const subscription of list.data) {
    const snapshot = await snapshotOf(stripe, subscription);
    if (snapshot) await recordSubscription(db, snapshot, readAt);
  }
}

/** The user's subscription rows, newest first. */
export function subscriptionsOf(db: Database, userId: string) {
  return db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(sql`${subscriptions.createdAt} desc`);
}

export async function loadSubscription(db: Database, id: string) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row ?? null;
}
