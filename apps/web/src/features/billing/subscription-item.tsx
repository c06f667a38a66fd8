/**
 * One subscription on `/billing`: plan, status, next payment or end date, a pending update, and the
 * controls its abilities allow (cancel at period end — a PayPal one at once —, undo that, drop the pending
 * update, change plan).
 */
import { type BillingSubscription, formatMoney } from "@redline/shared";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { PendingButton } from "../../components/pending-button.tsx";
import { useSubscriptionAction } from "./billing-queries.ts";
import { formatDate, statusLabel, statusTone } from "./billing-rules.ts";

/** A subscription action that asks no confirmation: 'Please wait...' on the button while it goes. */
function QuickAction({
  action,
  subscriptionId,
  children,
}: {
  action: "undo-cancel" | "cancel-pending-update";
  subscriptionId: string;
  children: ReactNode;
}) {
  const run = useSubscriptionAction(action);
  return (
    <PendingButton
      className="btn"
      isPending={run.isPending}
      pendingLabel="Please wait..."
      onClick={() => run.mutate(subscriptionId)}
    >
      {children}
    </PendingButton>
  );
}

export function SubscriptionItem({ subscription }: { subscription: BillingSubscription }) {
  const cancel = useSubscriptionAction("cancel");
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const { abilities, currentPeriodEnd, pendingUpdate } = subscription;
  const tone = statusTone(subscription.status);
  const headingId = `subscription-${subscription.id}`;

  const handleCancel = () => cancel.mutate(subscription.id, { onSettled: () => setConfirmOpen(false) });

  return (
    <li className="subscription" aria-labelledby={headingId}>
      <div className="subscription__head">
        <h3 id={headingId} className="subscription__name">
          {subscription.planName}
        </h3>
        <span className={tone === "neutral" ? "tag" : `tag tag--${tone}`}>
          {statusLabel(subscription.status)}
        </span>
        {subscription.paymentIssue ? <span className="tag tag--danger">Payment needs attention</span> : null}
      </div>

      {currentPeriodEnd ? (
        <dl className="subscription__facts">
          {subscription.cancelAtPeriodEnd ? (
            <div className="subscription__fact">
              <dt>Cancels on</dt>
              <dd>{formatDate(currentPeriodEnd)}</dd>
            </div>
          ) : (
            <div className="subscription__fact">
              <dt>Next payment</dt>
              <dd>
                {formatDate(currentPeriodEnd)} · {formatMoney(subscription.amount, subscription.currency)}
              </dd>
            </div>
          )}
        </dl>
      ) : null}
      {pendingUpdate ? (
        <p className="subscription__pending">
          Pending update to {pendingUpdate.planName}
          {pendingUpdate.expiresAt ? ` (until ${formatDate(pendingUpdate.expiresAt)})` : null}
        </p>
      ) : null}

      <div className="subscription__actions">
        {abilities.canUpdate ? (
          <Link className="btn" to="/upgrade">
            Change plan
          </Link>
        ) : null}
        {abilities.canCancelPendingUpdate ? (
          <QuickAction action="cancel-pending-update" subscriptionId={subscription.id}>
            Cancel update
          </QuickAction>
        ) : null}
        {abilities.canUndoCancel ? (
          <QuickAction action="undo-cancel" subscriptionId={subscription.id}>
            Undo cancel
          </QuickAction>
        ) : null}
        {abilities.canCancel ? (
          <button type="button" className="btn btn--ghost" onClick={() => setConfirmOpen(true)}>
            Cancel subscription
          </button>
        ) : null}
      </div>

      {abilities.canCancel ? (
        <ConfirmModal
          open={isConfirmOpen}
          onOpenChange={setConfirmOpen}
          title="Cancel subscription?"
          description={cancelDescription(subscription)}
          cancelLabel="Keep subscription"
          confirmLabel="Cancel subscription"
          isPending={cancel.isPending}
          onConfirm={handleCancel}
        />
      ) : null}
    </li>
  );
}

/** What cancelling does: a card subscription ends with its period (and can be kept until then); PayPal's now. */
function cancelDescription({ provider, planName, currentPeriodEnd }: BillingSubscription): string {
  if (provider === "second")
    return `PayPal stops the payments now, and your ${planName} plan ends with them. This cannot be undone: to have the plan again, subscribe again.`;
  return currentPeriodEnd
    ? `Your ${planName} plan stays active until ${formatDate(currentPeriodEnd)} and is not renewed after that. You can undo this until then.`
    : `Your ${planName} plan is not renewed at the end of the billing period. You can undo this until then.`;
}
