/**
 * The promo offers of SPEC §9 (on `/offers` and in the offers section of `/upgrade`): each offer with its
 * code, and a way to each plan it applies to, priced in the given currency.
 */
import { type Currency, confirmPath, type PlanId, type Product, planIdOf } from "@redline/shared";
import { BadgePercent } from "lucide-react";
import { Link } from "react-router";
import { INTERVAL_UNITS, type Offer, offerTitle, planAmount, promoOffers } from "./billing-rules.ts";

export function OfferList({ product, currency }: { product: Product; currency: Currency }) {
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
    <li className="panel panel--raised offer-card" aria-labelledby={headingId}>
      <div className="offer-card__head">
        <BadgePercent size={24} aria-hidden className="panel__icon" />
        <h2 id={headingId} className="panel__title">
          {offerTitle(offer)}
        </h2>
      </div>
      <p className="offer-card__code">
        Use code <code className="offer-card__chip">{offer.code}</code>
      </p>
      <ul className="list-stack offer-card__plans">
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
