import { type BillingSubscription, parsePlanId, planDisplayName } from "@redline/shared";
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
