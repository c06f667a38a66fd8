/**
 * The hand-off codes (handoff.routes.ts, lib/operations.ts): minted for a trusted origin by a signed-in
 * person, taken once on the host it names. A code lives 60 s and is stored only as a hash in better-auth's
 * `verifications` table; taking it is one atomic delete.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { handoffQuerySchema, handoffRequestSchema } from "@redline/shared";
import { and, eq, gt } from "drizzle-orm";
import { verifications } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { operation } from "../../lib/operations.ts";
import type { Actor } from "./session.ts";

const HANDOFF_TTL_MS = 60_000;
const identifierOf = (code: string) => `handoff:${createHash("sha256").update(code).digest("hex")}`;

/** A path on this host to go on to: one leading '/', never another origin; else the project list. */
export function handoffNext(value: string | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/projects";
  return value;
}

export const mintHandoff = operation(
  "session.handoff",
  handoffRequestSchema,
  async (ctx, actor: Actor, { to, next }) => {
    const origin = new URL(to).origin;
    if (!(await ctx.isTrustedOrigin(origin)))
      throw new BadRequestError("That address is not part of this Redline.", "handoff/untrusted-origin");
    const code = randomBytes(32).toString("base64url");
    await ctx.database.db.insert(verifications).values({
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

/**
 * Takes a code once: the person it signs in, when it was minted for this host (`host`, the request's);
 * a used, expired or foreign code signs nobody in (null).
 */
export const takeHandoff = operation(
  "session.takeHandoff",
  handoffQuerySchema,
  async (ctx, visitor: { host: string | undefined }, { code }): Promise<string | null> => {
    const [taken] = await ctx.database.db
      .delete(verifications)
      .where(and(eq(verifications.identifier, identifierOf(code)), gt(verifications.expiresAt, new Date())))
      .returning({ value: verifications.value });
    const claim = taken ? (JSON.parse(taken.value) as { userId: string; host: string }) : null;
    return claim && claim.host === visitor.host ? claim.userId : null;
  },
);
