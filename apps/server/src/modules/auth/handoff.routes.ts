/**
 * One sign-in on every host of the instance (issue #36 item 17b): a session cookie belongs to the host that
 * set it, so a person who moves from the website-feedback host (APP_URL) to the bug-tracking host
 * (BROWSE_URL) or a team's custom domain would be asked to sign in again. Instead, the host they leave mints
 * a one-time hand-off code (POST, their session, the same-origin check) for a trusted origin; the switcher
 * opens that origin's GET with the code, which takes the code once, opens a session of the same person there
 * and sets its cookie, then goes on to the path asked for. A code lives 60 s, is stored only as a hash in
 * better-auth's `verifications` table, names the host it was minted for, and is taken by one atomic delete.
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { handoffQuerySchema, handoffRequestSchema } from "@redline/shared";
import { and, eq, gt } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { verifications } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "./session.ts";

const HANDOFF_TTL_MS = 60_000;
const identifierOf = (code: string) => `handoff:${createHash("sha256").update(code).digest("hex")}`;

/** A path on this host to go on to: one leading '/', never another origin; else the project list. */
export function handoffNext(value: string | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/projects";
  return value;
}

export async function handoffRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.post(
    "/api/session/handoff",
    route({
      summary: "A one-time code that signs the caller in on another host of this instance",
      body: handoffRequestSchema,
      action: "self",
      accepts: ["session"],
    }),
    async (request) => {
      const actor = await requireActor(ctx.auth, db, request, { allowUnverified: true });
      const { to, next } = handoffRequestSchema.parse(request.body);
      const origin = new URL(to).origin;
      if (!(await ctx.isTrustedOrigin(origin)))
        throw new BadRequestError("That address is not part of this Redline.", "handoff/untrusted-origin");
      const code = randomBytes(32).toString("base64url");
      await db.insert(verifications).values({
        id: randomUUID(),
        identifier: identifierOf(code),
        value: JSON.stringify({ userId: actor.user.id, host: new URL(origin).host }),
        expiresAt: new Date(Date.now() + HANDOFF_TTL_MS),
      });
      const url = new URL("/api/session/handoff", origin);
      url.searchParams.set("code", code);
      url.searchParams.set("next", handoffNext(next));
      return { data: { url: url.toString() } };
    },
  );

  app.get(
    "/api/session/handoff",
    route({
      summary: "Takes a hand-off code: signs its person in on this host and goes on",
      query: handoffQuerySchema,
      action: "public",
    }),
    async (request, reply) => {
      const { code, next } = handoffQuerySchema.parse(request.query);
      const [taken] = await db
        .delete(verifications)
        .where(and(eq(verifications.identifier, identifierOf(code)), gt(verifications.expiresAt, new Date())))
        .returning({ value: verifications.value });
      const claim = taken ? (JSON.parse(taken.value) as { userId: string; host: string }) : null;
      // A code works only on the host it was minted for; a used, expired or foreign one signs nobody in.
      if (claim && claim.host === request.headers.host) {
        const context = await ctx.auth.$context;
        const session = await context.internalAdapter.createSession(claim.userId, false, {
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
