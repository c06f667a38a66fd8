/**
 * At start, the SPA asks the server whose host it runs on (GET /api/host). On a team's custom domain
 * (SPEC §1, §2): every tab is titled after the team (else the host name), and the team's branding
 * applies while it is on (SPEC §4: the server sends the theme only then). On the instance's own hosts
 * nothing changes. A failed request changes nothing either: the app works as on its own host.
 */
import type { HostInfo } from "@redline/shared";
import { api } from "../../lib/api.ts";
import { setHost } from "../../lib/host-title.ts";
import { applyBranding } from "./branding.ts";

/** Applies what the host says; exported for tests. */
export function applyHost(host: HostInfo): void {
  if (host.isOwnHost) return;
  setHost(host.title, host.team);
  if (host.title) document.title = host.title;
  if (host.team?.theme) applyBranding(host.team.theme);
}

export async function startCustomHost(): Promise<void> {
  try {
    applyHost((await api<{ data: HostInfo }>("/api/host")).data);
  } catch {
    // Not knowing the host is not worth an error screen: the default title and look stay.
  }
}
