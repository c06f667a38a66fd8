/**
 * Contact Us and requests for a managed plan (SPEC §2, §7 contact / sendProRequest, §8): a signed-in user
 * writes to the people who run this installation. Each message is stored, then mailed to SUPPORT_EMAIL
 * through the durable outbox (so a slow or failing mail server never fails the request), with the sender
 * as Reply-To. Feedback from the Help menu, with its screenshots, is feedback.routes.ts; the writes are support.operations.ts and feedback.operations.ts.
 */
import { contactSchema, messageAnswer, proRequestSchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { feedbackRoutes } from "./feedback.routes.ts";
import { contactSupport, requestProPlan } from "./support.operations.ts";

export async function supportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await feedbackRoutes(app, { ctx });

  app.post(
    "/api/support/contact",
    route({
      summary: "Contact Us: a message to this installation's support address",
      body: contactSchema,
      action: "self",
      response: messageAnswer,
    }),
    async (request, reply) => {
      const actor = await requireActor(request, { allowUnverified: true });
      const sent = await contactSupport(ctx, actor, requestInput(request));
      reply.status(201);
      return sent;
    },
  );

  app.post(
    "/api/support/pro-request",
    route({
      summary: "Ask for a managed plan (Team plan with a relationship manager)",
      body: proRequestSchema,
      action: "self",
      response: messageAnswer,
    }),
    async (request, reply) => {
      const actor = await requireActor(request, { allowUnverified: true });
      const sent = await requestProPlan(ctx, actor, requestInput(request));
      reply.status(201);
      return sent;
    },
  );
}
