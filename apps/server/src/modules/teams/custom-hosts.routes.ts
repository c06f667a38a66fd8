/**
 * Requests on a team's custom domain (SPEC §1 host → team, §2 tab title; issue #14). GET /api/host tells
 * the SPA whose host it runs on: the instance's own, or a team's verified or active domain while the
 * team's plan has a custom domain — its name for the tab title and its theme while its branding applies
 * (SPEC §4). GET /api/domains/ask answers a
 * reverse proxy's on-demand TLS question (Caddy's `ask`): 200 only for a verified or active domain of an
 * enabled team whose owner's plan includes a custom domain, 404 for anything else. The host is Fastify's
 * `request.hostname`, i.e. X-Forwarded-Host only with TRUST_PROXY (as everywhere else in the app).
 */
import {
  appliedTheme,
  customHostTitle,
  dataAnswer,
  domainAskQuerySchema,
  type HostInfo,
  hostInfoSchema,
  isDomainName,
  isOwnHost,
  normalizeHost,
  PROVEN_DOMAIN_STATUSES,
} from "@redline/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { teams, users } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { ownHostsOf } from "./team-domain.check.ts";
import { ownerPlanColumns, teamPlanFor } from "./team-plan.ts";

/**
 * The team whose domain this is, once the domain is proven (verified or active) and while the team's plan
 * has a custom domain (team-plan.ts: enabled, the owner's plan): a lapsed plan ends the domain's team
 * lookup, its theme and its certificate together.
 */
async function teamOfDomain(db: Database, domain: string, plansEnabled: boolean) {
  const [row] = await db
    .select({ team: teams, owner: ownerPlanColumns })
    .from(teams)
    .leftJoin(users, eq(users.id, teams.ownerId))
    .where(and(eq(teams.domain, domain), inArray(teams.domainStatus, [...PROVEN_DOMAIN_STATUSES])));
  if (!row) return null;
  const plan = teamPlanFor(row.team, row.owner, plansEnabled);
  return plan.customDomain ? { ...row.team, plan } : null;
}

export async function customHostsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { config } = ctx;
  const { db } = ctx.database;
  const ownHosts = ownHostsOf(config);

  app.get(
    "/api/host",
    route({
      summary: "Whose host this is: the instance's own, or a team's custom domain",
      action: "public",
      response: dataAnswer(hostInfoSchema),
    }),
    async (request, reply): Promise<{ data: HostInfo }> => {
      // The answer depends on the Host header: caches must keep one per host.
      reply.header("vary", "Host, X-Forwarded-Host").header("cache-control", "no-cache");
      const host = normalizeHost(request.hostname);
      if (isOwnHost(host, ownHosts)) return { data: { host, isOwnHost: true, team: null, title: null } };
      const team = isDomainName(host) ? await teamOfDomain(db, host, config.plansEnabled) : null;
      return {
        data: {
          host,
          isOwnHost: false,
          team: team ? { name: team.name, theme: appliedTheme(team) } : null,
          title: customHostTitle(host, team?.name),
        },
      };
    },
  );

  app.get(
    "/api/domains/ask",
    route({
      summary: "May a certificate be issued for this domain? (a reverse proxy's on-demand TLS ask)",
      query: domainAskQuerySchema,
      action: "public",
      response: dataAnswer(z.strictObject({ domain: z.string() })),
    }),
    async (request) => {
      const parsed = domainAskQuerySchema.safeParse(request.query);
      const domain = parsed.success ? normalizeHost(parsed.data.domain) : "";
      const team = isDomainName(domain) ? await teamOfDomain(db, domain, config.plansEnabled) : null;
      if (!team) throw new NotFoundError("No team serves this domain.", "domain-unknown");
      return { data: { domain } };
    },
  );
}
