/** `/billing` (SPEC §2, tab Billing of Account Settings); `?payment_status=success` after a payment. */
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { SettingsHeader } from "../components/settings-header.tsx";
import { BillingLoadError } from "../features/billing/billing-load-error.tsx";
import { BillingOverview, PaymentSuccessBanner } from "../features/billing/billing-overview.tsx";
import { useBilling, usePaypalReturn, useRefreshBilling } from "../features/billing/billing-queries.ts";
import { paymentNeedsCustomer } from "../features/billing/billing-rules.ts";
import { useMe } from "../features/session/use-me.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { useProduct } from "../lib/use-product.ts";
import "../features/billing/billing.css";

export function BillingPage() {
  useDocumentTitle("Billing");
  const product = useProduct();
  const { data: me } = useMe();
  const billing = useBilling();
  const refresh = useRefreshBilling();
  const [params, setParams] = useSearchParams();
  const isPaymentSuccess = params.get("payment_status") === "success";
  usePaypalReturn(isPaymentSuccess ? params.get("paypal_subscription") : null);

  // Back from the provider: what was just paid for is read again (subscription, plan, payment issue).
  useEffect(() => {
    if (isPaymentSuccess) void refresh();
  }, [isPaymentSuccess, refresh]);

  const handleDismissSuccess = () => {
    const next = new URLSearchParams(params);
    next.delete("payment_status");
    setParams(next, { replace: true });
  };

  return (
    <main className="content-page billing-page">
      <SettingsHeader />
      {/* Said once billing is read: a payment that needs more from the customer is told by its alert. */}
      {isPaymentSuccess && billing.data && me && !paymentNeedsCustomer(billing.data, me.paymentIssue) ? (
        <PaymentSuccessBanner onDismiss={handleDismissSuccess} />
      ) : null}
      {billing.isPending || !me ? (
        <LoadingView />
      ) : billing.isError ? (
        <BillingLoadError onRetry={() => billing.refetch()} isRetrying={billing.isFetching} />
      ) : (
        <BillingOverview billing={billing.data} plan={me.plans[product]} paymentIssue={me.paymentIssue} />
      )}
    </main>
  );
}
