/**
 * Contact Us and requests for a managed plan (SPEC §2, §7 contact / sendProRequest, §8): a signed-in user
 * writes to the people who run this installation. Each message is stored, then mailed to SUPPORT_EMAIL
 * through the durable outbox (so a slow or failing mail server never fails the request), with the sender
 * as Reply-To. Feedback from the Help menu, with its screenshots, is feedback.routes.ts.
 */
import { contactSchema, proRequestSchema, SUPPORT_MESSAGES } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { supportMessages } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { supportMail } from "../../lib/mail/support-templates.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { feedbackRoutes } from "./feedback.routes.ts";

export async function supportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, mailer } = ctx;
  const { db } = ctx.database;
  await feedbackRoutes(app, { ctx });

  async function send(
    actor: Actor,
    kind: "contact" | "pro-request",
    message: { subject: string; message: string; details?: Record<string, unknown> },
  ) {
    const sender = { name: actor.user.displayName || actor.user.email, email: actor.user.email };
    await db.insert(supportMessages).values({
      id: newId(),
      kind,
      userId: actor.user.id,
      ...sender,
      subject: message.subject,
      message: message.message,
      details: message.details ?? {},
    });
    await mailer.send(supportMail({ to: ctx.config.supportEmail, kind, sender, ...message }));
  }

  app.post(
    "/api/support/contact",
    route({
      summary: "Contact Us: a message to this installation's support address",
      body: contactSchema,
      action: "self",
    }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request, { allowUnverified: true });
      const input = contactSchema.parse(request.body);
      await send(actor, "contact", input);
      reply.status(201);
      return { message: SUPPORT_MESSAGES.contactSent };
    },
  );

  app.post(
    "/api/support/pro-request",
    route({
      summary: "Ask for a managed plan (Team plan with a relationship manager)",
      body: proRequestSchema,
      action: "self",
    }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request, { allowUnverified: true });
      const input = proRequestSchema.parse(request.body);
      await send(actor, "pro-request", {
        subject: `Plan request from ${input.company}`,
        message: input.message,
        details: { company: input.company, teamSize: input.teamSize },
      });
      reply.status(201);
      return { message: SUPPORT_MESSAGES.requestSent };
    },
  );
}
