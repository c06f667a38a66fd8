import {
  countryEntrySchema,
  dataAnswer,
  GRANT_MESSAGES,
  lifetimeRedeemSchema,
  type PrivilegeLinkState,
  privilegeLinkStateSchema,
  privilegeRedeemSchema,
  userSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { countryEntries } from "../plans/countries.ts";
import {
  privilegeLinkState,
  redeemLifetimeCode,
  redeemPartnerCode,
  redeemPrivilege,
} from "../plans/grants.ts";
import { countersOf } from "./counters.ts";
import { presentUser } from "./users.presenter.ts";

/**
 * Taking a privilege link (after signing up through it), a lifetime-deal code or a partner-program code:
 * the user's own plan.
 */
export async function grantsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { database, config } = ctx;
  const { db } = database;

  app.get(
    "/api/countries",
    route({
      summary: "Countries with their currency (SPEC §3), sorted by name",
      action: "public",
      response: dataAnswer(z.array(countryEntrySchema)),
    }),
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=86400");
      return { data: countryEntries() };
    },
  );

  const privilegeLinkQuery = privilegeRedeemSchema.pick({ token: true });
  const privilegeLinkParams = privilegeRedeemSchema.pick({ plan: true });
  app.get(
    "/api/privilege-links/:plan",
    route({
      summary: "Whether a privilege link can still be taken (asked before signing up through it)",
      query: privilegeLinkQuery,
      action: "public",
      response: dataAnswer(privilegeLinkStateSchema),
    }),
    async (request): Promise<{ data: PrivilegeLinkState }> => {
      const { plan } = privilegeLinkParams.parse(request.params);
      const { token } = privilegeLinkQuery.parse(request.query);
      return { data: await privilegeLinkState(db, config.authSecret, plan, token) };
    },
  );

  app.post(
    "/api/me/privilege",
    route({
      summary: "Take a privilege link's plan",
      body: privilegeRedeemSchema,
      action: "self",
      response: dataAnswer(userSchema),
      accepts: ["session"],
    }),
    async (request) => {
      const { user } = await requireActor(request);
      const input = privilegeRedeemSchema.parse(request.body);
      const updated = await redeemPrivilege(db, config.authSecret, user.id, input.plan, input.token);
      return {
        data: presentUser(updated, config.plansEnabled, await countersOf(db, user.id)),
        message: GRANT_MESSAGES.privilegeGranted,
      };
    },
  );

  // A lifetime-deal code and a partner-program code (plans A–D) are redeemed alike, each by its own grant.
  for (const code of [
    {
      path: "/api/me/lifetime-deal",
      summary: "Redeem a lifetime-deal code",
      redeem: redeemLifetimeCode,
      message: GRANT_MESSAGES.lifetimeRedeemed,
    },
    {
      path: "/api/me/partner-plan",
      summary: "Redeem a partner-program code (plans A–D)",
      redeem: redeemPartnerCode,
      message: GRANT_MESSAGES.partnerRedeemed,
    },
  ])
    app.post(
      code.path,
      route({
        summary: code.summary,
        body: lifetimeRedeemSchema,
        action: "self",
        response: dataAnswer(userSchema),
        accepts: ["session"],
      }),
      async (request) => {
        const { user } = await requireActor(request);
        const input = lifetimeRedeemSchema.parse(request.body);
        const updated = await code.redeem(db, config.authSecret, user.id, input.code);
        return {
          data: presentUser(updated, config.plansEnabled, await countersOf(db, user.id)),
          message: code.message,
        };
      },
    );
}
