/**
 * `/offers` (SPEC §2, title 'Offers'; §9 promo codes, lifetime-deal and partner codes). A member of an
 * enabled team is offered nothing (SPEC §4, like the offer bar): their team's plan covers them.
 */
import { hasEnabledTeam } from "@redline/shared";
import { Users } from "lucide-react";
import { Link } from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { DealCodeForm } from "../features/billing/deal-code-form.tsx";
import { OfferList } from "../features/billing/offer-list.tsx";
import { PlansIncluded } from "../features/billing/plans-included.tsx";
import { useCurrency } from "../features/billing/use-currency.ts";
import { useMe } from "../features/session/use-me.ts";
import { useTeams } from "../features/teams/team-queries.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { useProduct } from "../lib/use-product.ts";
import "../features/billing/billing.css";
import "../features/billing/plans.css";

export function OffersPage() {
  useDocumentTitle("Offers");
  const product = useProduct();
  const { data: me } = useMe();
  // Priced in the visitor's currency: the one chosen on /upgrade, else the server's guess.
  const { currency, isPending } = useCurrency();
  const teams = useTeams(product);
  if (!me || isPending || teams.isPending) return <LoadingView />;
  const plan = me.plans[product];
  // Teams that could not be read take nothing away: the offers stay (the server still decides a purchase).
  const coveredByTeam = !plan.hideUpsells && hasEnabledTeam(teams.data ?? []);
  return (
    <main className="content-page billing-page">
      <div className="billing-page__head">
        <h1 className="billing-page__title">Offers</h1>
        {plan.hideUpsells || coveredByTeam ? null : (
          <p className="billing-page__lead">
            Save on a paid plan with a promo code. Choose an offer and the code is applied on the payment
            summary.
          </p>
        )}
      </div>
      {plan.hideUpsells ? (
        <PlansIncluded plan={plan} isOnOffers />
      ) : coveredByTeam ? (
        <TeamPlanCovers />
      ) : (
        <OfferList product={product} currency={currency} />
      )}
      {/* Shown to holders too: a further code (a higher tier) may be redeemed on top. */}
      <div className="deal-codes">
        <DealCodeForm kind="lifetime" />
        <DealCodeForm kind="partner" />
      </div>
    </main>
  );
}

/** An enabled team's member: their team's plan gives them what they use, so nothing is sold here. */
export function TeamPlanCovers() {
  return (
    <section className="empty-state" aria-labelledby="team-plan-covers-title">
      <Users size={28} aria-hidden className="empty-state__icon" />
      <h2 id="team-plan-covers-title" className="empty-state__title">
        Your team's plan covers you
      </h2>
      <p className="empty-state__text">
        You work in a team on a paid plan, so there are no offers for you here. A lifetime deal or partner
        code can still be redeemed below.
      </p>
      <div className="empty-state__actions">
        <Link className="btn" to="/team">
          Go to your team
        </Link>
      </div>
    </section>
  );
}
