/**
 * The offer bar (SPEC §4, §9) under the header on /billing, /upgrade and /projects for a free user.
 * Its action goes to /offers — on /upgrade it scrolls to the offers section there (SPEC §9).
 */
import { OFFER_BAR, type ResolvedPlan } from "@redline/shared";
import { Tag, X } from "lucide-react";
import { useState } from "react";
import { Link, useLocation } from "react-router";
import { track } from "../../lib/analytics.ts";
import {
  canCloseOfferBar,
  closeOfferBar,
  isOfferBarClosed,
  showsOfferBar,
  UPGRADE_OFFERS_ID,
} from "./offer-bar-rule.ts";
import "./notices.css";
import { IconButton } from "../../components/icon-button.tsx";

export function OfferBar({ plan }: { plan: ResolvedPlan }) {
  const { pathname, search } = useLocation();
  const [isClosed, setClosed] = useState(isOfferBarClosed);
  if (!showsOfferBar({ pathname, search, plan, isClosed })) return null;
  const isUpgrade = pathname.replace(/\/+$/, "") === "/upgrade";

  const handleClose = () => {
    track("GrabDealClosed");
    closeOfferBar();
    setClosed(true);
  };

  const handleScroll = () => {
    track("GrabDealClicked", { from: "upgrade" });
    const offers = document.getElementById(UPGRADE_OFFERS_ID);
    offers?.scrollIntoView({ behavior: "smooth", block: "start" });
    offers?.focus({ preventScroll: true });
  };

  return (
    <section className="offer-bar" aria-label="Offer">
      <div className="offer-bar__inner">
        <Tag size={16} aria-hidden className="offer-bar__icon" />
        <p className="offer-bar__text">{OFFER_BAR.text}</p>
        {isUpgrade ? (
          <button type="button" className="btn btn--primary offer-bar__action" onClick={handleScroll}>
            {OFFER_BAR.action}
          </button>
        ) : (
          <Link
            className="btn btn--primary offer-bar__action"
            to="/offers"
            onClick={() => track("GrabDealClicked", { from: pathname })}
          >
            {OFFER_BAR.action}
          </Link>
        )}
        {canCloseOfferBar(pathname) ? (
          <IconButton className="offer-bar__close" label="Close offer" icon={X} onClick={handleClose} />
        ) : null}
      </div>
    </section>
  );
}
