/** A plan change on the payment summary: the update button its ability allows, and the outcome (SPEC §4). */
import type { BillingSubscription, UpdateOutcome } from "@redline/shared";
import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { statusLabel } from "./billing-rules.ts";

export function UpdateAction({
  subscription,
  targetPlanId,
  isBusy,
  onUpdate,
}: {
  subscription: BillingSubscription;
  targetPlanId: string;
  isBusy: boolean;
  onUpdate(): void;
}) {
  if (subscription.planId === targetPlanId)
    return (
      <p className="summary__note" role="status">
        This is already your plan.{" "}
        <Link className="link" to="/billing">
          Go to billing
        </Link>
      </p>
    );
  if (!subscription.abilities.canUpdate)
    return (
      <p className="summary__note" role="status">
        Your {subscription.planName} subscription cannot be changed right now.{" "}
        <Link className="link" to="/billing">
          Go to billing
        </Link>
      </p>
    );
  return (
    <div className="summary__action">
      <button
        type="button"
        className="btn btn--primary btn--block summary__submit"
        disabled={isBusy}
        onClick={onUpdate}
      >
        {isBusy ? "Please wait..." : "Update plan"}
      </button>
      <p className="summary__hint">
        This changes your current {subscription.planName} subscription; no new checkout is needed.
      </p>
    </div>
  );
}

/** SPEC §4 after an update: past_due needs a payment; any other status is reported as it is. */
export function UpdateOutcomeNotice({ outcome, payUrl }: { outcome: UpdateOutcome; payUrl: string | null }) {
  if (outcome.result === "success") return null;
  return (
    <div className="billing-alert billing-alert--warning" role="alert">
      <TriangleAlert size={20} aria-hidden className="billing-alert__icon" />
      <div className="billing-alert__body">
        <p className="billing-alert__title">
          {outcome.result === "past_due"
            ? "Your plan change is waiting for payment."
            : `Your subscription is now ${statusLabel(outcome.status).toLowerCase()}.`}
        </p>
        <div className="billing-alert__actions">
          {outcome.result === "past_due" && payUrl ? (
            <a className="btn btn--primary" href={payUrl}>
              Pay now
            </a>
          ) : null}
          <Link className="btn" to="/billing">
            Go to billing
          </Link>
        </div>
      </div>
    </div>
  );
}
