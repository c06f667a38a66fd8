/**
 * When the offer bar shows (SPEC §4, §9), as one pure rule, and where its "closed this session" flag
 * lives (sessionStorage: a new tab or a new session offers it again).
 */
import type { ResolvedPlan } from "@redline/shared";

/** The routes that carry the bar. */
const OFFER_BAR_PATHS = ["/billing", "/upgrade", "/projects"] as const;
/** Where the bar stays even after it was closed: the screens about plans themselves. */
const ALWAYS_OFFERED_PATHS = ["/billing", "/upgrade"] as const;

/** The id of the plans section on /upgrade. */
export const UPGRADE_PLANS_ID = "plans";
/** The id of the offers section on /upgrade, where the bar's action scrolls (SPEC §9). */
export const UPGRADE_OFFERS_ID = "offers";

const normalize = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);

export interface OfferBarInput {
  pathname: string;
  /** The URL's query string (`?team=true` hides the bar). */
  search: string;
  /** The user's plan in the current product, as the server resolved it. */
  plan: Pick<ResolvedPlan, "isFree" | "hideUpsells">;
  /** Closed earlier in this session. */
  isClosed: boolean;
}

export function showsOfferBar({ pathname, search, plan, isClosed }: OfferBarInput): boolean {
  const path = normalize(pathname);
  if (!(OFFER_BAR_PATHS as readonly string[]).includes(path)) return false;
  if (!plan.isFree || plan.hideUpsells) return false;
  if (new URLSearchParams(search).get("team") === "true") return false;
  return !isClosed || !canCloseOfferBar(path);
}

/** Closing means something only where a closed bar stays closed (not on /billing and /upgrade). */
export function canCloseOfferBar(pathname: string): boolean {
  return !(ALWAYS_OFFERED_PATHS as readonly string[]).includes(normalize(pathname));
}

const CLOSED_KEY = "redline:offer-bar-closed";

export function isOfferBarClosed(): boolean {
  try {
    return sessionStorage.getItem(CLOSED_KEY) === "true";
  } catch {
    return false;
  }
}

export function closeOfferBar(): void {
  try {
    sessionStorage.setItem(CLOSED_KEY, "true");
  } catch {
    // Storage off (private mode): the bar stays closed until the page reloads.
  }
}
