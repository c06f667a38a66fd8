/**
 * The payment summary (SPEC §2 `/upgrade/confirm/{plan}`): the plan, its price, a promo code and the
 * total, in the chosen currency (a plan change: in the subscription's own); then either a checkout at
 * the payment provider in that currency, or — for someone who already holds a card subscription in this
 * product — an update of that subscription, with its outcome (SPEC §4). PayPal charges in US dollars.
 */
import {
  applyPromoCode,
  BASE_CURRENCY,
  BILLING_MESSAGES,
  type Billing,
  type BillingSubscription,
  CURRENCY_MESSAGES,
  type Currency,
  formatMoney,
  type PlanId,
  planDisplayName,
  planIdOf,
  planPriceIn,
  promoCodeProblem,
  supportedCurrency,
  type UpdateOutcome,
} from "@redline/shared";
import { type FormEvent, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Field } from "../../components/field.tsx";
import { LoadingView } from "../../components/loading-view.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { track } from "../../lib/analytics.ts";
import { isApiError } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { BillingLoadError } from "./billing-load-error.tsx";
import {
  useBilling,
  useCheckout,
  usePaypalCheckout,
  useRefreshBilling,
  useUpdateSubscription,
} from "./billing-queries.ts";
import { currentCardSubscription, INTERVAL_LABELS, planPriceLabel } from "./billing-rules.ts";
import { goToCheckout } from "./checkout-redirect.ts";
import { UpdateAction, UpdateOutcomeNotice } from "./plan-update.tsx";
import { useCurrency } from "./use-currency.ts";

export function PaymentSummary({ plan, initialPromo }: { plan: PlanId; initialPromo: string }) {
  const billing = useBilling();
  const chosen = useCurrency();
  if (billing.isPending || chosen.isPending) return <LoadingView />;
  if (billing.isError)
    return <BillingLoadError onRetry={() => billing.refetch()} isRetrying={billing.isFetching} />;
  return (
    <SummaryCard
      plan={plan}
      billing={billing.data}
      initialPromo={initialPromo}
      chosenCurrency={chosen.currency}
    />
  );
}

const normalizeCode = (code: string) => code.trim().toUpperCase();

