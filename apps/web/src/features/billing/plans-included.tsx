/**
 * Upsells hidden (a lifetime deal, a privilege, or plans switched off; SPEC §6): nothing to sell here. What
 * is said is true of the plan: "everything" only when it lacks nothing; a lifetime tier below the highest is
 * told what the higher tier adds (SPEC §9: tier 3 has custom branding) and where its code is redeemed.
 */
import {
  LIFETIME_TIERS,
  type LifetimeTier,
  type ResolvedPlan,
  UNLIMITED_ENTITLEMENTS,
} from "@redline/shared";
import { BadgeCheck } from "lucide-react";
import { Link } from "react-router";
import { entitlementGains, listInWords } from "./billing-rules.ts";

const HIGHEST_TIER = 3 satisfies LifetimeTier;

export function PlansIncluded({
  plan,
  isOnOffers = false,
}: {
  plan: Pick<ResolvedPlan, "name" | "entitlements">;
  /** On /offers the code form is right below: no link to it. */
  isOnOffers?: boolean;
}) {
  const missing = entitlementGains(plan.entitlements, UNLIMITED_ENTITLEMENTS);
  const tier = Number(/^Lifetime tier ([123])$/.exec(plan.name)?.[1]) as LifetimeTier | 0;
  const higherGains =
    tier && tier < HIGHEST_TIER
      ? entitlementGains(plan.entitlements, LIFETIME_TIERS[HIGHEST_TIER].entitlements)
      : [];
  return (
    <section className="empty-state" aria-labelledby="plans-included-title">
      <BadgeCheck size={28} aria-hidden className="empty-state__icon" />
      <h2 id="plans-included-title" className="empty-state__title">
        {missing.length === 0
          ? "Your plan includes everything — nothing to upgrade"
          : `Your plan is ${plan.name}`}
      </h2>
      <p className="empty-state__text">
        {missing.length === 0
          ? `Your current plan is ${plan.name}. There is nothing more to buy.`
          : `It does not include ${listInWords(missing)}.`}
        {higherGains.length > 0
          ? ` Lifetime tier ${HIGHEST_TIER} adds ${listInWords(higherGains)}${isOnOffers ? ": redeem its code below." : "."}`
          : null}
      </p>
      <div className="empty-state__actions">
        {higherGains.length > 0 && !isOnOffers ? (
          <Link className="btn btn--primary" to="/offers">
            Redeem a code on Offers
          </Link>
        ) : null}
        <Link className="btn" to="/billing">
          Go to billing
        </Link>
      </div>
    </section>
  );
}
