/**
 * The plans `/upgrade` compares for one interval, priced in the chosen currency, as cards with what each
 * allows: Free (what the user has without paying) and the ones to buy (Standard, Pro, Team). A promo code
 * typed on the page prices the cards it applies to.
 */
import {
  applyPromoCode,
  type BillingInterval,
  type Currency,
  confirmPath,
  formatMoney,
  PLANS,
  type PlanId,
  type Product,
  parsePlanId,
  upgradeChoices,
} from "@redline/shared";
import { Link } from "react-router";
import { INTERVAL_LABELS, INTERVAL_UNITS, planAmount } from "./billing-rules.ts";
import { PlanFeatures } from "./plan-features.tsx";

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
  const free = PLANS[product].free;
  return (
    <ul className="plan-grid">
      <li
        className={
          currentPlanName === null
            ? "panel panel--raised plan-card plan-card--current"
            : "panel panel--raised plan-card"
        }
      >
        <div className="plan-card__head">
          <h3 className="plan-card__name">{free.name}</h3>
          {currentPlanName === null ? <span className="tag tag--success">Current plan</span> : null}
        </div>
        <div>
          <p className="plan-card__price">
            <span className="plan-card__amount">{formatMoney(0, currency)}</span>
            <span className="plan-card__unit"> / {INTERVAL_UNITS[interval]}</span>
          </p>
          <p className="plan-card__note">Free for as long as you like</p>
        </div>
        <PlanFeatures name={free.name} entitlements={free.entitlements} />
      </li>
      {upgradeChoices(product, interval).map(({ planId, plan }) => {
        const parsed = parsePlanId(planId);
        if (!parsed) return null;
        const discounted = promo.trim() ? applyPromoCode(parsed, promo) : null;
        const isCurrent = currentPlanName === plan.name;
        const isSubscribed =
          subscribedPlan !== null &&
          subscribedPlan.tier === parsed.tier &&
          subscribedPlan.interval === parsed.interval;
        return (
          <li
            key={planId}
            className={
              isCurrent ? "panel panel--raised plan-card plan-card--current" : "panel panel--raised plan-card"
            }
          >
            <div className="plan-card__head">
              <h3 className="plan-card__name">{plan.name}</h3>
              {isCurrent ? <span className="tag tag--success">Current plan</span> : null}
            </div>
            <div>
              <p className="plan-card__price">
                {discounted ? (
                  <>
                    <s className="plan-card__was">
                      <span className="visually-hidden">was </span>
                      {planAmount(parsed, currency)}
                    </s>{" "}
                    <span className="plan-card__amount">
                      <span className="visually-hidden">now </span>
                      {planAmount(discounted, currency)}
                    </span>
                  </>
                ) : (
                  <span className="plan-card__amount">{planAmount(parsed, currency)}</span>
                )}
                <span className="plan-card__unit"> / {INTERVAL_UNITS[interval]}</span>
              </p>
              <p className="plan-card__note">
                Billed {INTERVAL_LABELS[interval].toLowerCase()}
                {discounted ? ` · ${discounted.discount}% off with ${promo.trim().toUpperCase()}` : null}
              </p>
            </div>
            <PlanFeatures name={plan.name} entitlements={plan.entitlements} />
            {isSubscribed ? (
              <button type="button" className="btn btn--block" disabled>
                Your current plan
              </button>
            ) : (
              <Link
                className="btn btn--primary btn--block"
                to={confirmPath(planId, discounted ? promo : null)}
              >
                Choose {plan.name}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
