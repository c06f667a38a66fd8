/**
 * The plans `/upgrade` offers (Standard, Pro, Team) for one interval, priced in the chosen currency, as
 * cards with what each allows.
 */
import {
  type BillingInterval,
  type Currency,
  type PlanId,
  type Product,
  parsePlanId,
  upgradeChoices,
} from "@redline/shared";
import { Check } from "lucide-react";
import { Link } from "react-router";
import {
  confirmPath,
  entitlementLines,
  INTERVAL_LABELS,
  INTERVAL_UNITS,
  planAmount,
} from "./billing-rules.ts";

export function PlanGrid({
  product,
  interval,
  currency,
  currentPlanName,
  subscribedPlan,
  promo,
}: {
  product: Product;
  interval: BillingInterval;
  currency: Currency;
  /** The name of the plan the user holds in this product, when it is a paid one. */
  currentPlanName: string | null;
  /** The plan of the user's card subscription in this product, if any. */
  subscribedPlan: PlanId | null;
  /** The promo code to carry to the payment summary. */
  promo: string;
}) {
  return (
    <ul className="plan-grid">
      {upgradeChoices(product, interval).map(({ planId, plan }) => {
        const parsed = parsePlanId(planId);
        if (!parsed) return null;
        const isCurrent = currentPlanName === plan.name;
        const isSubscribed =
          subscribedPlan !== null &&
          subscribedPlan.tier === parsed.tier &&
          subscribedPlan.interval === parsed.interval;
        return (
          <li key={planId} className={isCurrent ? "plan-card plan-card--current" : "plan-card"}>
            <div className="plan-card__head">
              <h3 className="plan-card__name">{plan.name}</h3>
              {isCurrent ? <span className="tag tag--success">Current plan</span> : null}
            </div>
            <div>
              <p className="plan-card__price">
                <span className="plan-card__amount">{planAmount(parsed, currency)}</span>
                <span className="plan-card__unit"> / {INTERVAL_UNITS[interval]}</span>
              </p>
              <p className="plan-card__note">Billed {INTERVAL_LABELS[interval].toLowerCase()}</p>
            </div>
            <ul className="plan-card__features" aria-label={`${plan.name} includes`}>
              {entitlementLines(plan.entitlements).map((line) => (
                <li key={line} className="plan-card__feature">
                  <Check size={16} aria-hidden className="plan-card__check" />
                  {line}
                </li>
              ))}
            </ul>
            {isSubscribed ? (
              <button type="button" className="btn btn--block" disabled>
                Your current plan
              </button>
            ) : (
              <Link className="btn btn--primary btn--block" to={confirmPath(planId, promo)}>
                Choose {plan.name}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
