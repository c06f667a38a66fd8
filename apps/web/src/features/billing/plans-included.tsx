/** Upsells hidden (a lifetime deal, a privilege, or plans switched off; SPEC §6): nothing to sell. */
import { BadgeCheck } from "lucide-react";
import { Link } from "react-router";

export function PlansIncluded({ planName }: { planName: string }) {
  return (
    <section className="empty-state" aria-labelledby="plans-included-title">
      <BadgeCheck size={28} aria-hidden className="empty-state__icon" />
      <h2 id="plans-included-title" className="empty-state__title">
        Your plan includes everything — nothing to upgrade
      </h2>
      <p className="empty-state__text">Your current plan is {planName}. There is nothing more to buy.</p>
      <Link className="btn" to="/billing">
        Go to billing
      </Link>
    </section>
  );
}
