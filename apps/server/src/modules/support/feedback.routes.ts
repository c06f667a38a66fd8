/**
 * Feedback from the Help menu (SPEC §2 feedback dialog, §7 sendFeedback, issue #16): a text and up to
 * three screenshots of the app. Each screenshot is recognised by its bytes (PNG, JPEG or WebP, at most
 * 5 MB) before anything is stored; then the files go to the app's storage (their keys in the row's
 * `details.screenshots`, which the file collector counts as references), the message to
 * `support_messages` (kind 'feedback'), and a mail with the screenshots attached to FEEDBACK_EMAIL through
 * the durable outbox, with the sender as Reply-To.
 */
import {
  feedbackSchema,
  MAX_FEEDBACK_SCREENSHOT_BYTES,
  MAX_FEEDBACK_SCREENSHOTS,
  messageAnswer,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { sendFeedback } from "./feedback.operations.ts";

export async function feedbackRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post(
    "/api/support/feedback",
    route(
      {
        summary: "Send feedback (text and screenshots of the app) to this installation's feedback address",
        body: feedbackSchema,
        action: "self",
        response: messageAnswer,
      },
      // Every screenshot at its limit as base64, plus the text.
      { bodyLimit: Math.ceil(MAX_FEEDBACK_SCREENSHOT_BYTES * 1.4) * MAX_FEEDBACK_SCREENSHOTS + 64 * 1024 },
    ),
    async (request, reply) => {
      const actor = await requireActor(request, { allowUnverified: true });
      const sent = await sendFeedback(ctx, actor, requestInput(request));
      reply.status(201);
      return sent;
    },
  );
}
