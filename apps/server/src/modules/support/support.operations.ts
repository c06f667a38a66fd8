/**
 * Contact Us and requests for a managed plan (lib/operations.ts): each message is stored, then mailed to
 * SUPPORT_EMAIL through the durable outbox (so a slow or failing mail server never fails the request), with
 * the sender as Reply-To.
 */
import { contactSchema, proRequestSchema, SUPPORT_MESSAGES } from "@redline/shared";
import type { AppContext } from "../../context.ts";
import { supportMessages } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { supportMail } from "../../lib/mail/support-templates.ts";
import { operation } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";

async function send(
  ctx: AppContext,
  actor: Actor,
  kind: "contact" | "pro-request",
  message: { subject: string; message: string; details?: Record<string, unknown> },
) {
  const sender = { name: actor.user.displayName || actor.user.email, email: actor.user.email };
  await ctx.database.db.insert(supportMessages).values({
    id: newId(),
    kind,
    userId: actor.user.id,
    ...sender,
    subject: message.subject,
    message: message.message,
    details: message.details ?? {},
  });
  await ctx.mailer.send(supportMail({ to: ctx.config.supportEmail, kind, sender, ...message }));
}

export const contactSupport = operation(
  "support.contact",
  contactSchema,
  async (ctx, actor: Actor, input) => {
    await send(ctx, actor, "contact", input);
    return { message: SUPPORT_MESSAGES.contactSent };
  },
);

export const requestProPlan = operation(
  "support.proRequest",
  proRequestSchema,
  async (ctx, actor: Actor, input) => {
    await send(ctx, actor, "pro-request", {
      subject: `Plan request from ${input.company}`,
      message: input.message,
      details: { company: input.company, teamSize: input.teamSize },
    });
    return { message: SUPPORT_MESSAGES.requestSent };
  },
);
