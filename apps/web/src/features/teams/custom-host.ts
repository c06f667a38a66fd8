/**
 * At start, the SPA asks the server whose host it runs on (GET /api/host). On a team's custom domain
 * (SPEC §1, §2): every tab is titled after the team (else the host name), and the team's branding
 * applies while it is on (SPEC §4: the server sends the theme only then). On the instance's own hosts
 * nothing changes. A failed request changes nothing either: the app works as on its own host.
 */
import type { HostInfo } from "@redline/shared";
import { api } from "../../lib/api.ts";
import { setHost } from "../../lib/host-title.ts";

/**
 * Applies what the host says; exported for tests. The branding module (with the team queries behind its
 * hook) loads only on a branded custom domain, so the landing page's first load does not carry it (issue #34).
 */
export async function applyHost(host: HostInfo): Promise<void> {
  if (host.isOwnHost) return;
  setHost(host.title, host.team);
  if (host.title) document.title = host.title;
  const theme = host.team?.theme;
  if (theme) (await import("./branding.ts")).applyBranding(theme);
}

export async function startCustomHost(): Promise<void> {
  try {
    await applyHost((await api<{ data: HostInfo }>("/api/host")).data);
  } catch {
    // Not knowing the host is not worth an error screen: the default title and look stay.
  }
}
