/**
 * One-click unsubscribe (RFC 8058) from a kind of notification mail, without a sign-in: the signed token
 * in the mail names the person and the preference. A mail client POSTs `List-Unsubscribe=One-Click`
 * (form-encoded) to the link in `List-Unsubscribe`; the /unsubscribe page reads the link, then POSTs.
 */
import {
  dataAnswer,
  EMAIL_PREFERENCE_LABELS,
  messageAnswer,
  type UnsubscribeInfo,
  unsubscribeInfoSchema,
  unsubscribeQuerySchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { unsubscribe, unsubscribeClaims } from "./users.operations.ts";

export async function unsubscribeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Mail clients send the one-click POST form-encoded (its body is only `List-Unsubscribe=One-Click`).
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, body),
  );

  app.get(
    "/api/mail/unsubscribe",
    route({
      summary: "What an unsubscribe link turns off",
      query: unsubscribeQuerySchema,
      action: "public",
      response: dataAnswer(unsubscribeInfoSchema),
    }),
    async (request): Promise<{ data: UnsubscribeInfo }> => {
      const { token } = unsubscribeQuerySchema.parse(request.query);
      const { user, preference } = await unsubscribeClaims(ctx, token);
      return {
        data: {
          preference,
          label: EMAIL_PREFERENCE_LABELS[preference],
          isOn: user.emailPreferences[preference] !== false,
        },
      };
    },
  );

  app.post(
    "/api/mail/unsubscribe",
    route({
      summary: "Turn one kind of notification mail off (RFC 8058 one-click, no sign-in)",
      query: unsubscribeQuerySchema,
      action: "public",
      response: messageAnswer,
      // Posted by mail clients from no page of ours: the signed token is the authority.
      accepts: ["signed"],
    }),
    // The token is in the link's query; the body (a mail client's form) says nothing more.
    async (request) => unsubscribe(ctx, null, requestInput({ params: request.query })),
  );
}