function SummaryCard({
  plan,
  billing,
  initialPromo,
  chosenCurrency,
}: {
  plan: PlanId;
  billing: Billing;
  initialPromo: string;
  chosenCurrency: Currency;
}) {
  const navigate = useNavigate();
  const refresh = useRefreshBilling();
  const checkout = useCheckout();
  const paypal = usePaypalCheckout();
  const update = useUpdateSubscription();
  // A promo code from the link is applied at once when it fits this plan, and refused inline otherwise.
  const initialCode = normalizeCode(initialPromo);
  const [code, setCode] = useState(initialCode);
  const [appliedCode, setAppliedCode] = useState<string | null>(() =>
    initialCode && applyPromoCode(plan, initialCode) ? initialCode : null,
  );
  const [promoError, setPromoError] = useState<string | null>(() =>
    initialCode ? promoCodeProblem(plan, initialCode) : null,
  );
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<UpdateOutcome | null>(null);
  // Set before the request leaves, so a double click sends one request.
  const isSending = useRef(false);

  const subscription = currentCardSubscription(billing, plan.product);
  // A plan change is billed in the subscription's currency; a new subscription in the chosen one.
  const currency: Currency = subscription
    ? (supportedCurrency(subscription.currency) ?? chosenCurrency)
    : chosenCurrency;
  // A promo code discounts a new subscription; a plan change is billed at the plan's own price.
  const discounted = appliedCode && !subscription ? applyPromoCode(plan, appliedCode) : null;
  const target = discounted ?? plan;
  const isBusy =
    checkout.isPending || checkout.isSuccess || paypal.isPending || paypal.isSuccess || update.isPending;

  const handleApply = (event: FormEvent) => {
    event.preventDefault();
    const value = normalizeCode(code);
    setCode(value);
    if (!value) {
      setAppliedCode(null);
      setPromoError(null);
    } else if (applyPromoCode(plan, value)) {
      setAppliedCode(value);
      setPromoError(null);
    } else {
      setAppliedCode(null);
      setPromoError(promoCodeProblem(plan, value));
    }
  };

  const handleRemoveCode = () => {
    setAppliedCode(null);
    setPromoError(null);
    setCode("");
  };

  const handleCheckout = () => {
    if (isSending.current) return;
    isSending.current = true;
    setFormError(null);
    track("UpgradeInitiated", { planId: planIdOf(plan), provider: "card" });
    checkout.mutate(
      {
        planId: planIdOf(plan),
        ...(appliedCode ? { promoCode: appliedCode } : {}),
        ...(currency !== BASE_CURRENCY && { currency }),
      },
      {
        // The page stays busy until the browser has left for the provider.
        onSuccess: ({ url }) => goToCheckout(url),
        onError: (error) => {
          isSending.current = false;
          track("UpgradeFailed", { planId: planIdOf(plan), provider: "card", reason: failureOf(error) });
          if (isApiError(error) && error.code === "promo-code") {
            setAppliedCode(null);
            setPromoError(error.message || promoCodeProblem(plan, appliedCode ?? ""));
          } else if (isApiError(error) && error.code === "already-subscribed") {
            // The subscription shows up on refresh, and this summary becomes an update.
            setFormError(error.message);
            void refresh();
          } else setFormError(errorMessage(error));
        },
      },
    );
  };

  // The second provider (SPEC §3): its own approval page; promo codes apply to card payments only.
  const handlePaypal = () => {
    if (isSending.current) return;
    isSending.current = true;
    setFormError(null);
    track("UpgradeInitiated", { planId: planIdOf(plan), provider: "paypal" });
    paypal.mutate(planIdOf(plan), {
      onSuccess: ({ url }) => goToCheckout(url),
      onError: (error) => {
        isSending.current = false;
        track("UpgradeFailed", { planId: planIdOf(plan), provider: "paypal", reason: failureOf(error) });
        setFormError(errorMessage(error));
      },
    });
  };

  const handleUpdate = (current: BillingSubscription) => {
    if (isSending.current) return;
    isSending.current = true;
    setFormError(null);
    track("UpgradeInitiated", { planId: planIdOf(plan), provider: current.provider, change: true });
    update.mutate(
      { subscriptionId: current.id, planId: planIdOf(plan) },
      {
        onSuccess: ({ data, message }) => {
          isSending.current = false;
          if (data.outcome.result === "success") {
            snackbar.success(message ?? BILLING_MESSAGES.planUpdated);
            navigate("/billing");
          } else {
            track("UpgradeFailed", { planId: planIdOf(plan), change: true, reason: data.outcome.result });
            setOutcome(data.outcome);
          }
        },
        onError: (error) => {
          isSending.current = false;
          track("UpgradeFailed", { planId: planIdOf(plan), change: true, reason: failureOf(error) });
          setFormError(errorMessage(error));
        },
      },
    );
  };

  return (
    <section className="panel panel--raised summary" aria-label="Order summary">
      <dl className="summary__rows">
        <div className="summary__row">
          <dt>Plan</dt>
          <dd>{planDisplayName(plan)}</dd>
        </div>
        <div className="summary__row">
          <dt>Billing</dt>
          <dd>{INTERVAL_LABELS[plan.interval]}</dd>
        </div>
        <div className="summary__row">
          <dt>Price</dt>
          <dd>{planPriceLabel(plan, currency)}</dd>
        </div>
        {discounted ? (
          <div className="summary__row summary__row--discount">
            <dt>
              Promo code {appliedCode} ({discounted.discount}% off)
            </dt>
            <dd>−{formatMoney(planPriceIn(plan, currency) - planPriceIn(discounted, currency), currency)}</dd>
          </div>
        ) : null}
        <div className="summary__row summary__row--total">
          <dt>Total</dt>
          <dd>{planPriceLabel(target, currency)}</dd>
        </div>
      </dl>

      {subscription ? (
        initialCode ? (
          <p className="summary__note">
            Promo codes apply to new subscriptions; a plan change is billed at the plan's price.
          </p>
        ) : null
      ) : (
        <form className="promo-form" onSubmit={handleApply}>
          <Field
            label="Promo code"
            error={promoError}
            hint={discounted ? `${appliedCode} applied: ${discounted.discount}% off.` : undefined}
          >
            {(control) => (
              <div className="promo-form__row">
                <input
                  {...control}
                  className="input promo-form__input"
                  value={code}
                  autoComplete="off"
                  spellCheck={false}
                  disabled={isBusy}
                  onChange={(event) => setCode(event.target.value)}
                />
                <button type="submit" className="btn" disabled={isBusy}>
                  Apply
                </button>
                {appliedCode ? (
                  <button
                    type="button"
                    className="btn btn--ghost"
                    disabled={isBusy}
                    onClick={handleRemoveCode}
                  >
                    Remove
                  </button>
                ) : null}
              </div>
            )}
          </Field>
        </form>
      )}

      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}

      {outcome ? (
        <UpdateOutcomeNotice outcome={outcome} payUrl={billing.payUrl} />
      ) : subscription ? (
        <UpdateAction
          subscription={subscription}
          targetPlanId={planIdOf(plan)}
          isBusy={isBusy}
          onUpdate={() => handleUpdate(subscription)}
        />
      ) : billing.canCheckout ? (
        <div className="summary__action">
          <button
            type="button"
            className="btn btn--primary btn--block summary__submit"
            disabled={isBusy}
            onClick={handleCheckout}
          >
            {checkout.isPending || checkout.isSuccess ? "Please wait..." : "Continue to payment"}
          </button>
          {appliedCode ? null : (
            <button
              type="button"
              className="btn btn--block summary__paypal"
              disabled={isBusy}
              onClick={handlePaypal}
            >
              {paypal.isPending || paypal.isSuccess ? "Please wait..." : "Pay with PayPal"}
            </button>
          )}
          <p className="summary__hint">
            You will pay on the payment provider's secure page.
            {appliedCode ? " Promo codes apply to card payments." : null}
            {!appliedCode && currency !== BASE_CURRENCY
              ? ` ${CURRENCY_MESSAGES.paypalUsd}: ${planPriceLabel(plan, BASE_CURRENCY)}.`
              : null}
          </p>
        </div>
      ) : (
        <p className="summary__note" role="status">
          {BILLING_MESSAGES.paymentsUnavailable}
        </p>
      )}
    </section>
  );
}

/** Why an upgrade failed, as a short code for the analytics event (never a message with personal data). */
const failureOf = (error: unknown) => (isApiError(error) ? error.code.slice(0, 60) : "unknown");
