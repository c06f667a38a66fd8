/**
 * Custom domains on the server: how DNS is asked (the embedded server in development and tests, else
 * DNS_SERVERS or the system's resolvers), what a check concludes (rules in packages/shared
 * team-domains.ts), the instance's own hosts, the owner's plan gate, and the API's view of a domain.
 */
import {
  challengeName,
  cnameCheck,
  domainRecords,
  domainStatusOf,
  TEAM_DOMAIN_MESSAGES,
  type TeamDomain,
  type TeamDomainStatus,
  txtCheck,
} from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { TeamRow } from "../../db/schema/index.ts";
import type { AppConfig } from "../../env.ts";
import { createDnsLookup, type DnsLookup, DnsLookupError } from "../../integrations/dns/index.ts";
import { PlanLimitError } from "../../lib/errors.ts";
import { loadTeamPlan } from "./team-plan.ts";

export interface DomainDns<Dev> {
  lookup: DnsLookup;
  /** The embedded DNS server the lookup asks, when the config wants one (then /dev/dns edits it). */
  dev: Dev | null;
}

/**
 * The DNS the custom-domain checks ask, chosen by the config (see env.ts `customDomains`). The embedded
 * server is started by `startDev`, which app.ts takes from the stand-ins package (never in production).
 */
export async function startDomainDns<Dev extends { address: string }>(
  config: AppConfig,
  startDev: ((options: { port: number }) => Promise<Dev>) | undefined,
): Promise<DomainDns<Dev>> {
  const { embeddedDns, embeddedDnsPort, dnsServers } = config.customDomains;
  if (!embeddedDns || !startDev) return { lookup: createDnsLookup(dnsServers), dev: null };
  const dev = await startDev({ port: embeddedDnsPort });
  // One quick try: the server is in this process, an unanswered query means a bug, not packet loss.
  return { lookup: createDnsLookup([dev.address], { timeoutMs: 1000, tries: 1 }), dev };
}

/** The instance's own hosts besides loopback names (isOwnHost adds those): app, content origin, CNAME target. */
export function ownHostsOf(config: AppConfig): string[] {
  return [
    new URL(config.appUrl).hostname,
    new URL(config.contentOrigin).hostname,
    config.customDomains.target,
  ];
}

/** What a re-check found: the new status, or that DNS could not say (the status then stays). */
export type DomainCheck = { status: TeamDomainStatus } | { status: null; error: string };

export async function checkDomain(
  lookup: DnsLookup,
  domain: string,
  token: string,
  target: string,
): Promise<DomainCheck> {
  try {
    const [txt, cname] = await Promise.all([lookup.txt(challengeName(domain)), lookup.cname(domain)]);
    return { status: domainStatusOf({ txt: txtCheck(txt, token), cname: cnameCheck(cname, target) }) };
  } catch (error) {
    if (error instanceof DnsLookupError) return { status: null, error: error.message };
    throw error;
  }
}

/** SPEC §6: a custom domain is the team owner's plan's (Team plan, partner plan D); else the typed 402. */
export async function requireCustomDomainPlan(
  db: Database,
  team: TeamRow,
  plansEnabled: boolean,
): Promise<void> {
  if ((await loadTeamPlan(db, team, plansEnabled)).customDomain) return;
  throw new PlanLimitError("custom-domain", TEAM_DOMAIN_MESSAGES.planRequired, {
    kind: "feature",
    product: team.product,
    limit: 0,
  });
}

export function presentDomain(team: TeamRow, target: string): TeamDomain | null {
  if (!team.domain) return null;
  return {
    domain: team.domain,
    status: team.domainStatus ?? "pending",
    checkedAt: team.domainCheckedAt?.toISOString() ?? null,
    records: domainRecords(team.domain, target, team.domainToken ?? ""),
  };
}
