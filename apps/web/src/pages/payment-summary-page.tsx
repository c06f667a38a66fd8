/** `/upgrade/confirm/{plan}` (SPEC §2, title 'Payment summary'); an unknown plan id is not found. */
import { type PlanId, parsePlanId, planIdOf } from "@redline/shared";
import { ArrowLeft } from "lucide-react";
import { Link, Navigate, useParams, useSearchParams } from "react-router";
import { confirmPath, promoCodeFor } from "../features/billing/billing-rules.ts";
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
  return <Summary plan={plan} promo={params.get("promo") ?? ""} />;
}

function Summary({ plan, promo }: { plan: PlanId; promo: string }) {
  useDocumentTitle("Payment summary");
  return (
    <main className="billing-page billing-page--narrow">
      <Link className="back-link" to={plan.interval === "yearly" ? "/upgrade?interval=yearly" : "/upgrade"}>
        <ArrowLeft size={16} aria-hidden /> Back to plans
      </Link>
      <div className="billing-page__head">
        <h1 className="billing-page__title">Payment summary</h1>
      </div>
      <PaymentSummary key={`${planIdOf(plan)}|${promo}`} plan={plan} initialPromo={promo} />
    </main>
  );
}
