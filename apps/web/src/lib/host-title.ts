/**
 * SPEC §2: on a host that is not one of the instance's own (a team's custom domain), every tab is
 * titled after the team found for it, else the host name, and that team's branding wins over the
 * signed-in user's active team. GET /api/host answers once at start (features/teams/custom-host.ts) and
 * puts the title and the team here; useDocumentTitle and the branding hook read them.
 */
import { type HostInfo, tabTitle } from "@redline/shared";
import { useSyncExternalStore } from "react";

let hostTitle: string | null = null;
let hostTeam: HostInfo["team"] = null;
const listeners = new Set<() => void>();

/** What this host is: its title (null on the instance's own hosts: pages title themselves) and team. */
export function setHost(title: string | null, team: HostInfo["team"] = null): void {
  if (title === hostTitle && team === hostTeam) return;
  hostTitle = title;
  hostTeam = team;
  for (const listener of listeners) listener();
}

export const getHostTitle = () => hostTitle;
export const getHostTeam = () => hostTeam;

/** A page's tab title: the host's when it has one, else '{title} | Redline'. */
export function documentTitle(pageTitle: string, host: string | null): string {
  return host ?? tabTitle(pageTitle);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useHostTitle(): string | null {
  return useSyncExternalStore(subscribe, getHostTitle, getHostTitle);
}

/** The team whose custom domain this is (its name, and its theme while its branding applies), or null. */
export function useHostTeam(): HostInfo["team"] {
  return useSyncExternalStore(subscribe, getHostTeam, getHostTeam);
}
