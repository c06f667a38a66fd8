/** `/upgrade/confirm/{plan}` (SPEC §2, title 'Payment summary'); an unknown plan id is not found. */
import { BILLING_MESSAGES, confirmPath, type PlanId, parsePlanId, planIdOf } from "@redline/shared";
import { ArrowLeft } from "lucide-react";
import { Link, Navigate, useParams, useSearchParams } from "react-router";
import { promoCodeFor } from "../features/billing/billing-rules.ts";
import { PaymentSummary } from "../features/billing/payment-summary.tsx";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { NotFoundPage } from "./not-found-page.tsx";
import "../features/billing/billing.css";
import "../features/billing/plans.css";

export function PaymentSummaryPage() {
  const { plan: planParam = "" } = useParams();
  const [params] = useSearchParams();
  const plan = parsePlanId(planParam);
  if (!plan) return <NotFoundPage />;
  // A discount variant in the address is the base plan with its promo code (the code brings the discount).
  if (plan.discount !== null)
    return (
      <Navigate
        to={confirmPath(planIdOf({ ...plan, discount: null }), promoCodeFor(plan.discount))}
        replace
      />
    );
  return (
    <Summary
      plan={plan}
      promo={params.get("promo") ?? ""}
      isPaypalCancelled={params.get("paypal") === "cancelled"}
    />
  );
}

function Summary({
  plan,
  promo,
  isPaypalCancelled,
}: {
  plan: PlanId;
  promo: string;
  /** Back from PayPal's approval page by its Cancel (the checkout's cancel_url says so). */
  isPaypalCancelled: boolean;
}) {
  useDocumentTitle("Payment summary");
  return (
    <main className="content-page billing-page billing-page--narrow">
      <Link className="back-link" to={upgradePath(plan, promo)}>
        <ArrowLeft size={16} aria-hidden /> Back to plans
      </Link>
      <div className="billing-page__head">
        <h1 className="billing-page__title">Payment summary</h1>
      </div>
      {isPaypalCancelled ? (
        <p className="summary__note billing-page__note" role="status">
          {BILLING_MESSAGES.paypalApprovalCancelled}
        </p>
      ) : null}
      <PaymentSummary key={`${planIdOf(plan)}|${promo}`} plan={plan} initialPromo={promo} />
    </main>
  );
}

/** Back to the plans as they were left: the interval, and the promo code typed there. */
function upgradePath(plan: PlanId, promo: string): string {
  const params = new URLSearchParams();
  if (plan.interval === "yearly") params.set("interval", "yearly");
  if (promo.trim()) params.set("promo", promo.trim());
  const query = params.toString();
  return query ? `/upgrade?${query}` : "/upgrade";
}
