/**
 * The browser's own analytics events (SPEC §7: view switches, the offer bar, an upgrade started or
 * failed), sent to this installation's server — never to a third party from the browser. Fire and forget:
 * a lost event never bothers the person (keepalive lets one sent while leaving the page arrive). The
 * browser's Global Privacy Control / Do Not Track headers go with it, and the server keeps such an event
 * without its person (apps/server modules/analytics).
 */
import type { AnalyticsEventInput } from "@redline/shared";
import { useEffect } from "react";
import { useLocation, useParams } from "react-router";

type Properties = Record<string, string | number | boolean | null>;

export function track(event: AnalyticsEventInput["event"], properties: Properties = {}): void {
  try {
    void fetch("/api/analytics/events", {
      method: "POST",
      credentials: "same-origin",
      keepalive: true,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ event, properties }),
    }).catch(() => {});
  } catch {
    // No fetch (an old browser, a test without one): nothing to count.
  }
}

/** What a path shows, without the ids in it: a review's view (comments, edit, preview…) or the section. */
export function viewOf(pathname: string, currentView?: string): string {
  if (currentView) return currentView;
  return pathname.split("/").filter(Boolean)[0] ?? "home";
}

/** SwitchView each time the signed-in person moves to another view (SPEC §7: recorded on route changes). */
export function useViewAnalytics(): void {
  const { pathname } = useLocation();
  const { currentView } = useParams();
  const view = viewOf(pathname, currentView);
  useEffect(() => {
    track("SwitchView", { view });
  }, [view]);
}
