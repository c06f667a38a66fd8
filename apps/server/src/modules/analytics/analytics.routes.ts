/**
 * The browser's analytics (SPEC §7): the events only it sees (view switches, the offer bar, an upgrade
 * started or failed) and the free-text `user-event` log. One validated endpoint per shape; like every API
 * write they are rate-limited (api-rate-limit.ts). Each report is recorded in the ledger (one row, the
 * request's whole cost) and kept by the analytics consumer in this installation's own database
 * (analytics.consumer.ts). A caller whose browser asks not to be tracked (`Sec-GPC: 1` or `DNT: 1`) is
 * kept without a user and without properties or text: the count survives, nothing identifying does.
 */
import { analyticsEventSchema, userEventSchema } from "@redline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import { record } from "../../lib/ledger.ts";
import { asksNotToBeTracked } from "../../lib/request-scope.ts";
import { route } from "../../lib/routes.ts";
import { getActor } from "../auth/session.ts";

export async function analyticsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  async function store(request: FastifyRequest, name: string, properties: Record<string, unknown>) {
    // Not even who it is: a private report is not looked up (the ledger row is stamped private too).
    const actor = asksNotToBeTracked(request) ? null : await getActor(request);
    await record(db, { type: "analytics.reported", name, userId: actor?.user.id ?? null, properties });
  }

  app.post(
    "/api/analytics/events",
    route({
      summary: "Record an analytics event the browser saw (SPEC §7)",
      body: analyticsEventSchema,
      action: "public",
      keepsCaller: true,
      response: "not-json",
    }),
    async (request, reply) => {
      const input = analyticsEventSchema.parse(request.body);
      await store(request, input.event, input.properties);
      reply.status(204);
    },
  );

  app.post(
    "/api/user-event",
    route({
      summary: "Add a line to the event log (SPEC §7 user-event)",
      body: userEventSchema,
      action: "public",
      keepsCaller: true,
      response: "not-json",
    }),
    async (request, reply) => {
      const input = userEventSchema.parse(request.body);
      await store(request, "user-event", { text: input.text });
      reply.status(204);
    },
  );
}
