/**
 * One-click unsubscribe (RFC 8058) from a kind of notification mail, without a sign-in: the signed token
 * in the mail names the person and the preference. A mail client POSTs `List-Unsubscribe=One-Click`
 * (form-encoded) to the link in `List-Unsubscribe`; the /unsubscribe page reads the link, then POSTs.
 */
import {
  EMAIL_PREFERENCE_LABELS,
  UNSUBSCRIBE_MESSAGES,
  type UnsubscribeInfo,
  unsubscribeQuerySchema,
} from "@redline/shared";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { readUnsubscribeToken } from "../../lib/mail/unsubscribe-token.ts";
import { route } from "../../lib/routes.ts";

export async function unsubscribeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;
  // Mail clients send the one-click POST form-encoded (its body is only `List-Unsubscribe=One-Click`).
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, body),
  );

  /** The person and preference the link names; 400 for a forged or expired link (nothing changes). */
  async function claimsOf(request: FastifyRequest) {
    const { token } = unsubscribeQuerySchema.parse(request.query);
    const read = readUnsubscribeToken(ctx.config.authSecret, token);
    if (!read.ok)
      throw read.reason === "expired"
        ? new BadRequestError(UNSUBSCRIBE_MESSAGES.expired, "unsubscribe-expired")
        : new BadRequestError(UNSUBSCRIBE_MESSAGES.invalid, "unsubscribe-invalid");
    const [user] = await db
      .select({ id: users.id, isDeleted: users.isDeleted, emailPreferences: users.emailPreferences })
      .from(users)
      .where(eq(users.id, read.userId));
    if (!user || user.isDeleted)
      throw new BadRequestError(UNSUBSCRIBE_MESSAGES.invalid, "unsubscribe-invalid");
    return { user, preference: read.preference };
  }

  app.get(
    "/api/mail/unsubscribe",
    route({ summary: "What an unsubscribe link turns off", query: unsubscribeQuerySchema, action: "public" }),
    async (request): Promise<{ data: UnsubscribeInfo }> => {
      const { user, preference } = await claimsOf(request);
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
      // Posted by mail clients from no page of ours: the signed token is the authority.
      signed: true,
    }),
    async (request) => {
      const { user, preference } = await claimsOf(request);
      // One key set in SQL: a settings change made meanwhile keeps its other keys.
      await db
        .update(users)
        .set({
          emailPreferences: sql`${users.emailPreferences} || ${JSON.stringify({ [preference]: false })}::jsonb`,
        })
        .where(eq(users.id, user.id));
      return { message: UNSUBSCRIBE_MESSAGES.done(EMAIL_PREFERENCE_LABELS[preference]) };
    },
  );
}
