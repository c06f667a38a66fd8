/**
 * The /dev/dns page: the embedded DNS server's address and records, a form to add one, and the teams'
 * custom domains with the records each asks for. Self-contained HTML (inline CSS, no script) in the
 * look of the other embedded providers' pages, wider for its tables.
 */
import type { DnsRecord, TeamDomainStatus } from "@redline/shared";
import { TEAM_DOMAIN_STATUS_LABELS } from "@redline/shared";
import { escapeHtml } from "../stripe/checkout-page.ts";
import type { DnsDevRecord } from "./dns-dev.server.ts";

export interface DnsDevView {
  server: string;
  records: DnsDevRecord[];
  domains: { team: string; domain: string; status: TeamDomainStatus; records: DnsRecord[] }[];
}

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 32px 16px; background: #fafafa; color: #18181b;
  font: 15px/1.5 Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif; }
main { max-width: 1040px; margin: 0 auto; display: grid; gap: 24px; }
section { background: #fff; border: 1px solid #e4e4e7; border-radius: 12px; padding: 24px;
  box-shadow: 0 1px 2px rgb(0 0 0 / 4%); }
.eyebrow { margin: 0 0 8px; font-size: 12px; letter-spacing: 0.04em; text-transform: uppercase; color: #71717a; }
h1 { margin: 0 0 8px; font-size: 24px; font-weight: 600; }
h2 { margin: 0 0 16px; font-size: 16px; font-weight: 600; }
p { margin: 0 0 8px; color: #52525b; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: #f4f4f5; border-radius: 4px;
  padding: 2px 6px; overflow-wrap: anywhere; }
.table { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
td code, p code.command { white-space: nowrap; }
th { text-align: left; font-weight: 500; color: #71717a; padding: 8px; border-bottom: 1px solid #e4e4e7; }
td { padding: 8px; border-bottom: 1px solid #f4f4f5; vertical-align: middle; overflow-wrap: anywhere; }
td.type { width: 80px; font-weight: 500; }
td.action { width: 1%; white-space: nowrap; text-align: right; }
.empty { color: #71717a; font-size: 14px; }
form.add { display: grid; grid-template-columns: 110px 1fr 1fr auto; gap: 8px; margin-top: 16px; align-items: end; }
label { display: grid; gap: 4px; font-size: 13px; color: #52525b; }
input, select { height: 40px; padding: 0 12px; border: 1px solid #e4e4e7; border-radius: 8px; font: inherit;
  background: #fff; color: #18181b; }
button { height: 40px; padding: 0 16px; border: 1px solid #e4e4e7; border-radius: 8px; background: #fff;
  color: #18181b; font: inherit; font-weight: 500; cursor: pointer; }
button.small { height: 32px; padding: 0 12px; font-size: 14px; }
button:hover { background: #f4f4f5; }
button.primary { border-color: #e5484d; background: #e5484d; color: #fff; }
button.primary:hover { background: #dc3e42; }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid #e5484d; outline-offset: 2px; }
.domain { border-top: 1px solid #e4e4e7; padding-top: 16px; margin-top: 16px; }
.domain:first-of-type { border-top: 0; padding-top: 0; margin-top: 0; }
.domain-head { display: flex; align-items: center; justify-content: space-between; gap: 16px; margin-bottom: 8px; }
.badge { display: inline-block; margin-left: 8px; padding: 2px 8px; border-radius: 999px; font-size: 12px;
  font-weight: 500; background: #f4f4f5; color: #52525b; }
.badge.active, .badge.verified { background: #ecfdf3; color: #067647; }
.badge.failed { background: #fef2f2; color: #b91c1c; }
a { color: #18181b; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const postButton = (action: string, label: string, className = "small") =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit" class="${className}">${escapeHtml(label)}</button></form>`;

export function dnsDevPage(view: DnsDevView): string {
  const rows = view.records
    .map(
      (record) => `<tr>
<td class="type">${escapeHtml(record.type)}</td><td><code>${escapeHtml(record.name)}</code></td>
<td><code>${escapeHtml(record.value)}</code></td>
<td class="action">${postButton(`/dev/dns/records/${encodeURIComponent(record.id)}/delete`, "Remove")}</td>
</tr>`,
    )
    .join("\n");
  const domains = view.domains
    .map(
      (entry) => `<div class="domain">
<div class="domain-head">
<p><strong>${escapeHtml(entry.domain)}</strong> — ${escapeHtml(entry.team)}<span class="badge ${entry.status}">${escapeHtml(TEAM_DOMAIN_STATUS_LABELS[entry.status])}</span></p>
${postButton(`/dev/dns/domains/${encodeURIComponent(entry.domain)}`, "Create these records", "small primary")}
</div>
<div class="table"><table><tbody>
${entry.records.map((record) => `<tr><td class="type">${record.type}</td><td><code>${escapeHtml(record.name)}</code></td><td><code>${escapeHtml(record.value)}</code></td></tr>`).join("\n")}
</tbody></table></div>
</div>`,
    )
    .join("\n");
  return layout(
    "DNS | Redline",
    `<section>
<p class="eyebrow">Redline development DNS</p>
<h1>DNS records</h1>
<p>The DNS server this installation asks while no <code>DNS_SERVERS</code> are configured. It answers A, CNAME
and TXT queries from the records below, on <code>${escapeHtml(view.server)}</code> (UDP). Records last until the
server stops.</p>
<p>Try: <code class="command">dig @${escapeHtml(view.server.split(":")[0]!)} -p ${escapeHtml(view.server.split(":")[1]!)} TXT _redline-challenge.review.example.com</code></p>
</section>
<section aria-labelledby="domains-title">
<h2 id="domains-title">Teams' custom domains</h2>
${domains || '<p class="empty">No team has a custom domain yet. Add one on a team\'s page, under Custom domain.</p>'}
</section>
<section aria-labelledby="records-title">
<h2 id="records-title">Records</h2>
${rows ? `<div class="table"><table><thead><tr><th>Type</th><th>Name</th><th>Value</th><th><span hidden>Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>` : '<p class="empty">No records yet.</p>'}
<form class="add" method="post" action="/dev/dns/records">
<label>Type<select name="type"><option>CNAME</option><option>TXT</option><option>A</option></select></label>
<label>Name<input name="name" required placeholder="review.example.com"></label>
<label>Value<input name="value" required placeholder="localhost"></label>
<button type="submit" class="primary">Add record</button>
</form>
</section>`,
  );
}

export function dnsDevMessagePage(title: string, message: string): string {
  return layout(
    `${title} | Redline`,
    `<section>
<p class="eyebrow">Redline development DNS</p>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/dev/dns">Back to the DNS records</a></p>
</section>`,
  );
}
