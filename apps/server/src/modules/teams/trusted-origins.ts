/**
 * The one "trusted origins" rule: which browser origins may sign in, write and open the realtime socket
 * (the CSRF check, better-auth's trusted origins and /api/realtime all ask it). APP_URL's origin; a team's
 * custom domain once it is active — its TXT token proven and its CNAME pointing here — of an enabled team
 * whose owner's plan has a custom domain (team-plan.ts), with the app's own scheme; and the bug-tracking
 * host: BROWSE_URL when it names one, else the app's own `bugs.` subdomain (ownBrowseOrigin), so a single-host
 * install signs people in there out of the box. Answers are kept for a few seconds per origin, so a write costs no query;
 * a domain removed, a team disabled or its plan lapsed stops being trusted within that time.
 */
import { isDomainName, normalizeHost } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { teams, users } from "../../db/schema/index.ts";
import { ownerPlanColumns, teamPlanFor } from "./team-plan.ts";

const TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

export type IsTrustedOrigin = (origin: string | undefined | null) => Promise<boolean>;

/**
 * The bug-tracking host of an install that names no BROWSE_URL: APP_URL's host under the prefix and a dot
 * (`https://bugs.example.com` for `https://example.com`), same scheme and port. Only the dot form: a subdomain
 * is the operator's own, while `bugs-example.com` could be anyone's domain. Null without a prefix.
 */
export function ownBrowseOrigin(appUrl: string, hostPrefix: string): string | null {
  if (hostPrefix === "") return null;
  const url = new URL(appUrl);
  const host = `${hostPrefix}.${url.hostname}`;
  url.hostname = host;
  // An IP address has no subdomains (the URL keeps its host): no bug-tracking host then.
  return url.hostname === host ? url.origin : null;
}

export function trustedOrigins(
  db: Database,
  appUrl: string,
  alsoTrusted: () => readonly (string | null)[] = () => [],
  plansEnabled = true,
): IsTrustedOrigin {
  const { protocol: scheme, origin: appOrigin } = new URL(appUrl);
  const known = new Map<string, { trusted: boolean; at: number }>();

  async function lookup(origin: string): Promise<boolean> {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== scheme || url.origin !== origin) return false;
    const host = normalizeHost(url.hostname);
    if (!isDomainName(host)) return false;
    const [row] = await db
      .select({ team: { isDisabled: teams.isDisabled, product: teams.product }, owner: ownerPlanColumns })
      .from(teams)
      .leftJoin(users, eq(users.id, teams.ownerId))
      .where(and(eq(teams.domain, host), eq(teams.domainStatus, "active")));
    return row !== undefined && teamPlanFor(row.team, row.owner, plansEnabled).customDomain;
  }

  return async function isTrusted(origin: string | undefined | null): Promise<boolean> {
    if (!origin) return false;
    if (origin === appOrigin) return true;
    // The bug-tracking host (BROWSE_URL) is this app under another name, configured by the operator.
    if (alsoTrusted().includes(origin)) return true;
    const cached = known.get(origin);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.trusted;
    const trusted = await lookup(origin);
    if (known.size >= MAX_ENTRIES) known.delete(known.keys().next().value!);
    known.set(origin, { trusted, at: Date.now() });
    return trusted;
  };
}
