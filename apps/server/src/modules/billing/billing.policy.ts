/**
 * Subscriptions belong to the user who pays for them: only they see one or act on it. Beyond that,
 * what may be done follows the subscription's state (SPEC §4): a current card subscription may be
 * cancelled at period end, a scheduled cancel undone while it is still active, the plan changed when
 * nothing is pending, and a pending update cancelled. A PayPal (second provider) subscription that PayPal
 * bills — active or suspended — may be cancelled, which PayPal does at once; nothing else is done to it
 * here. Another user's subscription answers 404, as if it did not exist.
 */
import type { SubscriptionAbilities } from "@redline/shared";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";

export type SubscriptionAction =
  | "subscriptions.read"
  | "subscriptions.cancel"
  | "subscriptions.undoCancel"
  | "subscriptions.update"
  | "subscriptions.cancelPendingUpdate";

export interface SubscriptionTarget {
  userId: string;
  provider: "card" | "second";
  status: string;
  cancelAtPeriodEnd: boolean;
  pendingPlanId: string | null;
}

const LIVE = new Set(["active", "trialing", "past_due"]);
/** PayPal's ACTIVE and SUSPENDED, in our words (paypal.sync.ts). */
const BILLED_BY_PAYPAL = new Set(["active", "past_due"]);
const isPayer = (userId: string | null, s: SubscriptionTarget) => userId !== null && userId === s.userId;
const isCard = (s: SubscriptionTarget) => s.provider === "card";

export const SUBSCRIPTION_POLICY: Record<
  SubscriptionAction,
  (userId: string | null, subscription: SubscriptionTarget) => boolean
> = {
  "subscriptions.read": isPayer,
  "subscriptions.cancel": (u, s) =>
    isPayer(u, s) &&
    (isCard(s) ? LIVE.has(s.status) && !s.cancelAtPeriodEnd : BILLED_BY_PAYPAL.has(s.status)),
  "subscriptions.undoCancel": (u, s) =>
    isPayer(u, s) && isCard(s) && s.cancelAtPeriodEnd && (s.status === "active" || s.status === "trialing"),
  "subscriptions.update": (u, s) =>
    isPayer(u, s) && isCard(s) && LIVE.has(s.status) && !s.cancelAtPeriodEnd && s.pendingPlanId === null,
  "subscriptions.cancelPendingUpdate": (u, s) => isPayer(u, s) && isCard(s) && s.pendingPlanId !== null,
};

export function canSubscription(
  userId: string | null,
  action: SubscriptionAction,
  subscription: SubscriptionTarget,
): boolean {
  return SUBSCRIPTION_POLICY[action](userId, subscription);
}

/** 404 for someone else's subscription, 409 when its state does not allow the action. */
export function authorizeSubscription(
  userId: string,
  action: SubscriptionAction,
  subscription: SubscriptionTarget,
): void {
  if (!canSubscription(userId, "subscriptions.read", subscription)) throw new NotFoundError();
  if (!canSubscription(userId, action, subscription))
    throw new ConflictError("This subscription cannot do that in its current state.", "subscription-state");
}

export function subscriptionAbilities(
  userId: string,
  subscription: SubscriptionTarget,
): SubscriptionAbilities {
  return {
    canCancel: canSubscription(userId, "subscriptions.cancel", subscription),
    canUndoCancel: canSubscription(userId, "subscriptions.undoCancel", subscription),
    canUpdate: canSubscription(userId, "subscriptions.update", subscription),
    canCancelPendingUpdate: canSubscription(userId, "subscriptions.cancelPendingUpdate", subscription),
  };
}
