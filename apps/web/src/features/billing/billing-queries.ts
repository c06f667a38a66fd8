/**
 * Server state of billing, keyed after the API route: ['api', 'billing'] for GET /api/billing. Every
 * write refreshes it and the session user (GET /api/me carries the resolved plans and `paymentIssue`).
 * Messages come from the server's `message`; the snackbars show them.
 */
import {
  BILLING_MESSAGES,
  type Billing,
  type BillingSubscription,
  type CheckoutInput,
  type CheckoutStarted,
  type SubscriptionUpdateInput,
  type UpdateOutcome,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { dismissSnackbar, showSnackbar, snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { ME_KEY } from "../session/use-me.ts";

export const BILLING_KEY = ["api", "billing"] as const;

export function useBilling() {
  return useQuery({
    queryKey: BILLING_KEY,
    queryFn: async ({ signal }) => (await api<{ data: Billing }>("/api/billing", { signal })).data,
  });
}

/** Re-reads billing and the session user (after a payment, or any change to a subscription). */
export function useRefreshBilling() {
  const queryClient = useQueryClient();
  // Billing first: reading it re-reads the provider, which records the subscription the user's plan
  // (in /api/me) comes from — read together, /api/me could answer before a late webhook did.
  return useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: BILLING_KEY });
    await queryClient.invalidateQueries({ queryKey: ME_KEY });
  }, [queryClient]);
}

/** POST /api/billing/checkout → the provider's checkout page to send the browser to. */
export function useCheckout() {
  return useMutation({
    mutationFn: async (input: CheckoutInput) =>
      (await api<{ data: CheckoutStarted }>("/api/billing/checkout", { method: "POST", body: input })).data,
  });
}

/** POST /api/billing/paypal/checkout → the second provider's approval page (no promo codes there). */
export function usePaypalCheckout() {
  return useMutation({
    mutationFn: async (planId: string) =>
      (
        await api<{ data: CheckoutStarted }>("/api/billing/paypal/checkout", {
          method: "POST",
          body: { planId },
        })
      ).data,
  });
}

/**
 * Back from the second provider's approval: the SPEC §7 lookup reads that subscription (and records it,
 * should its webhook not have arrived yet), then billing and the user are read again.
 */
export function usePaypalReturn(subscriptionId: string | null) {
  const refresh = useRefreshBilling();
  useEffect(() => {
    if (!subscriptionId) return;
    void api(`/api/billing/paypal/subscriptions/${encodeURIComponent(subscriptionId)}`)
      .catch(() => undefined)
      .then(refresh);
  }, [subscriptionId, refresh]);
}

type SubscriptionAction = "cancel" | "undo-cancel" | "cancel-pending-update";

const subscriptionPath = (id: string, action: string) =>
  `/api/billing/subscriptions/${encodeURIComponent(id)}/${action}`;

/** Cancel at period end, undo that, or drop a pending update; the server's message is shown. */
export function useSubscriptionAction(action: SubscriptionAction) {
  const queryClient = useQueryClient();
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      api<{ data: BillingSubscription; message?: string }>(subscriptionPath(subscriptionId, action), {
        method: "POST",
      }),
    onMutate: () =>
      // SPEC §8: 'Cancelling subscription update...' while it runs.
      action === "cancel-pending-update"
        ? showSnackbar("info", BILLING_MESSAGES.cancellingUpdate, { durationMs: null })
        : undefined,
    onSuccess: ({ data, message }) => {
      queryClient.setQueryData<Billing>(BILLING_KEY, (billing) =>
        billing
          ? {
              ...billing,
              subscriptions: billing.subscriptions.map((item) => (item.id === data.id ? data : item)),
            }
          : billing,
      );
      if (message) snackbar.success(message);
    },
    onError: (error) =>
      snackbar.error(
        action === "cancel-pending-update" ? BILLING_MESSAGES.cancelUpdateFailed : errorMessage(error),
      ),
    onSettled: (_data, _error, _id, progressId) => {
      if (progressId) dismissSnackbar(progressId);
      return refresh();
    },
  });
}

export interface UpdateResult {
  subscription: BillingSubscription;
  outcome: UpdateOutcome;
}

/** POST /api/billing/subscriptions/:id/update: change the plan of an existing subscription. */
export function useUpdateSubscription() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: ({ subscriptionId, planId }: { subscriptionId: string } & SubscriptionUpdateInput) =>
      api<{ data: UpdateResult; message?: string }>(subscriptionPath(subscriptionId, "update"), {
        method: "POST",
        body: { planId },
      }),
    onSettled: refresh,
  });
}
