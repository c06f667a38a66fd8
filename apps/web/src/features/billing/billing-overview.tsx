/**
 * `/billing` (SPEC §2): the plan and its subscriptions, a payment that needs the user, the payment
 * method (a card, PayPal) and the invoices (a PayPal subscription's payments among them). What each subscription lets the user do comes with it (abilities).
 */
import { type Billing, PLANS, type ResolvedPlan } from "@redline/shared";
import { CircleCheck, CreditCard, Sparkles, TriangleAlert, Wallet, X } from "lucide-react";
import { Link } from "react-router";
import { Panel } from "../../components/panel.tsx";
import { PAYMENT_ISSUE_TEXT } from "./billing-rules.ts";
import { InvoiceTable } from "./invoice-table.tsx";
import { PlanFeatures } from "./plan-features.tsx";
import { SubscriptionItem } from "./subscription-item.tsx";

export function BillingOverview({
  billing,
  plan,
  paymentIssue,
}: {
  billing: Billing;
  /** The user's plan in the current product (GET /api/me). */
  plan: ResolvedPlan;
  /** The session user's flag (GET /api/me); billing's own counts too. */
  paymentIssue: boolean;
}) {
  const hasSubscriptions = billing.subscriptions.length > 0;
  const hasPaymentDetails =
    hasSubscriptions ||
    billing.paymentMethod !== null ||
    billing.paypal !== null ||
    billing.invoices.length > 0;
  return (
    <div className="billing-grid">
      {paymentIssue || billing.paymentIssue ? (
        <div className="billing-alert billing-alert--warning" role="alert">
          <TriangleAlert size={20} aria-hidden className="billing-alert__icon" />
          <div className="billing-alert__body">
            <p className="billing-alert__title">{PAYMENT_ISSUE_TEXT}</p>
            {billing.payUrl ? (
              <div className="billing-alert__actions">
                <a className="btn btn--primary" href={billing.payUrl}>
                  Pay now
                </a>
              </div>
            ) : null}
          </div>
        </div>
      ) : null}

      <section className="panel" aria-labelledby="billing-plan-heading">
        <div className="billing-section__head">
          <h2 id="billing-plan-heading" className="panel__title">
            Your plan
          </h2>
          {hasSubscriptions ? <span className="tag">{plan.name}</span> : null}
        </div>
        {hasSubscriptions ? (
          <ul className="subscription-list">
            {billing.subscriptions.map((subscription) => (
              <SubscriptionItem key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        ) : (
          <NoSubscription plan={plan} />
        )}
      </section>

      {hasPaymentDetails ? (
        <>
          <Panel id="billing-method-heading" title="Payment method">
            {billing.paymentMethod ? (
              <div className="payment-method">
                <CreditCard size={20} aria-hidden className="payment-method__icon" />
                <div>
                  <p className="payment-method__card">
                    {capitalize(billing.paymentMethod.brand)} •••• {billing.paymentMethod.last4}
                  </p>
                  <p className="panel__text">
                    Expires {String(billing.paymentMethod.expMonth).padStart(2, "0")}/
                    {billing.paymentMethod.expYear}
                  </p>
                </div>
              </div>
            ) : null}
            {billing.paypal ? (
              <div className="payment-method">
                <Wallet size={20} aria-hidden className="payment-method__icon" />
                <div>
                  <p className="payment-method__card">PayPal</p>
                  {billing.paypal.email ? <p className="panel__text">{billing.paypal.email}</p> : null}
                </div>
              </div>
            ) : null}
            {billing.paymentMethod || billing.paypal ? null : (
              <p className="panel__text">No payment method on file.</p>
            )}
          </Panel>
          <Panel id="billing-invoices-heading" title="Invoices">
            <InvoiceTable invoices={billing.invoices} />
          </Panel>
        </>
      ) : null}
    </div>
  );
}

/** No subscription: the free plan with the way up, or a plan held otherwise (lifetime, partner, privilege). */
function NoSubscription({ plan }: { plan: ResolvedPlan }) {
  if (plan.isFree)
    return (
      <div className="billing-empty">
        <Sparkles size={24} aria-hidden className="billing-empty__icon" />
        <div className="billing-empty__text">
          <p className="billing-empty__title">You are on the Free plan</p>
          <p className="panel__text">Upgrade for more projects, more collaborators and unlimited pages.</p>
          <PlanFeatures
            name={PLANS[plan.product].free.name}
            entitlements={PLANS[plan.product].free.entitlements}
            isInline
          />
        </div>
        {plan.hideUpsells ? null : (
          <Link className="btn btn--primary" to="/upgrade">
            Upgrade
          </Link>
        )}
      </div>
    );
  return (
    <div className="billing-empty">
      <CircleCheck size={24} aria-hidden className="billing-empty__icon" />
      <div className="billing-empty__text">
        <p className="billing-empty__title">Your current plan is {plan.name}</p>
        <p className="panel__text">It is not billed by a subscription, so there is nothing to manage here.</p>
      </div>
    </div>
  );
}

/** The success banner after the provider sends the browser back (`?payment_status=success`). */
export function PaymentSuccessBanner({ onDismiss }: { onDismiss(): void }) {
  return (
    <div className="billing-alert billing-alert--success" role="status">
      <CircleCheck size={20} aria-hidden className="billing-alert__icon" />
      <div className="billing-alert__body">
        <p className="billing-alert__title">Payment successful</p>
        <p className="billing-alert__text">
          Thank you. Your plan is updated below; it can take a moment to show.
        </p>
      </div>
      <button type="button" className="icon-btn" aria-label="Dismiss payment message" onClick={onDismiss}>
        <X size={16} aria-hidden />
      </button>
    </div>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
