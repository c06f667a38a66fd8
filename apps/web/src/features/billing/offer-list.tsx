/**
 * `/offers` (SPEC §9): each promo offer with its code, and a way to each plan it applies to, priced in
 * the visitor's currency (the one chosen on /upgrade, else the server's guess).
 */
import { type Currency, type PlanId, type Product, planIdOf } from "@redline/shared";
import { BadgePercent } from "lucide-react";
import { Link } from "react-router";
import { LoadingView } from "../../components/loading-view.tsx";
import {
  confirmPath,
  INTERVAL_UNITS,
  type Offer,
  offerTitle,
  planAmount,
  promoOffers,
} from "./billing-rules.ts";
import { useCurrency } from "./use-currency.ts";

export function OfferList({ product }: { product: Product }) {
  const { currency, isPending } = useCurrency();
  if (isPending) return <LoadingView />;
  return (
    <ul className="offer-list">
      {promoOffers(product).map((offer) => (
        <OfferCard key={offer.discount} offer={offer} currency={currency} />
      ))}
    </ul>
  );
}

function OfferCard({ offer, currency }: { offer: Offer; currency: Currency }) {
  const headingId = `offer-${offer.discount}`;
  return (
    <li className="offer-card" aria-labelledby={headingId}>
      <div className="offer-card__head">
        <BadgePercent size={24} aria-hidden className="offer-card__icon" />
        <h2 id={headingId} className="offer-card__title">
          {offerTitle(offer)}
        </h2>
      </div>
      <p className="offer-card__code">
        Use code <code className="offer-card__chip">{offer.code}</code>
      </p>
      <ul className="offer-card__plans">
        {offer.plans.map(({ planId, name }) => (
          <li key={planIdOf(planId)} className="offer-card__plan">
            <p className="offer-card__price">
              <span className="offer-card__name">{name}</span>{" "}
              <s className="offer-card__was">
                <span className="visually-hidden">was </span>
                {planAmount(planId, currency)}
              </s>{" "}
              <span className="offer-card__now">
                <span className="visually-hidden">now </span>
                {planAmount(discountedPlan(planId, offer), currency)} / {INTERVAL_UNITS[planId.interval]}
              </span>
            </p>
            <Link className="btn btn--primary" to={confirmPath(planIdOf(planId), offer.code)}>
              Get {name} {planId.interval}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}

const discountedPlan = (plan: PlanId, offer: Offer): PlanId => ({ ...plan, discount: offer.discount });
