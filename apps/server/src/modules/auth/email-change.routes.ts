/**
 * Account Settings → e-mail address: ask for a change, send its link again, cancel it (the signed-in
 * person's own session only), and follow the link (anyone holding it: the link is the proof).
 */
import {
  dataAnswer,
  EMAIL_CHANGE_MESSAGES,
  emailChangeConfirmSchema,
  emailChangedSchema,
  emailChangePendingSchema,
  emailChangeRequestSchema,
  MESSAGES,
  messageAnswer,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../lib/routes.ts";
import {
  cancelEmailChange,
  confirmEmailChange,
  requestEmailChange,
  resendEmailChange,
} from "./email-change.ts";
import { getActor, requireActor } from "./session.ts";

export async function emailChangeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post(
    "/api/me/email-change",
    route({
      summary: "Ask to change your e-mail address (with your password); a link goes to the new one",
      body: emailChangeRequestSchema,
      action: "self",
      accepts: ["session"],
      response: dataAnswer(emailChangePendingSchema),
    }),
    async (request) => {
      const actor = await requireActor(request);
      const input = emailChangeRequestSchema.parse(request.body);
      return {
        data: await requestEmailChange(ctx, actor, input),
        message: EMAIL_CHANGE_MESSAGES.requested,
      };
    },
  );

  app.post(
    "/api/me/email-change/resend",
    route({
      summary: "Send the pending e-mail change's link again",
      action: "self",
      accepts: ["session"],
      response: dataAnswer(emailChangePendingSchema),
    }),
    async (request) => {
      const actor = await requireActor(request);
      return { data: await resendEmailChange(ctx, actor), message: EMAIL_CHANGE_MESSAGES.resent };
    },
  );

  app.delete(
    "/api/me/email-change",
    route({
      summary: "Cancel the pending e-mail change",
      action: "self",
      accepts: ["session"],
      response: messageAnswer,
    }),
    async (request) => {
      const actor = await requireActor(request);
      await cancelEmailChange(ctx, actor);
      return { message: EMAIL_CHANGE_MESSAGES.cancelled };
    },
  );

  app.post(
    "/api/email-change",
    route({
      summary: "Follow an e-mail change link: the new address becomes the account's",
      body: emailChangeConfirmSchema,
      action: "public",
      response: dataAnswer(emailChangedSchema),
    }),
    async (request) => {
      const { token } = emailChangeConfirmSchema.parse(request.body);
      const changed = await confirmEmailChange(ctx, token);
      const signedIn = Boolean(await getActor(request));
      return {
        data: changed,
        message: signedIn ? MESSAGES.emailVerified : MESSAGES.emailVerifiedSignedOut,
      };
    },
  );
}
