/**
 * A team's custom domain over HTTP (issue #14; SPEC §1, §6): read it with the DNS records to create; set,
 * re-check and remove are operations (team-domain.operations.ts). A background job re-checks too
 * (team-domain.recheck.ts).
 */
import { dataAnswer, setTeamDomainSchema, teamDomainAnswerSchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import type { DnsLookup } from "../../integrations/dns/index.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { presentDomain } from "./team-domain.check.ts";
import {
  checkTeamDomain,
  type DomainAnswer,
  removeTeamDomain,
  setTeamDomain,
} from "./team-domain.operations.ts";
import { startDomainRecheck } from "./team-domain.recheck.ts";
import { teamFor, teamParams } from "./teams.access.ts";

/** The domain, or null once removed. */
const domainAnswer = dataAnswer(teamDomainAnswerSchema.nullable());

export async function teamDomainRoutes(
  app: FastifyInstance,
  { ctx, dns }: { ctx: AppContext; dns: DnsLookup },
) {
  const { config } = ctx;
  const { db } = ctx.database;
  // Domains are also re-checked in the background (team-domain.recheck.ts), with the same DNS.
  const recheck = await startDomainRecheck(ctx, dns);
  app.addHook("onClose", async () => recheck.stop());

  app.get(
    "/api/teams/:teamId/domain",
    route({
      summary: "The team's custom domain, its DNS records and status",
      action: "teams.domain",
      response: domainAnswer,
    }),
    async (request): Promise<DomainAnswer> => {
      const actor = await requireActor(request);
      const { team } = await teamFor(db, actor, teamParams.parse(request.params).teamId, "teams.domain");
      return { data: presentDomain(team, config.customDomains.target) };
    },
  );

  app.put(
    "/api/teams/:teamId/domain",
    route({
      summary: "Set the team's custom domain",
      body: setTeamDomainSchema,
      action: "teams.domain",
      response: domainAnswer,
    }),
    async (request): Promise<DomainAnswer> =>
      setTeamDomain(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/teams/:teamId/domain/check",
    route({
      summary: "Check the team's custom domain in DNS now",
      action: "teams.domain",
      response: domainAnswer,
    }),
    async (request): Promise<DomainAnswer> =>
      checkTeamDomain(
        { ...ctx, dns, warn: (details, message) => request.log.warn(details, message) },
        await requireActor(request),
        requestInput(request),
      ),
  );

  app.delete(
    "/api/teams/:teamId/domain",
    route({ summary: "Remove the team's custom domain", action: "teams.domain", response: domainAnswer }),
    async (request): Promise<DomainAnswer> =>
      removeTeamDomain(ctx, await requireActor(request), requestInput(request)),
  );
}
