/**
 * The vocabulary every payment integration speaks to modules/billing: what a provider reports of one
 * subscription, in our words. integrations/stripe and integrations/paypal each turn their provider's
 * objects into it; modules/billing records it (billing.sync.ts) without knowing which provider spoke.
 */
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
