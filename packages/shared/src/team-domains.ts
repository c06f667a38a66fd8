/**
 * Team custom domains (SPEC §1 host → team, §2 the tab title on a custom host, §6 plan-gated): the
 * contract and its pure rules. A team names a domain; it proves it holds it with a TXT record carrying
 * a token, and points it at this instance with a CNAME. A check turns what DNS answers into a status:
 *
 *   TXT holds the token, CNAME points here → active  (served, certificates may be issued)
 *   TXT holds the token, no CNAME yet      → verified (a proxy may already issue its certificate)
 *   a record answers something else        → failed   (a TXT without the token, a CNAME elsewhere)
 *   records missing                        → pending
 */
import { z } from "zod";
import { teamThemeSchema } from "./teams.ts";

export const TEAM_DOMAIN_STATUSES = ["pending", "verified", "active", "failed"] as const;
export type TeamDomainStatus = (typeof TEAM_DOMAIN_STATUSES)[number];

/** The statuses at which the domain is the team's: the host lookup finds it, a proxy may get it a certificate. */
export const PROVEN_DOMAIN_STATUSES: readonly TeamDomainStatus[] = ["verified", "active"];

export const TEAM_DOMAIN_STATUS_LABELS: Record<TeamDomainStatus, string> = {
  pending: "Pending",
  verified: "Verified",
  active: "Active",
  failed: "Failed",
};

/** A DNS record the team creates at its DNS provider. */
export const dnsRecordSchema = z.strictObject({
  type: z.enum(["CNAME", "TXT"]),
  name: z.string(),
  value: z.string(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

/** GET /api/teams/{id}/domain: the team's domain, what to create in DNS, and where the check stands. */
export const teamDomainAnswerSchema = z.strictObject({
  domain: z.string(),
  status: z.enum(TEAM_DOMAIN_STATUSES),
  /** When DNS was last asked (null: never yet). */
  checkedAt: z.iso.datetime().nullable(),
  records: z.array(dnsRecordSchema),
});
export type TeamDomain = z.infer<typeof teamDomainAnswerSchema>;

/** RFC 1035 host names: the longest whole name, and one label. */
export const DOMAIN_MAX = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The label the TXT token sits under: `_redline-challenge.<domain>`. */
export const DOMAIN_CHALLENGE_LABEL = "_redline-challenge";
export const challengeName = (domain: string) => `${DOMAIN_CHALLENGE_LABEL}.${domain}`;
export const challengeValue = (token: string) => `redline-verification=${token}`;

export const TEAM_DOMAIN_MESSAGES = {
  saved: "Domain saved. Create the DNS records below, then check again.",
  removed: "Custom domain removed.",
  invalid: "Enter a domain name such as review.example.com, without http://, a port or a path.",
  taken: "This domain is already used by another team.",
  ownHost: "This is one of this Redline installation's own addresses. Use a domain of your own.",
  none: "This team has no custom domain.",
  planRequired:
    "A custom domain is not included in the team owner's plan. Upgrade to the Team plan to use one.",
  paused: (domain: string) =>
    `The team owner's plan no longer includes a custom domain: ${domain} does not open Redline for this team until it does again.`,
  lookupFailed: "DNS could not be asked just now. Check again in a moment.",
  checked: {
    pending: "The DNS records are not there yet. DNS changes can take a while to show; check again later.",
    verified: "Domain verified. Point its CNAME record at this installation to make it active.",
    active: "The domain is active.",
    failed: "The DNS records do not match the ones shown. Correct them, then check again.",
  } satisfies Record<TeamDomainStatus, string>,
} as const;

/**
 * A host name as a team enters it: trimmed and lower-cased (one trailing dot dropped), at least two
 * labels of letters, digits and inner hyphens, a top-level label that is not all digits (no IP
 * addresses), at most 253 characters. A scheme, port, path or `*` is refused, not stripped: the
 * person should see that what they typed is not a domain.
 */
export const teamDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => (value.endsWith(".") ? value.slice(0, -1) : value))
  .refine(isDomainName, TEAM_DOMAIN_MESSAGES.invalid);

export function isDomainName(value: string): boolean {
  if (value.length === 0 || value.length > DOMAIN_MAX) return false;
  const labels = value.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return !/^\d+$/.test(labels.at(-1)!);
}

/** PUT /api/teams/{id}/domain. */
export const setTeamDomainSchema = z.object({ domain: teamDomainSchema }).strict();

/** GET /api/domains/ask?domain=… (a reverse proxy's on-demand TLS question). */
export const domainAskQuerySchema = z.object({ domain: z.string().max(DOMAIN_MAX + 1) });

/** The records a team creates: the CNAME to this instance, and the TXT that proves the domain is theirs. */
export function domainRecords(domain: string, instanceHost: string, token: string): DnsRecord[] {
  return [
    { type: "CNAME", name: domain, value: instanceHost },
    { type: "TXT", name: challengeName(domain), value: challengeValue(token) },
  ];
}

/** What DNS answered for one record: the expected value, nothing, or something else. */
export type RecordCheck = "match" | "missing" | "mismatch";

/** The status a check gives (the table in the header). */
export function domainStatusOf(check: { txt: RecordCheck; cname: RecordCheck }): TeamDomainStatus {
  if (check.txt === "match")
    return check.cname === "match" ? "active" : check.cname === "missing" ? "verified" : "failed";
  if (check.txt === "mismatch" || check.cname === "mismatch") return "failed";
  return "pending";
}

/** Whether TXT answers (each a record's strings, joined as DNS splits long ones) hold the token. */
export function txtCheck(records: string[][] | null, token: string): RecordCheck {
  if (!records || records.length === 0) return "missing";
  return records.some((chunks) => chunks.join("").trim() === challengeValue(token)) ? "match" : "mismatch";
}

/** Whether the CNAME answers point at the instance (case and a trailing dot do not matter). */
export function cnameCheck(targets: string[] | null, instanceHost: string): RecordCheck {
  if (!targets || targets.length === 0) return "missing";
  const wanted = normalizeHost(instanceHost);
  return targets.some((target) => normalizeHost(target) === wanted) ? "match" : "mismatch";
}

export const normalizeHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, "");

/**
 * Whether a host is one of the instance's own: its app, content and CNAME-target hosts, and loopback
 * names. Such a host is never a team's domain, and the app shows itself there.
 */
export function isOwnHost(host: string, ownHosts: readonly string[]): boolean {
  const name = normalizeHost(host).replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name.endsWith(".localhost") || name === "127.0.0.1" || name === "::1")
    return true;
  return ownHosts.some((own) => normalizeHost(own).replace(/^\[(.*)\]$/, "$1") === name);
}

/** GET /api/host: who this host is — the instance itself, or a team's custom domain. */
export const hostInfoSchema = z.strictObject({
  host: z.string(),
  isOwnHost: z.boolean(),
  /** The team whose verified or active domain the host is; `theme` only while its branding applies. */
  team: z.strictObject({ name: z.string(), theme: teamThemeSchema.nullable() }).nullable(),
  /** SPEC §2: on a host that is not the instance's own, every tab is titled this; null on own hosts. */
  title: z.string().nullable(),
});
export type HostInfo = z.infer<typeof hostInfoSchema>;

/** SPEC §2: the team's name on its domain, else the host name. */
export function customHostTitle(host: string, teamName: string | null | undefined): string {
  return teamName?.trim() || normalizeHost(host);
}
