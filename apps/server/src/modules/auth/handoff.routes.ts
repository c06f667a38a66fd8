/**
 * One sign-in on every host of the instance (issue #36 item 17b): a session cookie belongs to the host that
 * set it, so a person who moves from the website-feedback host (APP_URL) to the bug-tracking host
 * (BROWSE_URL) or a team's custom domain would be asked to sign in again. Instead, the host they leave mints
 * a one-time hand-off code (POST, their session, the same-origin check) for a trusted origin; the switcher
 * opens that origin's GET with the code, which takes the code once, opens a session of the same person there
 * and sets its cookie, then goes on to the path asked for. A code lives 60 s, is stored only as a hash in
 * better-auth's `verifications` table, names the host it was minted for, and is taken by one atomic delete.
 */
import { createHmac } from "node:crypto";
import { dataAnswer, handoffLinkSchema, handoffQuerySchema, handoffRequestSchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { handoffNext, mintHandoff, takeHandoff } from "./handoff.operations.ts";
import { requireActor } from "./session.ts";

export async function handoffRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post(
    "/api/session/handoff",
    route({
      summary: "A one-time code that signs the caller in on another host of this instance",
      body: handoffRequestSchema,
      action: "self",
      accepts: ["session"],
      response: dataAnswer(handoffLinkSchema),
    }),
    async (request) => {
      const actor = await requireActor(request, { allowUnverified: true });
      return mintHandoff(ctx, actor, requestInput(request));
    },
  );

  app.get(
    "/api/session/handoff",
    route({
      summary: "Takes a hand-off code: signs its person in on this host and goes on",
      query: handoffQuerySchema,
      action: "public",
      // A redirect on to the path asked for (with the session's cookie when the code was good).
      response: "not-json",
    }),
    async (request, reply) => {
      const { next } = handoffQuerySchema.parse(request.query);
      const userId = await takeHandoff(
        ctx,
        { host: request.headers.host },
        requestInput({ params: request.query }),
      );
      if (userId) {
        const context = await ctx.auth.$context;
        const session = await context.internalAdapter.createSession(userId, false, {
          ipAddress: request.ip,
          userAgent: request.headers["user-agent"] ?? "",
        });
        const { name, attributes } = context.authCookies.sessionToken;
        const signature = createHmac("sha256", context.secret).update(session.token).digest("base64");
        const cookie = [
          `${name}=${encodeURIComponent(`${session.token}.${signature}`)}`,
          `Path=${attributes.path ?? "/"}`,
          `Max-Age=${context.sessionConfig.expiresIn}`,
          "HttpOnly",
          `SameSite=${attributes.sameSite === "none" ? "None" : attributes.sameSite === "strict" ? "Strict" : "Lax"}`,
          ...(attributes.secure ? ["Secure"] : []),
        ];
        reply.header("set-cookie", cookie.join("; "));
      }
      reply.header("cache-control", "no-store");
      return reply.redirect(handoffNext(next), 303);
    },
  );
}
