import { Navigate, useSearchParams } from "react-router";

/**
 * `/payment-success/{planID}` (SPEC §2) → `/billing?payment_status=success`. Back from the second
 * provider (PayPal adds `subscription_id`), the subscription id goes along for /billing to look up.
 */
export function PaymentSuccessRedirect() {
  const [params] = useSearchParams();
  const next = new URLSearchParams({ payment_status: "success" });
  const subscriptionId = params.get("subscription_id");
  if (params.get("provider") === "paypal" && subscriptionId) next.set("paypal_subscription", subscriptionId);
  return <Navigate to={`/billing?${next}`} replace />;
}
