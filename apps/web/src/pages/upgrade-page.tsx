/**
 * `/upgrade` (SPEC §2, title 'Upgrade'): the current product's plans, monthly or yearly, in the visitor's
 * currency (or the one they choose), beside the Free plan; a promo code that prices the cards it applies
 * to; and the offers (SPEC §9), where the offer bar's 'Grab the deal' scrolls.
 */
import {
  BILLING_MESSAGES,
  type BillingInterval,
  hasEnabledTeam,
  type Product,
  parsePlanId,
  promoCodeDiscount,
} from "@redline/shared";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { TextField } from "../components/field.tsx";
import { LoadingView } from "../components/loading-view.tsx";
import { useBilling } from "../features/billing/billing-queries.ts";
import { currentCardSubscription, offerTitle, promoOffers } from "../features/billing/billing-rules.ts";
import { CurrencySelect } from "../features/billing/currency-select.tsx";
import { IntervalToggle } from "../features/billing/interval-toggle.tsx";
import { UPGRADE_OFFERS_ID, UPGRADE_PLANS_ID } from "../features/billing/offer-bar-rule.ts";
import { OfferList } from "../features/billing/offer-list.tsx";
import { PlanGrid } from "../features/billing/plan-grid.tsx";
import { PlansIncluded } from "../features/billing/plans-included.tsx";
import { useCurrency } from "../features/billing/use-currency.ts";
import { useMe } from "../features/session/use-me.ts";
import { ProRequestButton } from "../features/support/pro-request-modal.tsx";
import { useTeams } from "../features/teams/team-queries.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { useProduct } from "../lib/use-product.ts";
import "../features/billing/billing.css";
import "../features/billing/plans.css";

export function UpgradePage() {
  useDocumentTitle("Upgrade");
  const product = useProduct();
  const { data: me } = useMe();
  // Billing only tells which plan a subscription is on; the plans show without it.
  const billing = useBilling();
  const { currency, isPending: isCurrencyPending, setCurrency } = useCurrency();
  const teams = useTeams(product);
  const [params, setParams] = useSearchParams();
  const interval: BillingInterval = params.get("interval") === "yearly" ? "yearly" : "monthly";
  const [promo, setPromo] = useState(params.get("promo") ?? "");

  const handleInterval = (next: BillingInterval) => {
    const nextParams = new URLSearchParams(params);
    if (next === "monthly") nextParams.delete("interval");
    else nextParams.set("interval", next);
    setParams(nextParams, { replace: true });
  };

  if (!me || isCurrencyPending) return <LoadingView />;
  const plan = me.plans[product];
  const subscription = billing.data ? currentCardSubscription(billing.data, product) : null;
  const promoFeedback = promoFeedbackFor(product, promo);

  return (
    <main className="content-page billing-page">
      <div className="billing-page__head">
        <h1 className="billing-page__title">Upgrade</h1>
        {plan.hideUpsells ? null : (
          <p className="billing-page__lead">
            {plan.isFree
              ? "You are on the Free plan. Choose a plan with more projects, collaborators and pages."
              : `You are on ${plan.name}. Choose another plan to change it.`}
          </p>
        )}
      </div>
      {plan.hideUpsells ? (
        <PlansIncluded plan={plan} />
      ) : (
        <section id={UPGRADE_PLANS_ID} className="plan-choice" aria-label="Plans" tabIndex={-1}>
          <div className="plan-choice__bar">
            <IntervalToggle value={interval} onChange={handleInterval} />
            <div className="plan-choice__fields">
              <CurrencySelect className="plan-choice__currency" value={currency} onChange={setCurrency} />
              <TextField
                className="plan-choice__promo"
                label="Promo code"
                hint={promoFeedback.hint}
                error={promoFeedback.error}
                value={promo}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setPromo(event.target.value)}
              />
            </div>
          </div>
          <PlanGrid
            product={product}
            interval={interval}
            currency={currency}
            currentPlanName={plan.isFree ? null : plan.name}
            subscribedPlan={subscription ? parsePlanId(subscription.planId) : null}
            promo={promo}
          />
          <ProRequestButton />
        </section>
      )}
      {/* Offers are upsells: none for a member of an enabled team (SPEC §4), shown once the teams are known. */}
      {plan.hideUpsells || teams.isPending || hasEnabledTeam(teams.data ?? []) ? null : (
        <section
          id={UPGRADE_OFFERS_ID}
          className="upgrade-offers"
          aria-labelledby="upgrade-offers-title"
          tabIndex={-1}
        >
          <h2 id="upgrade-offers-title" className="upgrade-offers__title">
            Offers
          </h2>
          <p className="upgrade-offers__text">
            Type an offer's code in Promo code above, or choose a plan here: the code comes with it.
          </p>
          <OfferList product={product} currency={currency} />
        </section>
      )}
    </main>
  );
}

/** What the promo field says: which plans a known code discounts, or that the code is not one of ours. */
function promoFeedbackFor(product: Product, promo: string): { hint?: string; error?: string } {
  const code = promo.trim().toUpperCase();
  if (!code) return {};
  const discount = promoCodeDiscount(code);
  if (discount === null) return { error: BILLING_MESSAGES.unknownPromoCode };
  const offer = promoOffers(product).find((candidate) => candidate.discount === discount);
  return offer ? { hint: `${code}: ${offerTitle(offer)}.` } : {};
}
