/**
 * A team's custom domain, its writes (issue #14; SPEC §1, §6; lib/operations.ts): set it (a new token,
 * status pending), re-check it now, remove it. Owner and managers of an enabled team (`teams.domain`);
 * setting and checking need the team owner's plan to include a custom domain (402 otherwise); removing
 * never does, so a lapsed plan can still take its domain down. Each change is told to the team's people
 * (`teams.changed`). Status rules: packages/shared team-domains.ts.
 */
import { randomBytes } from "node:crypto";
import { isOwnHost, setTeamDomainSchema, TEAM_DOMAIN_MESSAGES, type TeamDomain } from "@redline/shared";
import { and, eq, ne } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { teams } from "../../db/schema/index.ts";
import type { DnsLookup } from "../../integrations/dns/index.ts";
import { ConflictError, isUniqueViolation } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { checkDomain, ownHostsOf, presentDomain, requireCustomDomainPlan } from "./team-domain.check.ts";
import { teamFor, teamParams } from "./teams.access.ts";
import { teamChanged } from "./teams.load.ts";

export interface DomainAnswer {
  data: TeamDomain | null;
  message?: string;
}

export const setTeamDomain = operation(
  "teams.domain.set",
  withParams(teamParams, setTeamDomainSchema),
  async (ctx, actor: Actor, { teamId, domain }): Promise<DomainAnswer> => {
    const { db } = ctx.database;
    const target = ctx.config.customDomains.target;
    const { team } = await teamFor(db, actor, teamId, "teams.domain");
    await requireCustomDomainPlan(db, team, ctx.config.plansEnabled);
    if (isOwnHost(domain, ownHostsOf(ctx.config)))
      throw new ConflictError(TEAM_DOMAIN_MESSAGES.ownHost, "domain-own-host");
    // The same domain again keeps its token and status: nothing to redo at the DNS provider.
    if (team.domain === domain)
      return { data: presentDomain(team, target), message: TEAM_DOMAIN_MESSAGES.saved };
    const [holder] = await db
      .select({ id: teams.id })
      .from(teams)
      .where(and(eq(teams.domain, domain), ne(teams.id, team.id)));
    if (holder) throw new ConflictError(TEAM_DOMAIN_MESSAGES.taken, "domain-taken");
    try {
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(teams)
          .set({
            domain,
            domainStatus: "pending",
            domainToken: randomBytes(16).toString("hex"),
            domainCheckedAt: null,
            modifiedAt: new Date(),
          })
          .where(eq(teams.id, team.id))
          .returning();
        await teamChanged(tx, team.id);
        return row!;
      });
      return { data: presentDomain(updated, target), message: TEAM_DOMAIN_MESSAGES.saved };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(TEAM_DOMAIN_MESSAGES.taken, "domain-taken");
      throw error;
    }
  },
);

export const checkTeamDomain = operation(
  "teams.domain.check",
  teamParams,
  async (
    ctx: AppContext & { dns: DnsLookup; warn(details: object, message: string): void },
    actor: Actor,
    { teamId },
  ): Promise<DomainAnswer> => {
    const { db } = ctx.database;
    const target = ctx.config.customDomains.target;
    const { team } = await teamFor(db, actor, teamId, "teams.domain");
    if (!team.domain || !team.domainToken) throw new ConflictError(TEAM_DOMAIN_MESSAGES.none, "domain-none");
    await requireCustomDomainPlan(db, team, ctx.config.plansEnabled);
    const check = await checkDomain(ctx.dns, team.domain, team.domainToken, target);
    if (check.status === null) {
      ctx.warn({ domain: team.domain, error: check.error }, "custom domain check: DNS failed");
      return { data: presentDomain(team, target), message: TEAM_DOMAIN_MESSAGES.lookupFailed };
    }
    const updated = await db.transaction(async (tx) => {
      // Only the domain that was checked: one set meanwhile starts over at pending.
      const [row] = await tx
        .update(teams)
        .set({ domainStatus: check.status, domainCheckedAt: new Date() })
        .where(and(eq(teams.id, team.id), eq(teams.domain, team.domain!)))
        .returning();
      if (row) await teamChanged(tx, team.id);
      return row;
    });
    if (!updated) throw new ConflictError(TEAM_DOMAIN_MESSAGES.none, "domain-none");
    return { data: presentDomain(updated, target), message: TEAM_DOMAIN_MESSAGES.checked[check.status] };
  },
);

export const removeTeamDomain = operation(
  "teams.domain.remove",
  teamParams,
  async (ctx, actor: Actor, { teamId }): Promise<DomainAnswer> => {
    const { db } = ctx.database;
    const { team } = await teamFor(db, actor, teamId, "teams.domain");
    // Removing what is not there is done already: the answer is the same.
    if (team.domain !== null)
      await db.transaction(async (tx) => {
        await tx
          .update(teams)
          .set({
            domain: null,
            domainStatus: null,
            domainToken: null,
            domainCheckedAt: null,
            modifiedAt: new Date(),
          })
          .where(eq(teams.id, team.id));
        await teamChanged(tx, team.id);
      });
    return { data: null, message: TEAM_DOMAIN_MESSAGES.removed };
  },
);
