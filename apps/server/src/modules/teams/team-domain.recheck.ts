/**
 * Domains are re-checked without anyone pressing "Check again": a durable job (pg-boss, one waiting
 * at a time, like the file collector) every DOMAIN_RECHECK_SECONDS looks at the domains whose last check
 * is older than that — not yet active ones each time, active ones once a day (so a removed record is
 * noticed) — and records what DNS says. A check DNS could not answer changes nothing. Team owners'
 * plans are not asked here: a lapsed plan stops certificates at the `ask` endpoint, and removing the
 * domain stays possible.
 */
import { and, asc, eq, isNotNull, isNull, lt, ne, or } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { teams } from "../../db/schema/index.ts";
import type { DnsLookup } from "../../integrations/dns/index.ts";
import { checkDomain } from "./team-domain.check.ts";
import { teamChanged } from "./teams.load.ts";

export const DOMAINS_RECHECK_QUEUE = "domains-recheck";
/** How often the job runs, and how old a not-yet-active domain's last check must be to be asked again. */
export const DOMAIN_RECHECK_SECONDS = 10 * 60;
const ACTIVE_RECHECK_SECONDS = 24 * 60 * 60;
/** Domains asked per pass: DNS is slow, the next pass takes the rest (oldest checks first). */
const PER_PASS = 50;

/** One pass; returns how many domains changed status. */
export async function recheckDomains(ctx: AppContext, dns: DnsLookup, now = new Date()): Promise<number> {
  const { db } = ctx.database;
  const before = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const due = await db
    .select({ id: teams.id, domain: teams.domain, token: teams.domainToken, status: teams.domainStatus })
    .from(teams)
    .where(
      and(
        isNotNull(teams.domain),
        isNotNull(teams.domainToken),
        eq(teams.isDisabled, false),
        or(
          isNull(teams.domainCheckedAt),
          and(ne(teams.domainStatus, "active"), lt(teams.domainCheckedAt, before(DOMAIN_RECHECK_SECONDS))),
          and(eq(teams.domainStatus, "active"), lt(teams.domainCheckedAt, before(ACTIVE_RECHECK_SECONDS))),
        ),
      ),
    )
    .orderBy(asc(teams.domainCheckedAt))
    .limit(PER_PASS);
  let changed = 0;
  for (const team of due) {
    const check = await checkDomain(dns, team.domain!, team.token!, ctx.config.customDomains.target);
    if (check.status === null) continue;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(teams)
        .set({ domainStatus: check.status, domainCheckedAt: now })
        .where(and(eq(teams.id, team.id), eq(teams.domain, team.domain!)))
        .returning({ id: teams.id });
      if (row && check.status !== team.status) {
        changed++;
        await teamChanged(tx, team.id);
      }
    });
  }
  return changed;
}

/** Works the re-check jobs and asks for one every DOMAIN_RECHECK_SECONDS; `stop` ends the asking. */
export async function startDomainRecheck(ctx: AppContext, dns: DnsLookup): Promise<{ stop(): void }> {
  const { queue } = ctx;
  await queue.createQueue(DOMAINS_RECHECK_QUEUE);
  await queue.work(DOMAINS_RECHECK_QUEUE, async () => {
    await recheckDomains(ctx, dns);
  });
  const ask = () =>
    queue
      .send(
        DOMAINS_RECHECK_QUEUE,
        {},
        { singletonKey: DOMAINS_RECHECK_QUEUE, startAfter: DOMAIN_RECHECK_SECONDS, retryLimit: 1 },
      )
      .catch((error: unknown) => console.error("could not schedule the custom-domain re-check", error));
  await ask();
  const timer = setInterval(ask, DOMAIN_RECHECK_SECONDS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
