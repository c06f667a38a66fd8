/** How the custom-domain panel speaks of a status: its tag, what to do next, how a check went. */
import { TEAM_DOMAIN_STATUS_LABELS, type TeamDomain, type TeamDomainStatus } from "@redline/shared";

export type Tone = "success" | "warning" | "danger" | "info";

/** The tag beside the title: proven green, failed red, waiting amber. */
export const DOMAIN_STATUS_TONE: Record<TeamDomainStatus, Tone> = {
  pending: "warning",
  verified: "success",
  active: "success",
  failed: "danger",
};

export const domainStatusLabel = (status: TeamDomainStatus) => TEAM_DOMAIN_STATUS_LABELS[status];
/** The tag while the team's plan has no custom domain (whatever DNS says, the domain serves nothing). */
export const PAUSED_LABEL = "Paused";

/** The line under the records: what the status means and what comes next. */
export function domainStatusHint(domain: Pick<TeamDomain, "domain" | "status" | "records">): string {
  const cname = domain.records.find((record) => record.type === "CNAME")?.value ?? "this installation";
  switch (domain.status) {
    case "pending":
      return "Create both records at your DNS provider, then check again. DNS changes can take a while to show.";
    case "verified":
      return `The TXT record proves the domain is yours. Point its CNAME at ${cname} to make it active.`;
    case "active":
      return `Live: ${domain.domain} opens Redline under this team's name.`;
    case "failed":
      return "A record answers something other than the value shown. Correct it, then check again.";
  }
}

/** How a check's message is shown: good news green, a wrong record as a warning, still waiting as news. */
export function checkOutcome(status: TeamDomainStatus | null): "success" | "warning" | "info" {
  if (status === "verified" || status === "active") return "success";
  return status === "failed" ? "warning" : "info";
}

/** "Checked 5 minutes ago" / "Not checked yet". */
export function checkedLabel(checkedAt: string | null, timeAgo: (iso: string) => string): string {
  return checkedAt ? `Checked ${timeAgo(checkedAt)}` : "Not checked yet";
}
