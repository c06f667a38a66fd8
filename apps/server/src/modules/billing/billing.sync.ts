/**
 * Subscriptions as the payment provider has them. The provider is the source of truth: a webhook, a
 * visit to /billing or an action re-reads the subscription (through integrations/stripe or
 * integrations/paypal, which speak SubscriptionSnapshot) and `recordSubscription` overwrites our row
 * with it, so an event delivered twice or out of order settles on the provider's state. The user row's
 * `held_subscriptions` (what the plan checks read, with no extra query) is rewritten in the same
 * transaction, under a lock on the user row, from every subscription row of that user.
 *
 * No provider call is made inside a database transaction: with the embedded provider the provider is
 * this same process, and PGlite runs one transaction at a time.
 */
import { CURRENT_STATUSES, type HeldSubscription } from "@redline/shared";
import { and, eq, gte, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type SubscriptionRow, subscriptions, type UserRow, users } from "../../db/schema/index.ts";
import type { SubscriptionSnapshot } from "../../integrations/payments.ts";
import type { StripePayments } from "../../integrations/stripe/index.ts";
import { record } from "../../lib/ledger.ts";

/** Statuses kept on the user row: those that hold a plan, and unpaid (it may still need the notice). */
const KEPT = new Set<string>([...CURRENT_STATUSES, "unpaid"]);
/**
 * The second provider's subscriptions count as active whatever their state (SPEC §4) once approved:
 * active and suspended (past_due) ones are kept; one awaiting approval (incomplete) was never paid,
 * and a cancelled or expired one (canceled) holds nothing.
 */
const KEPT_SECOND = new Set<string>(["active", "past_due"]);
/** A card subscription that holds its plan (paid, on trial, or a payment being retried). */
const LIVE_CARD = new Set<string>(["active", "trialing", "past_due"]);

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
    const [earlier] = await tx
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.id, snapshot.id));
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
    // The first time a subscription holds a plan, an upgrade completed (SPEC §7 UpgradeCompleted).
    const holds = (status: string | undefined) =>
      status !== undefined && (provider === "second" ? KEPT_SECOND : LIVE_CARD).has(status);
    if (holds(recorded?.status) && !holds(earlier?.status))
      await record(tx, { type: "subscription.started", userId, planId: snapshot.planId, provider });
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
export async function syncSubscription(
  db: Database,
  stripe: StripePayments,
  id: string,
): Promise<string | null> {
  const readAt = new Date();
  const snapshot = await stripe.fetchSubscription(id);
  if (!snapshot) return null;
  return recordSubscription(db, snapshot, readAt);
}

/** Re-reads every subscription of a customer (the /billing visit, a payment intent's event). */
export async function syncCustomer(db: Database, stripe: StripePayments, customerId: string): Promise<void> {
  const readAt = new Date();
  for (const snapshot of await stripe.customerSubscriptions(customerId))
    await recordSubscription(db, snapshot, readAt);
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

/** The user's customer at the card provider, created once (a racing twin's customer is left unused). */
export async function customerOf(db: Database, stripe: StripePayments, user: UserRow): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customerId = await stripe.createCustomer({ email: user.email, name: user.displayName, uid: user.id });
  const [claimed] = await db
    .update(users)
    .set({ stripeCustomerId: customerId, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)))
    .returning({ id: users.stripeCustomerId });
  if (claimed?.id) return claimed.id;
  const [row] = await db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, user.id));
  return row!.id!;
}
