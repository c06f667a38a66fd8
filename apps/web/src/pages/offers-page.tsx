/** `/offers` (SPEC §2, title 'Offers'; §9 promo codes, lifetime-deal and partner codes). */
import { LoadingView } from "../components/loading-view.tsx";
import { DealCodeForm } from "../features/billing/deal-code-form.tsx";
import { OfferList } from "../features/billing/offer-list.tsx";
import { PlansIncluded } from "../features/billing/plans-included.tsx";
import { useCurrency } from "../features/billing/use-currency.ts";
import { useMe } from "../features/session/use-me.ts";
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
  if (!me || isPending) return <LoadingView />;
  const plan = me.plans[product];
  return (
    <main className="billing-page">
      <div className="billing-page__head">
        <h1 className="billing-page__title">Offers</h1>
        {plan.hideUpsells ? null : (
          <p className="billing-page__lead">
            Save on a paid plan with a promo code. Choose an offer and the code is applied on the payment
            summary.
          </p>
        )}
      </div>
      {plan.hideUpsells ? (
        <PlansIncluded plan={plan} isOnOffers />
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
